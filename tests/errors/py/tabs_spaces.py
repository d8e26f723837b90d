# RUN: not %tritonc compile %s --kernel k --signature '*fp32' --emit ttir 2>&1 | FileCheck %s
# RUN: not %tritonc compile %s --kernel dedent --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=DEDENT
# Indentation that means one thing with tabs of 8 columns and another with
# tabs of 1 is a TabError, as in CPython, and the text ends there: the
# "unexpected indent" that used to follow it at the same place is gone.
# CHECK: {{.*}}tabs_spaces.py:17:2: error: inconsistent use of tabs and spaces in indentation
# CHECK-NOT: error:
# DEDENT: {{.*}}tabs_spaces.py:25:9: error: inconsistent use of tabs and spaces in indentation
# DEDENT-NOT: error:
import triton
import triton.language as tl


@triton.jit
def k(x):
    v = tl.load(x)
	if v > 0:
		tl.store(x, v)


@triton.jit
def dedent(x):
	if x:
		v = 1
        tl.store(x, 1.0)
