#!/usr/bin/env bash
# Times source -> tt IR for every KERNEL block of tests/kernels/*.py.
#   bench/frontend/run.sh [BUILD]   (BUILD defaults to build)
# Builds bench_frontend against BUILD/libtritonc.a and prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${1:-build}
cc -std=c11 -D_GNU_SOURCE -O2 -Isrc ${BENCH_CFLAGS:-} -o "$B/bench_frontend" bench/frontend/bench_frontend.c \
   ${BENCH_EXTRA_SRCS:-} "$B/libtritonc.a" -lm -lpthread
echo "| file | kernel | ms per kernel |"
echo "| --- | --- | --- |"
/usr/bin/python3 - <<'PY' | while IFS=$'\t' read -r f k s c; do
import glob
for f in sorted(glob.glob('tests/kernels/*.py')):
    k = None
    for line in open(f):
        if not line.startswith('#') and line.strip(): break
        line = line.strip()
        if line.startswith('# KERNEL:'):
            if k: print('\t'.join([f, k, s, c]))
            k = line.split(':', 1)[1].strip(); s = ''; c = ''
        elif line.startswith('# SIGNATURE:'): s = line.split(':', 1)[1].strip()
        elif line.startswith('# CONSTEXPR:'): c = line.split(':', 1)[1].strip()
    if k: print('\t'.join([f, k, s, c]))
PY
  args=$(echo "$c" | tr ',' ' ')
  out=$("$B/bench_frontend" "$f" "$k" "$s" $args -n2000 2>/dev/null || echo "$k error")
  echo "| $(basename "$f") | $k | ${out#* } |"
done
