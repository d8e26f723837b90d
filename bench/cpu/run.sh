#!/bin/sh
# bench/cpu/run.sh - builds the library and bench_cpu.c (-O3 -march=native,
# the same flags the backend gives generated kernels) and runs it with the
# default thread count and with one thread. Usage: bench/cpu/run.sh
set -e
cd "$(dirname "$0")/../.."
make -s build/libtritonc.a
CC=${CC:-cc}
$CC -std=gnu11 -D_GNU_SOURCE -O3 -march=native -fno-math-errno -Isrc -Iinclude -Itests/unit \
    -o build/bench_cpu bench/cpu/bench_cpu.c build/libtritonc.a -lm -ldl -lpthread
export TRITONC_CACHE_DIR="${TRITONC_CACHE_DIR:-$(mktemp -d)}"
echo "== default threads"
./build/bench_cpu
echo "== TRITONC_NUM_THREADS=1"
TRITONC_NUM_THREADS=1 ./build/bench_cpu
