# Smoke run of the whole-compile fuzz target (libFuzzer + ASan + UBSan: sema, the
# passes with the verifier, the C and PTX emitters): 1500 inputs mutated from the
# kernel corpus must not crash, leak or hang.
# REQUIRES: clang
# RUN: env -u MAKEFLAGS -u MAKELEVEL -u BUILD make -s --no-print-directory build/fuzz/fuzz_compile
# RUN: mkdir -p %t.corpus && build/fuzz/fuzz_compile -runs=1500 -max_len=16384 -timeout=10 %t.corpus tests/kernels > %t.log 2>&1 || (tail -40 %t.log; false)
