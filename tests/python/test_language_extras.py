# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/lang_extras.py on the CPU, checked against
torch: early exits (`return` inside a runtime `if`, in the kernel and in a
value-returning helper), tl.flip, tl.sort, tl.gather, tl.cat,
tl.histogram, tensor descriptors, f-strings and constexpr tuples; and a
few more kernels written here: libdevice's rint, isnan, isinf, signbit,
debug mode (device asserts kept by debug=True, @jit(debug=True) or
TRITON_DEBUG=1), and the errors for what tritonc does not support."""
import os
import sys

import torch

import tritonc as triton
import tritonc.language as tl
from tritonc.language.extra import libdevice

# the corpus file says `import triton`: run it against tritonc
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

MOD = load_corpus("lang_extras")


def classify(v):
    return -1 if v < 0 else 0 if v == 0 else 2 if v > 100 else 1


def check_early_exit():
    BLOCK = 128
    torch.manual_seed(0)
    keep = []
    for n in (1, 127, 300, 1000):
        x = torch.randn(n) * 50
        keep.append(x)
        x[::7] = 0.0
        x[3::11] = 250.0
        if n > 256:
            x[128:256] = -1.0  # this block's sum is negative: the -7 exit
        out = torch.full((n,), 99, dtype=torch.int32)
        # two programs past the end return at once
        MOD.early_exit_kernel[(triton.cdiv(n, BLOCK) + 2,)](x, out, n, BLOCK=BLOCK, CHECK_BOUNDS=True)
        ref = torch.empty(n, dtype=torch.int32)
        for b in range(0, n, BLOCK):
            blk = x[b:b + BLOCK]
            ref[b:b + BLOCK] = -7 if blk.sum() < 0 else classify(blk[0].item())
        assert torch.equal(out, ref), (n, out, ref)
    ir = MOD.early_exit_kernel.warmup(x, out, n, BLOCK=BLOCK, CHECK_BOUNDS=True, grid=(1,)).asm["ttir"]
    assert "scf.if" in ir and ir.count("tt.return") >= 1, ir


@triton.jit
def elif_exit_kernel(x_ptr, y_ptr, mode):
    x = tl.load(x_ptr)
    if mode == 0:
        return
    elif mode == 1:
        x = x * 2
    elif mode == 2:
        tl.store(y_ptr, -1.0)
        return
    else:
        x = x + 100
    y = x + 1  # runs after the branches that fall through, with their x
    tl.store(y_ptr, y)


@triton.jit
def _clip(v, lim):
    r = v
    if v > lim:
        r = lim
        if v > 2 * lim:
            return -lim  # a return nested in an `if` that also assigns
    return r * 1.0


@triton.jit
def clip_loop_kernel(x_ptr, y_ptr, n):
    for i in range(n):  # the helper's returns are its own, not the loop's
        tl.store(y_ptr + i, _clip(tl.load(x_ptr + i), 10.0))


def check_early_exit_paths():
    for mode, want in ((0, 7.0), (1, 11.0), (2, -1.0), (3, 106.0)):
        y = torch.full((1,), 7.0)
        elif_exit_kernel[(1,)](torch.tensor([5.0]), y, mode)
        assert y.item() == want, (mode, y)
    y = torch.zeros(4)
    clip_loop_kernel[(1,)](torch.tensor([3.0, 15.0, 25.0, -4.0]), y, 4)
    assert y.tolist() == [3.0, 10.0, -10.0, -4.0], y


def check_shuffles():
    R, C = 4, 32
    torch.manual_seed(1)
    x = torch.randn(R, C)
    x[1, 3] = x[1, 5]  # a tie: equal values look alike in any order
    idx = torch.randint(0, 1000, (R, C), dtype=torch.int32)
    out = torch.zeros(6 * R * C + 2 * C)
    MOD.shuffle_kernel[(1,)](x, idx, out, ROWS=R, COLS=C)
    o = out[:6 * R * C].reshape(6, R, C)
    assert torch.equal(o[0], x.flip(1))
    assert torch.equal(o[1], x.flip(0))
    assert torch.equal(o[2], x.sort(dim=1).values)
    assert torch.equal(o[3], x.sort(dim=1, descending=True).values)
    assert torch.equal(o[4], torch.gather(x, 1, (idx % C).long()))
    assert torch.equal(o[5], torch.gather(x, 0, (idx % R).long()))
    assert torch.equal(out[6 * R * C:], x[:2].reshape(-1))


def check_histogram():
    n = 1000
    x = torch.randint(0, 16, (n,), dtype=torch.int32)
    x[::13] = 40  # out of range: not counted
    out = torch.zeros(16, dtype=torch.int32)
    MOD.histogram_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256, BINS=16)
    assert torch.equal(out, torch.bincount(x[x < 16], minlength=16).int()), out


def check_descriptors():
    torch.manual_seed(2)
    for M, N, K in ((64, 64, 64), (50, 70, 48), (33, 17, 80)):
        a = torch.randn(M, K).half()
        b = torch.randn(K, N).half()
        c = torch.full((M, N), 123.0)
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
        MOD.descriptor_matmul_kernel[grid](a, b, c, M, N, K, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
        ref = a.float() @ b.float()
        assert torch.allclose(c, ref, atol=1e-2, rtol=1e-3), (M, N, K, (c - ref).abs().max())


def check_fstring_tuple():
    x = torch.randn(100)
    y = x.clone()
    MOD.fstring_tuple_kernel[(2,)](y, 100, BLOCK=64, SCALES=(1, 2, 3), ACT="relu")
    assert torch.allclose(y, torch.relu(6 * x)), (y, x)
    try:
        MOD.fstring_tuple_kernel[(2,)](y, 100, BLOCK=64, SCALES=(1, 2), ACT="relu")
    except triton.CompilationError as e:
        assert "expected 3 scales, got 2: (1, 2)" in str(e), str(e)
    else:
        raise AssertionError("static_assert did not fire")


def check_libdevice_math():
    n = 300
    torch.manual_seed(3)
    x = torch.randn(n) * 3
    y = torch.randn(n) * 2
    y[::17] = 0.0
    x[::17] = 0.0
    out = torch.zeros(n, 12)
    MOD.libdevice_math_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
    xd, yd = x.double(), y.double()
    x3 = (x * 3).double()
    refs = [xd.abs() ** yd, torch.log1p(xd.abs()), torch.expm1(xd), torch.atan2(xd, yd),
            torch.sign(x3) * torch.floor(x3.abs() + 0.5), torch.trunc(x3), torch.fmod(xd, yd) + xd ** 3,
            torch.hypot(xd, yd), torch.isnan(xd / yd).double(), torch.sinh(xd) * torch.cosh(yd),
            torch.log10(xd.abs()) * 10 ** yd, torch.asinh(xd) * torch.atan(yd)]
    for i, ref in enumerate(refs):
        got = out[:, i].double()
        assert torch.allclose(got, ref, rtol=1e-5, atol=1e-6, equal_nan=True), \
            (i, (got - ref).abs().max())


@triton.jit
def libdevice_kernel(x_ptr, f_ptr, i_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(f_ptr + offs, libdevice.rint(x))
    tl.store(f_ptr + BLOCK + offs, libdevice.nearbyint(x))
    tl.store(i_ptr + offs, libdevice.isnan(x))
    tl.store(i_ptr + BLOCK + offs, libdevice.isinf(x))
    tl.store(i_ptr + 2 * BLOCK + offs, (libdevice.signbit(x) != 0).to(tl.int32))


def check_libdevice():
    x = torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5, float("nan"), float("inf"), -float("inf"),
                      -0.0, 3.7, -3.2, 1e30, 7.0, -1.0, 0.0, 2.49])
    f = torch.zeros(32)
    i = torch.zeros(48, dtype=torch.int32)
    libdevice_kernel[(1,)](x, f, i, BLOCK=16)
    finite = torch.isfinite(x)
    assert torch.equal(f[:16][finite], torch.round(x)[finite])  # round half to even, like rint
    assert torch.equal(f[16:][finite], torch.round(x)[finite])
    assert torch.equal(i[:16] != 0, torch.isnan(x))
    assert torch.equal(i[16:32] != 0, torch.isinf(x))
    assert torch.equal(i[32:], torch.signbit(x).int())


@triton.jit
def inline_asm_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(x_ptr + offs, y)


@triton.jit
def cat_order_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + tl.arange(0, 2 * BLOCK), tl.cat(x, x))


def check_errors():
    x = torch.zeros(32, dtype=torch.int32)
    gpu = x.is_cuda  # (inline PTX is an error on the CPU only)
    for kern, want in (((inline_asm_kernel, "tl.inline_asm_elementwise holds PTX, which runs on NVIDIA GPUs only"),)
                       * (not gpu) + ((cat_order_kernel, "pass can_reorder=True"),)):
        try:
            kern[(1,)](x, BLOCK=16)
        except triton.CompilationError as e:
            msg = str(e)
            assert want in msg and "test_language_extras.py:" in msg, msg
        else:
            raise AssertionError("no error for " + want)


@triton.jit
def assert_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.device_assert(x >= 0, "negative input", mask=offs < n)
    assert n <= BLOCK, "n larger than the block"
    tl.store(x_ptr + offs, x + 1, mask=offs < n)


def check_debug_mode():
    # asserts are dropped without debug, as in Triton
    x = torch.tensor([1.0, -2.0, 3.0, 4.0])
    assert_kernel[(1,)](x, 4, BLOCK=4)
    assert torch.equal(x, torch.tensor([2.0, -1.0, 4.0, 5.0]))
    # the launch option debug=True keeps them: the failing element is reported
    # (on the CPU; on a GPU a failed assert ends the CUDA context, as in Triton)
    if x.is_cuda:
        return
    for vals, n, want in (([1.0, -2.0, 3.0, 4.0], 4, "negative input"), ([1.0] * 4, 9, "n larger than the block")):
        try:
            assert_kernel[(1,)](torch.tensor(vals), n, BLOCK=4, debug=True)
        except triton.LaunchError as e:
            assert want in str(e), str(e)
        else:
            raise AssertionError("no assertion failure for " + want)
    # masked-off elements are not checked; passing asserts change nothing
    y = torch.tensor([1.0, 2.0, -3.0, -4.0])
    assert_kernel[(1,)](y, 2, BLOCK=4, debug=True)
    assert torch.equal(y, torch.tensor([2.0, 3.0, -3.0, -4.0]))
    # @jit(debug=True) and TRITON_DEBUG=1
    strict = triton.jit(assert_kernel.fn, debug=True)
    for kern, env in ((strict, None), (assert_kernel, "1")):
        old = os.environ.get("TRITON_DEBUG")
        if env:
            os.environ["TRITON_DEBUG"] = env
        try:
            kern[(1,)](torch.tensor([-1.0, 0.0]), 2, BLOCK=2)
        except triton.LaunchError as e:
            assert "negative input" in str(e)
        else:
            raise AssertionError("debug mode not on")
        finally:
            if env:
                if old is None:
                    del os.environ["TRITON_DEBUG"]
                else:
                    os.environ["TRITON_DEBUG"] = old


@triton.jit
def _stats(x):
    # a nested tuple comes back shaped as returned
    return (tl.min(x, 0), tl.max(x, 0)), tl.sum(x, 0)


@triton.jit
def nested_tuple_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    (lo, hi), total = _stats(x)
    tl.store(out_ptr, lo)
    tl.store(out_ptr + 1, hi)
    tl.store(out_ptr + 2, total)


def check_nested_tuple():
    x = torch.randn(32)
    out = torch.zeros(3)
    nested_tuple_kernel[(1,)](x, out, BLOCK=32)
    assert torch.allclose(out, torch.stack([x.min(), x.max(), x.sum()]), atol=1e-5), out


@triton.jit
def _maybe_make_tensor_desc(desc_or_ptr, shape, strides, block_shape):
    # the fused-attention tutorial's helper: a descriptor passes through,
    # a pointer becomes one
    if isinstance(desc_or_ptr, tl.tensor_descriptor):
        return desc_or_ptr
    else:
        return tl.make_tensor_descriptor(desc_or_ptr, shape, strides, block_shape)


@triton.jit
def isinstance_kernel(x, y, M, N, BM: tl.constexpr, BN: tl.constexpr, SCALE: tl.constexpr):
    dx = _maybe_make_tensor_desc(x, [M, N], [N, 1], [BM, BN])
    dy = _maybe_make_tensor_desc(tl.make_tensor_descriptor(y, [M, N], [N, 1], [BM, BN]), [M, N], [N, 1], [BM, BN])
    tl.static_assert(isinstance(dy, tl.tensor_descriptor) and not isinstance(dy, tl.tensor))
    tl.static_assert(isinstance(SCALE, (int, float)) and not isinstance(SCALE, tl.constexpr))
    tl.static_assert(isinstance(x, tl.tensor) and isinstance(x.dtype, tl.dtype))
    t = dx.load([tl.program_id(0) * BM, 0])
    dy.store([tl.program_id(0) * BM, 0], (t * SCALE).to(dy.dtype))


def check_isinstance():
    x = torch.rand(32, 16)
    y = torch.zeros(32, 16)
    isinstance_kernel[(2,)](x, y, 32, 16, BM=16, BN=16, SCALE=2)
    assert torch.equal(y, 2 * x)


def main():
    check_early_exit()
    check_early_exit_paths()
    check_shuffles()
    check_histogram()
    check_descriptors()
    check_fstring_tuple()
    check_libdevice()
    check_libdevice_math()
    check_errors()
    check_nested_tuple()
    check_isinstance()
    check_debug_mode()
    print("ok")


if __name__ == "__main__":
    main()
