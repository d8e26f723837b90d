# Every specialisation of tests/kernels/probe26_kernels.py compiles to PTX for sm_80 and
# sm_90a, and ptxas assembles it without errors or warnings.
# REQUIRES: ptxas
# RUN: %python %S/../Inputs/ptxas_suite.py %tritonc %S/../../kernels/probe26_kernels.py
