# The PTX simulator's own checks on hand-written PTX (Inputs/ptx_sim.py):
# divergent loops reconverge (min-PC scheduling), a bar.sync that part of a
# warp never reaches is a deadlock, threads at different bar.syncs, a
# shfl.sync with part of its member mask, a missing barrier (shared-memory
# race), an unknown instruction, registers declared in a { } block, and a
# few of the ISA's corner cases.
# REQUIRES: numpy
# RUN: %python %s
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs"))
from ptx_sim import Kernel, SimError  # noqa: E402

HEAD = """
.version 8.1
.target sm_90a
.address_size 64
.extern .shared .align 16 .b8 global_smem[];
.visible .entry k(
	.param .u64 k_param_0
)
.reqntid 64, 1, 1
{
	.reg .pred %p<9>;
	.reg .b32 %r<20>;
	.reg .b64 %rd<9>;
	.reg .f32 %f<9>;
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [k_param_0];
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
"""


def run(body, out=None, expect=None):
    out = np.zeros(64, np.int32) if out is None else out
    try:
        Kernel(HEAD + body + "\n\tret;\n}\n").run((1,), [out])
    except SimError as e:
        if expect and expect in str(e):
            return out
        raise
    assert expect is None, "no error: expected " + expect
    return out


# a loop whose trip count is the thread's index mod 7, then a shuffle of the
# whole warp after it: the threads must have reconverged
out = run("""
	rem.u32 %r2, %r1, 7;
	mov.u32 %r3, 0;
	setp.eq.u32 %p1, %r2, 0;
	@%p1 bra $L_done;
$L_loop:
	add.u32 %r3, %r3, %r1;
	sub.u32 %r2, %r2, 1;
	setp.ne.u32 %p2, %r2, 0;
	@%p2 bra $L_loop;
$L_done:
	shfl.sync.bfly.b32 %r4, %r3, 1, 31, -1;
	add.u32 %r5, %r3, %r4;
	st.global.u32 [%rd3], %r5;""")
t = np.arange(64)
own = t * (t % 7)
assert (out == own + own[t ^ 1]).all(), out

# a bar.sync that part of warp 0 skips (it returns first): a deadlock
run("""
	setp.lt.u32 %p1, %r1, 8;
	@%p1 bra $L_out;
	bar.sync 0;
$L_out:""", expect="deadlock")

# whole warps that return are not waited for
run("""
	setp.ge.u32 %p1, %r1, 32;
	@%p1 bra $L_out;
	bar.sync 0;
$L_out:""")

# threads of one CTA at two different bar.syncs
run("""
	setp.ge.u32 %p1, %r1, 32;
	@%p1 bra $L_b;
	bar.sync 0;
	bra.uni $L_out;
$L_b:
	bar.sync 0;
$L_out:""", expect="different bar.sync")

# a full-warp shuffle inside a branch taken by half of the warp
run("""
	setp.ge.u32 %p1, %r1, 16;
	@%p1 bra $L_out;
	shfl.sync.bfly.b32 %r4, %r1, 1, 31, -1;
$L_out:""", expect="divergence")

# a shared-memory exchange without the barrier between store and load
body = """
	shl.b32 %r6, %r1, 2;
	st.shared.u32 [%r6], %r1;
	{bar}
	xor.b32 %r7, %r6, 4;
	ld.shared.u32 %r8, [%r7];
	st.global.u32 [%rd3], %r8;"""
run(body.replace("{bar}", ""), expect="race")
out = run(body.replace("{bar}", "bar.sync 0;"))
assert (out == (t ^ 1)).all()

run("\tfrobnicate.b32 %r2, %r1;", expect="unknown instruction")

# .reg declarations scoped to a { } block, as inline asm writes them: the
# same name in sibling blocks with other types, on one line or several, a
# %r<2> that shadows the kernel's %r0 and %r1 but not %r2 and up, and a
# vector operand's braces inside a statement
out = run("""
	{ .reg .b32 t; .reg .pred p; add.u32 t, %r1, 5; setp.gt.u32 p, t, 40; @p add.u32 t, t, 1000; mov.b32 %r2, t; }
	{
	.reg .b64 t;
	.reg .b32 %r<2>;
	cvt.u64.u32 t, %r2;
	mov.b64 {%r0, %r1}, t;
	add.u32 %r3, %r0, %r1;
	}
	st.global.u32 [%rd3], %r3;""")
assert (out == (t + 5) + 1000 * (t + 5 > 40)).all(), out

# ISA corner cases: min/max return the non-NaN operand (.NaN propagates);
# float -> int conversions saturate and take NaN to 0; bfe sign-extends
out = run("""
	mov.f32 %f1, 0f7FC00000;
	min.f32 %f2, %f1, 0f40000000;
	max.NaN.f32 %f3, %f1, 0f40000000;
	cvt.rzi.s32.f32 %r2, 0f7F000000;
	cvt.rzi.s32.f32 %r3, %f1;
	cvt.rzi.s32.f32 %r4, %f2;
	bfe.s32 %r5, 0x00000F00, 8, 4;
	setp.nan.f32 %p1, %f3, %f3;
	selp.u32 %r6, 1, 0, %p1;
	add.s32 %r7, %r4, %r6;
	add.s32 %r7, %r7, %r5;
	setp.eq.s32 %p2, %r2, 2147483647;
	setp.eq.s32 %p3, %r3, 0;
	and.pred %p4, %p2, %p3;
	selp.u32 %r8, 100, 0, %p4;
	add.s32 %r7, %r7, %r8;
	st.global.u32 [%rd3], %r7;""")
assert (out == 2 + 1 - 1 + 100).all(), out
print("ok")
