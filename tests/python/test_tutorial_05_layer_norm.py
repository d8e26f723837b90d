# RUN: %python %s
# REQUIRES: torch
"""Triton's layer-norm tutorial end to end on the CPU: the fused forward
(one row per program, statistics saved), then the backward that the
tutorial builds from two kernels: dX per row, with the partial dW/dB sums
of each row folded into one of GROUP_M buffers under a spin lock
(tl.atomic_cas / tl.atomic_xchg, a counter telling the first writer), and a
second kernel summing the GROUP_M buffers column block by column block.
Driven through a torch.autograd.Function and checked against torch's
layer_norm gradients; also the tutorial's perf_report benchmark at a tiny
size with do_bench(grad_to_none=...)."""
import sys

import torch

import tritonc as triton
import tritonc.language as tl


@triton.jit
def ln_fwd(X, Y, W, B, Mean, Rstd, row_stride, N, eps, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    inb = offs < N
    X += r * row_stride
    Y += r * row_stride
    x = tl.load(X + offs, mask=inb, other=0).to(tl.float32)
    mu = tl.sum(x, axis=0) / N
    centred = tl.where(inb, x - mu, 0.)
    var = tl.sum(centred * centred, axis=0) / N
    inv = 1 / tl.sqrt(var + eps)
    tl.store(Mean + r, mu)
    tl.store(Rstd + r, inv)
    w = tl.load(W + offs, mask=inb)
    b = tl.load(B + offs, mask=inb)
    tl.store(Y + offs, centred * inv * w + b, mask=inb)


@triton.jit
def ln_bwd_dx(DX, DY, DW, DB, X, W, Mean, Rstd, Locks, row_stride, N,
              GROUP_M: tl.constexpr, BLOCK_N: tl.constexpr):
    r = tl.program_id(0)
    offs = tl.arange(0, BLOCK_N)
    inb = offs < N
    X += r * row_stride
    DY += r * row_stride
    DX += r * row_stride
    slot = r % GROUP_M
    Locks += slot
    Seen = Locks + GROUP_M
    DW = DW + slot * N + offs
    DB = DB + slot * N + offs
    x = tl.load(X + offs, mask=inb, other=0).to(tl.float32)
    dy = tl.load(DY + offs, mask=inb, other=0).to(tl.float32)
    w = tl.load(W + offs, mask=inb).to(tl.float32)
    mu = tl.load(Mean + r)
    inv = tl.load(Rstd + r)
    xhat = tl.where(inb, (x - mu) * inv, 0.)
    wdy = tl.where(inb, w * dy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    tl.store(DX + offs, (wdy - (xhat * c1 + c2)) * inv, mask=inb)
    pdw = (dy * xhat).to(w.dtype)
    pdb = dy.to(w.dtype)
    # take the slot's lock
    while tl.atomic_cas(Locks, 0, 1) == 1:
        pass
    seen = tl.load(Seen)
    if seen == 0:
        tl.atomic_xchg(Seen, 1)
    else:
        pdw += tl.load(DW, mask=inb)
        pdb += tl.load(DB, mask=inb)
    tl.store(DW, pdw, mask=inb)
    tl.store(DB, pdb, mask=inb)
    tl.atomic_xchg(Locks, 0)


@triton.jit
def ln_bwd_dwdb(DW, DB, OUT_DW, OUT_DB, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    c = tl.program_id(0)
    cols = c * BLOCK_N + tl.arange(0, BLOCK_N)
    acc_w = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    acc_b = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_M):
        rows = i + tl.arange(0, BLOCK_M)
        m = (rows[:, None] < M) & (cols[None, :] < N)
        at = rows[:, None] * N + cols[None, :]
        acc_w += tl.load(DW + at, mask=m, other=0.)
        acc_b += tl.load(DB + at, mask=m, other=0.)
    tl.store(OUT_DW + cols, tl.sum(acc_w, axis=0), mask=cols < N)
    tl.store(OUT_DB + cols, tl.sum(acc_b, axis=0), mask=cols < N)


class LayerNorm(torch.autograd.Function):

    @staticmethod
    def forward(ctx, x, shape, weight, bias, eps):
        y = torch.empty_like(x)
        x2 = x.reshape(-1, x.shape[-1])
        M, N = x2.shape
        mean = torch.empty((M, ), dtype=torch.float32, device=x.device)
        rstd = torch.empty((M, ), dtype=torch.float32, device=x.device)
        BLOCK = min(65536 // x.element_size(), triton.next_power_of_2(N))
        if N > BLOCK:
            raise RuntimeError("feature dim too large")
        warps = min(max(BLOCK // 256, 1), 8)
        ln_fwd[(M, )](x2, y, weight, bias, mean, rstd, x2.stride(0), N, eps, BLOCK=BLOCK, num_warps=warps)
        ctx.save_for_backward(x, weight, bias, mean, rstd)
        ctx.BLOCK, ctx.warps, ctx.eps = BLOCK, warps, eps
        return y

    @staticmethod
    def backward(ctx, dy):
        x, w, b, mean, rstd = ctx.saved_tensors
        N = w.shape[0]
        GROUP_M = 64
        if N <= 8192:
            GROUP_M = 96
        if N <= 4096:
            GROUP_M = 128
        if N <= 1024:
            GROUP_M = 256
        locks = torch.zeros(2 * GROUP_M, dtype=torch.int32, device=w.device)
        part_dw = torch.empty((GROUP_M, N), dtype=x.dtype, device=w.device)
        part_db = torch.empty((GROUP_M, N), dtype=x.dtype, device=w.device)
        dw = torch.empty((N, ), dtype=w.dtype, device=w.device)
        db = torch.empty((N, ), dtype=w.dtype, device=w.device)
        dx = torch.empty_like(dy)
        x2 = x.reshape(-1, x.shape[-1])
        M, N = x2.shape
        ln_bwd_dx[(M, )](dx, dy, part_dw, part_db, x, w, mean, rstd, locks, x2.stride(0), N,
                         BLOCK_N=ctx.BLOCK, GROUP_M=GROUP_M, num_warps=ctx.warps)
        grid = lambda meta: [triton.cdiv(N, meta['BLOCK_N'])]
        # rows of the partial buffers never written stay garbage in the
        # tutorial when M < GROUP_M; only min(M, GROUP_M) rows are summed here
        ln_bwd_dwdb[grid](part_dw, part_db, dw, db, min(GROUP_M, M), N, BLOCK_M=32, BLOCK_N=128)
        return dx, None, dw, db, None


layer_norm = LayerNorm.apply


def check(M, N, dtype, tol, eps=1e-5):
    wshape = (N, )
    weight = torch.rand(wshape, dtype=dtype, requires_grad=True)
    bias = torch.rand(wshape, dtype=dtype, requires_grad=True)
    x = -2.3 + 0.5 * torch.randn((M, N), dtype=dtype)
    dy = .1 * torch.randn_like(x)
    x.requires_grad_(True)
    y = layer_norm(x, wshape, weight, bias, eps)
    y.backward(dy, retain_graph=True)
    got = [t.grad.clone() for t in (x, weight, bias)]
    x.grad, weight.grad, bias.grad = None, None, None
    # reference in float32 so that fp16 rounding of the reference does not count
    xr, wr, br = (t.detach().float().requires_grad_(True) for t in (x, weight, bias))
    yr = torch.nn.functional.layer_norm(xr, wshape, wr, br, eps)
    yr.backward(dy.float())
    triton.testing.assert_close(y.float(), yr.detach(), atol=tol, rtol=0)
    for g, r, name in zip(got, (xr.grad, wr.grad, br.grad), ("dx", "dw", "db")):
        err = (g.float() - r).abs().max().item()
        scale = max(1.0, r.abs().max().item())
        assert err <= tol * scale * (4 if name != "dx" else 1), (M, N, dtype, name, err)


@triton.testing.perf_report(
    triton.testing.Benchmark(x_names=['N'], x_vals=[256, 512], line_arg='provider', line_vals=['triton', 'torch'],
                             line_names=['Triton', 'Torch'], styles=[('blue', '-'), ('green', '-')], ylabel='GB/s',
                             plot_name='layer-norm-backward', args={'M': 64, 'dtype': torch.float32,
                                                                    'mode': 'backward'}))
def bench_layer_norm(M, N, dtype, provider, mode='backward', eps=1e-5):
    wshape = (N, )
    weight = torch.rand(wshape, dtype=dtype, requires_grad=True)
    bias = torch.rand(wshape, dtype=dtype, requires_grad=True)
    x = -2.3 + 0.5 * torch.randn((M, N), dtype=dtype)
    dy = .1 * torch.randn_like(x)
    x.requires_grad_(True)
    if provider == 'triton':
        fwd = lambda: layer_norm(x, wshape, weight, bias, eps)
    else:
        fwd = lambda: torch.nn.functional.layer_norm(x, wshape, weight, bias, eps)
    if mode == 'forward':
        gbps = lambda ms: 2 * x.numel() * x.element_size() / ms * 1e-6
        ms, lo, hi = triton.testing.do_bench(fwd, quantiles=[0.5, 0.2, 0.8], rep=5, warmup=1)
    else:
        gbps = lambda ms: 3 * x.numel() * x.element_size() / ms * 1e-6
        y = fwd()
        ms, lo, hi = triton.testing.do_bench(lambda: y.backward(dy, retain_graph=True), quantiles=[0.5, 0.2, 0.8],
                                             grad_to_none=[x], rep=5, warmup=1)
    return gbps(ms), gbps(hi), gbps(lo)


def main():
    torch.manual_seed(0)
    check(151, 1152, torch.float32, 1e-4)
    check(300, 100, torch.float32, 1e-4)   # more rows than GROUP_M: slots are shared
    check(40, 512, torch.float16, 2e-2)
    bench_layer_norm.run(print_data=False, show_plots=False)
    print("tutorial 05 layer norm: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
