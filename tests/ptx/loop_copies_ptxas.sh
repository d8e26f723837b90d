# The kernels of tests/ptx/loop_copies.sh assemble for sm_80 and sm_90a
# without errors or warnings.
# REQUIRES: ptxas
# RUN: %python %S/Inputs/ptxas_suite.py %tritonc %S/Inputs/loop_copies.py
