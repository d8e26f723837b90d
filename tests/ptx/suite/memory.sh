# Every specialisation of tests/kernels/memory.py compiles to PTX for sm_80 and
# sm_90a, and ptxas assembles it without errors or warnings.
# REQUIRES: ptxas
# block_ptr_kernel waits for tl.make_block_ptr / tl.advance in the front end
# (wt/sema2: tt.make_tensor_ptr and the rewrite-tensor-pointer pass); drop
# the --xfail when it lands (the script fails on an unexpected pass).
# RUN: %python %S/../Inputs/ptxas_suite.py %tritonc %S/../../kernels/memory.py --xfail block_ptr_kernel
