#!/bin/sh
# Builds and runs the .tri pipeline benchmark (bench/tri/tri_compile.c).
# Usage, from the repository root: bench/tri/run.sh [SECONDS [REPEATS]]
set -e
make -s build/libtritonc.a
mkdir -p build/bench
cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Isrc bench/tri/tri_compile.c build/libtritonc.a \
    -lm -lpthread -o build/bench/tri_compile
./build/bench/tri_compile "${1:-2}" "${2:-5}"
