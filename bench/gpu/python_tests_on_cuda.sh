#!/usr/bin/env bash
# Runs every tests/python script with tensors made on CUDA by default
# (bench/gpu/cuda_default/sitecustomize.py), so the binding's kernels run on
# the GPU: a broad check of the PTX backend on the same programs CI runs on
# the CPU (torch.from_numpy lands on CUDA and .numpy() reads a host copy
# there too). Scripts that pass numpy arrays to kernels next to tensors fail
# for that reason alone; read each failure's tail (in $OUT/pytests.log)
# before blaming the compiler. Prints one line per script, in name order, and a closing count.
# PYTESTS="erf64 vector_add" runs only tests/python/test_{erf64,vector_add}.py;
# JOBS=N runs N scripts at a time (default 1; they share the one GPU);
# TIMEOUT=S stops a script after S seconds (default 300).
#
#   make -j16 all && JOBS=8 bash bench/gpu/python_tests_on_cuda.sh
set -u
cd "$(dirname "$0")/../.."
out="$(mktemp -d)"
all="${OUT:-/tmp}/pytests.log"
: > "$all"
export PYTHONPATH="$PWD/bench/gpu/cuda_default:$PWD/python"
export TRITONC_CACHE_DIR="$(mktemp -d)"
names=()
for t in tests/python/*.py; do
    name=$(basename "$t" .py)
    case " ${PYTESTS:-${name#test_}} " in *" ${name#test_} "*) names+=("$name") ;; esac
done
# each script writes its log and its exit status; the report is read after all have run
printf '%s\n' "${names[@]}" | xargs -P "${JOBS:-1}" -I{} sh -c \
    'timeout "$1" python3 "tests/python/$2.py" > "$3/$2.log" 2>&1; echo $? > "$3/$2.rc"' \
    _ "${TIMEOUT:-300}" {} "$out"
pass=0; fail=0
for name in "${names[@]}"; do
    if [ "$(cat "$out/$name.rc" 2>/dev/null)" = 0 ]; then
        pass=$((pass + 1)); echo "ok    $name"
    else
        fail=$((fail + 1)); echo "FAIL  $name: $(grep -v '^\s*$' "$out/$name.log" | tail -1 | cut -c1-200)"
        { echo "==== $name (exit $(cat "$out/$name.rc" 2>/dev/null))"; tail -60 "$out/$name.log"; } >> "$all"
    fi
done
echo "$pass passed, $fail failed (tensors on CUDA by default)"
