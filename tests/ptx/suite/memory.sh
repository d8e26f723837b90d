# Every specialisation of tests/kernels/memory.py compiles to PTX for sm_80 and
# sm_90a, and ptxas assembles it without errors or warnings.
# REQUIRES: ptxas
# block_ptr_kernel goes through tl.make_block_ptr / tl.advance and the
# rewrite-tensor-pointer pass.
# RUN: %python %S/../Inputs/ptxas_suite.py %tritonc %S/../../kernels/memory.py
