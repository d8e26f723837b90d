#!/usr/bin/env bash
# Runs every tests/python script with tensors made on CUDA by default
# (bench/gpu/cuda_default/sitecustomize.py), so the binding's kernels run on
# the GPU: a broad check of the PTX backend on the same programs CI runs on
# the CPU. Scripts that build numpy arrays or call .numpy() fail for that
# reason alone; read each failure's tail (in $OUT/pytests.log) before blaming
# the compiler. Prints one line per script and a closing count.
# PYTESTS="erf64 vector_add" runs only tests/python/test_{erf64,vector_add}.py.
#
#   make -j16 all && bash bench/gpu/python_tests_on_cuda.sh
set -u
cd "$(dirname "$0")/../.."
out="$(mktemp -d)"
all="${OUT:-/tmp}/pytests.log"
: > "$all"
export PYTHONPATH="$PWD/bench/gpu/cuda_default:$PWD/python"
export TRITONC_CACHE_DIR="$(mktemp -d)"
pass=0; fail=0
for t in tests/python/*.py; do
    name=$(basename "$t" .py)
    case " ${PYTESTS:-${name#test_}} " in *" ${name#test_} "*) ;; *) continue ;; esac
    if timeout 300 python3 "$t" > "$out/$name.log" 2>&1; then
        pass=$((pass + 1)); echo "ok    $name"
    else
        fail=$((fail + 1)); echo "FAIL  $name: $(grep -v '^\s*$' "$out/$name.log" | tail -1 | cut -c1-200)"
        { echo "==== $name"; tail -60 "$out/$name.log"; } >> "$all"
    fi
done
echo "$pass passed, $fail failed (tensors on CUDA by default)"
