# Smoke run of the ir parser's fuzz target (libFuzzer + ASan + UBSan): a few
# thousand inputs mutated from the seed corpus must not crash, leak or hang.
# REQUIRES: clang
# RUN: env -u MAKEFLAGS -u MAKELEVEL -u BUILD make -s --no-print-directory build/fuzz/fuzz_ir
# RUN: mkdir -p %t.corpus && build/fuzz/fuzz_ir -runs=4000 -max_len=8192 -timeout=10 %t.corpus tests/ir > %t.log 2>&1 || (tail -40 %t.log; false)
