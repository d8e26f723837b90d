# RUN: %python %S/compare_triton.py --tritonc %tritonc --check
#
# TTIR parity with Triton 3.6: every corpus kernel (tests/kernels) compiled
# with --emit ttir must match Triton's tests/ir/triton/<stem>.ttir
# structurally (op multisets, types and attributes, loop/if structure,
# placement, signature), except for the differences listed, with a reason,
# in KNOWN in compare_triton.py. Run the script without --check for the
# per-kernel report.
