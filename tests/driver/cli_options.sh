# RUN: bash %s %tritonc
# The command line's own errors and help: --help after a command prints the
# usage (it was "unknown option '--help' for 'compile'"), an unknown option
# or command names itself, a second input file names both.
set -u
TC="$1"
fail() { echo "FAIL: $*"; exit 1; }
out=$($TC compile --help) || fail "compile --help exits non-zero"
case "$out" in *"usage: tritonc <command>"*"--signature SIG"*) ;; *) fail "compile --help: $out" ;; esac
$TC opt -h | grep -q "usage: tritonc" || fail "opt -h"
err=$($TC compile --frobnicate x.py 2>&1); rc=$?
[ $rc -eq 2 ] || fail "unknown option: rc $rc"
[ "$err" = "tritonc: error: unknown option '--frobnicate' for 'compile'" ] || fail "unknown option: $err"
err=$($TC fly 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$err" = "tritonc: error: unknown command 'fly' (see 'tritonc --help')" ] || fail "unknown command: $err"
err=$($TC compile a.py b.py 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$err" = "tritonc: error: more than one input file ('a.py', 'b.py')" ] || fail "two inputs: $err"
err=$($TC compile x.py -D 3 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$err" = "tritonc: error: -D expects NAME=VALUE, got '3'" ] || fail "-D: $err"
echo ok
