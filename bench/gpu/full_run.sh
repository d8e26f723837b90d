#!/usr/bin/env bash
# One lease's measurements for issue #6, on the device machine, in one call:
# builds, then runs the named sections in order, each writing its whole log
# under $OUT (default /tmp) and printing its summary lines:
#
#   vs       bench/gpu/vs_triton.py: the corpus checked against Triton and
#            torch, the three benchmarks' kernel times, cold first calls and
#            source->PTX compile times (vs_triton.md / .json)
#   launch   bench/gpu/launch_profile.py: the driver floor, the hot path from
#            Python and the first call from a warm disk cache
#   pytests  bench/gpu/python_tests_on_cuda.sh: tests/python with tensors on
#            CUDA (PYTESTS="a b" runs only tests/python/test_{a,b}.py)
#   dots     bench/gpu/dot_vs_triton.py
#   compile  bench/gpu/compile_speed.py, ROUNDS rounds (default 3; compile_speed-N.md);
#            with BASE=DIR (a folder holding another tree's compile_time,
#            e.g. carried in) that build too, in turns (compile_speed-base-N.md)
#
#   OUT=DIR bash bench/gpu/full_run.sh vs launch pytests
set -u
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp}"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
if ! make -j16 all > "$out/build.log" 2>&1; then
    tail -30 "$out/build.log"
    exit 1
fi
cc -O2 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc bench/gpu/compile_time.c build/libtritonc.a \
    -o build/compile_time -lm -ldl -lpthread || exit 1
for s in "$@"; do
    t0=$(date +%s)
    echo "== $s"
    case "$s" in
    vs)
        python3 bench/gpu/vs_triton.py --no-build --out "$out" > "$out/vs.log" 2>&1
        grep -E "^\| (vector add|fused softmax|layer norm)|^Checks|median|over 1 ms|Traceback|Error" "$out/vs.log" | head -20
        ;;
    launch)
        python3 bench/gpu/launch_profile.py --no-build --procs 5 > "$out/launch.log" 2>&1
        grep -E "median|floor|PIECES|Traceback" "$out/launch.log" | grep -v "^ " | head -40
        ;;
    pytests)
        OUT="$out" bash bench/gpu/python_tests_on_cuda.sh > "$out/pytests.txt" 2>&1
        grep -v "^ok" "$out/pytests.txt" | tail -15
        ;;
    dots)
        python3 bench/gpu/dot_vs_triton.py --no-build --out "$out" > "$out/dots.log" 2>&1
        tail -25 "$out/dots.log"
        ;;
    compile)
        [ -n "${BASE:-}" ] && touch "$BASE/compile_time" # never rebuilt against this tree's headers
        for r in $(seq "${ROUNDS:-3}"); do
            if [ -n "${BASE:-}" ]; then
                python3 bench/gpu/compile_speed.py --build "$BASE" > "$out/compile_speed-base-$r.md" 2>&1
                tail -1 "$out/compile_speed-base-$r.md"
            fi
            python3 bench/gpu/compile_speed.py > "$out/compile_speed-$r.md" 2>&1
            tail -1 "$out/compile_speed-$r.md"
        done
        ;;
    *)
        echo "unknown section $s"
        ;;
    esac
    echo "-- $s: $(( $(date +%s) - t0 )) s"
done
