# Smoke run of the whole compile (sema, passes with the verifier, C and PTX emitters)'s fuzz target (libFuzzer + ASan + UBSan): a few
# thousand inputs mutated from the seed corpus must not crash, leak or hang.
# REQUIRES: clang
# RUN: env -u MAKEFLAGS -u MAKELEVEL make -s --no-print-directory build/fuzz/fuzz_compile
# RUN: mkdir -p %t.corpus && build/fuzz/fuzz_compile -runs=1500 -max_len=16384 -timeout=10 %t.corpus tests/kernels > %t.log 2>&1 || (tail -40 %t.log; false)
