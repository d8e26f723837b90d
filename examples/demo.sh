#!/usr/bin/env bash
# The end-to-end demo (`make demo`): a Triton kernel file compiled by tritonc
# to tt IR and to C, then run on the CPU from a C program through the API.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
echo "== tritonc compile examples/softmax.py --kernel add_kernel --emit ttir"
"$BUILD/tritonc" compile examples/softmax.py --kernel add_kernel \
    --signature '*fp32:16,*fp32:16,*fp32:16,i32' -D BLOCK_SIZE=1024 --emit ttir
echo
echo "== examples/demo.c: compile and run through the C API (CPU)"
cc -O2 -Iinclude examples/demo.c "$BUILD/libtritonc.a" -lm -ldl -lpthread -o "$BUILD/demo"
"$BUILD/demo" examples/softmax.py
