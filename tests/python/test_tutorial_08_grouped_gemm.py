# RUN: %python %s
# REQUIRES: torch
"""Triton's grouped-GEMM tutorial on the CPU: a fixed number of programs
("virtual SMs", an autotuned constexpr that also sizes the grid) walks the
tiles of several GEMMs; the matrices arrive as device tensors of raw
addresses (int64 data_ptr()s) cast back with .to(tl.pointer_type(...)), the
sizes and leading dimensions as int32 tables; the tile loop is a while loop
with a two-sided condition; tl.multiple_of hints as bare statements. Also
the tutorial's second kernel, which reads the operands through descriptors
made in the kernel (tl.make_tensor_descriptor with triton.set_allocator),
and the perf_report benchmark at tiny sizes."""
import sys

import torch

import tritonc as triton
import tritonc.language as tl

DEVICE = triton.runtime.driver.active.get_current_target().backend
if DEVICE not in ("cuda", "hip"):
    DEVICE = "cpu"


def small_configs():
    out = []
    for bm, bn in ((32, 32), (16, 32)):
        for sms in (3, 5):
            out.append(triton.Config({'BLOCK_M': bm, 'BLOCK_N': bn, 'BLOCK_K': 16, 'NUM_SM': sms}))
    return out


@triton.autotune(configs=small_configs(), key=['group_size'])
@triton.jit
def grouped_mm(a_addrs, b_addrs, c_addrs, sizes, lds, group_size, NUM_SM: tl.constexpr, BLOCK_M: tl.constexpr,
               BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    tile = tl.program_id(0)
    done = 0
    for g in range(group_size):
        gm = tl.load(sizes + g * 3)
        gn = tl.load(sizes + g * 3 + 1)
        gk = tl.load(sizes + g * 3 + 2)
        tiles_n = tl.cdiv(gn, BLOCK_N)
        count = tl.cdiv(gm, BLOCK_M) * tiles_n
        while (tile >= done and tile < done + count):
            lda = tl.load(lds + g * 3)
            ldb = tl.load(lds + g * 3 + 1)
            ldc = tl.load(lds + g * 3 + 2)
            a = tl.load(a_addrs + g).to(tl.pointer_type(tl.float16))
            b = tl.load(b_addrs + g).to(tl.pointer_type(tl.float16))
            c = tl.load(c_addrs + g).to(tl.pointer_type(tl.float16))
            local = tile - done
            tm = local // tiles_n
            tn = local % tiles_n
            rm = tm * BLOCK_M + tl.arange(0, BLOCK_M)
            rn = tn * BLOCK_N + tl.arange(0, BLOCK_N)
            rk = tl.arange(0, BLOCK_K)
            pa = a + rm[:, None] * lda + rk[None, :]
            pb = b + rk[:, None] * ldb + rn[None, :]
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for _ in range(0, tl.cdiv(gk, BLOCK_K)):
                tl.multiple_of(pa, [16, 16])
                tl.multiple_of(pb, [16, 16])
                acc += tl.dot(tl.load(pa), tl.load(pb))
                pa += BLOCK_K
                pb += BLOCK_K * ldb
            pc = c + ldc * rm[:, None] + rn[None, :]
            tl.store(pc, acc.to(tl.float16))
            tile += NUM_SM
        done = done + count


@triton.jit
def grouped_mm_desc(a_addrs, b_addrs, c_addrs, sizes, group_size, NUM_SM: tl.constexpr, BLOCK_M: tl.constexpr,
                    BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    dtype = tl.float16
    tile = tl.program_id(0)
    done = 0
    for g in range(group_size):
        gm = tl.load(sizes + g * 3)
        gn = tl.load(sizes + g * 3 + 1)
        gk = tl.load(sizes + g * 3 + 2)
        tiles_n = tl.cdiv(gn, BLOCK_N)
        count = tl.cdiv(gm, BLOCK_M) * tiles_n
        if tile >= done and tile < done + count:
            a = tl.load(a_addrs + g).to(tl.pointer_type(dtype))
            b = tl.load(b_addrs + g).to(tl.pointer_type(dtype))
            c = tl.load(c_addrs + g).to(tl.pointer_type(dtype))
            da = tl.make_tensor_descriptor(a, shape=[gm, gk], strides=[gk, 1], block_shape=[BLOCK_M, BLOCK_K])
            # B given transposed (N x K), as the tutorial's TMA variant does
            db = tl.make_tensor_descriptor(b, shape=[gn, gk], strides=[gk, 1], block_shape=[BLOCK_N, BLOCK_K])
            dc = tl.make_tensor_descriptor(c, shape=[gm, gn], strides=[gn, 1], block_shape=[BLOCK_M, BLOCK_N])
            while (tile >= done and tile < done + count):
                local = tile - done
                om = (local // tiles_n) * BLOCK_M
                on = (local % tiles_n) * BLOCK_N
                acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
                for kk in range(tl.cdiv(gk, BLOCK_K)):
                    x = da.load([om, kk * BLOCK_K])
                    y = db.load([on, kk * BLOCK_K])
                    acc += tl.dot(x, y.T)
                dc.store([om, on], acc.to(dtype))
                tile += NUM_SM
        done += count


def addr_tables(As, Bs, Cs):
    pa = torch.tensor([t.data_ptr() for t in As], device=DEVICE)
    pb = torch.tensor([t.data_ptr() for t in Bs], device=DEVICE)
    pc = torch.tensor([t.data_ptr() for t in Cs], device=DEVICE)
    return pa, pb, pc


def group_gemm(As, Bs):
    assert len(As) == len(Bs)
    Cs, sizes, lds = [], [], []
    for A, B in zip(As, Bs):
        M, K = A.shape
        K2, N = B.shape
        assert K == K2
        C = torch.empty((M, N), device=DEVICE, dtype=A.dtype)
        Cs.append(C)
        sizes += [M, N, K]
        lds += [A.stride(0), B.stride(0), C.stride(0)]
    pa, pb, pc = addr_tables(As, Bs, Cs)
    d_sizes = torch.tensor(sizes, dtype=torch.int32, device=DEVICE)
    d_lds = torch.tensor(lds, dtype=torch.int32, device=DEVICE)
    grid = lambda META: (META['NUM_SM'], )
    grouped_mm[grid](pa, pb, pc, d_sizes, d_lds, len(As))
    return Cs


def group_gemm_desc(As, BTs):
    Cs, sizes = [], []
    for A, BT in zip(As, BTs):
        M, K = A.shape
        N = BT.shape[0]
        C = torch.empty((M, N), device=DEVICE, dtype=A.dtype)
        Cs.append(C)
        sizes += [M, N, K]

    def alloc(size, alignment, stream):
        return torch.empty(size, device=DEVICE, dtype=torch.int8)

    triton.set_allocator(alloc)
    pa, pb, pc = addr_tables(As, BTs, Cs)
    d_sizes = torch.tensor(sizes, dtype=torch.int32, device=DEVICE)
    grouped_mm_desc[(4, )](pa, pb, pc, d_sizes, len(As), NUM_SM=4, BLOCK_M=32, BLOCK_N=32, BLOCK_K=16)
    return Cs


@triton.testing.perf_report(
    triton.testing.Benchmark(x_names=['N'], x_vals=[32, 64], line_arg='provider', line_vals=['torch', 'triton'],
                             line_names=["torch", "Triton"], styles=[('green', '-'), ('blue', '-')],
                             ylabel="runtime(ms)", plot_name="group-gemm-performance", args={}))
def benchmark(N, provider):
    As = [torch.rand((N, N), device=DEVICE, dtype=torch.float16) for _ in range(2)]
    Bs = [torch.rand((N, N), device=DEVICE, dtype=torch.float16) for _ in range(2)]
    q = [0.5, 0.2, 0.8]
    if provider == 'torch':
        fn = lambda: [torch.matmul(a.float(), b.float()) for a, b in zip(As, Bs)]
    else:
        fn = lambda: group_gemm(As, Bs)
    ms, lo, hi = triton.testing.do_bench(fn, quantiles=q, rep=5, warmup=1)
    return ms, hi, lo


def main():
    torch.manual_seed(0)
    ms = [64, 32, 96, 32]
    ns = [64, 96, 32, 32]
    ks = [64, 32, 48, 16]
    As = [torch.rand((m, k), device=DEVICE, dtype=torch.float16) for m, k in zip(ms, ks)]
    Bs = [torch.rand((k, n), device=DEVICE, dtype=torch.float16) for k, n in zip(ks, ns)]
    got = group_gemm(As, Bs)
    for A, B, C in zip(As, Bs, got):
        ref = torch.matmul(A.float(), B.float())
        assert torch.allclose(C.float(), ref, atol=2e-2, rtol=2e-3), (C.float() - ref).abs().max()
    assert grouped_mm.best_config is not None
    got = group_gemm_desc(As, [B.T.contiguous() for B in Bs])
    for A, B, C in zip(As, Bs, got):
        ref = torch.matmul(A.float(), B.float())
        assert torch.allclose(C.float(), ref, atol=2e-2, rtol=2e-3), (C.float() - ref).abs().max()
    benchmark.run(show_plots=False, print_data=False)
    print("tutorial 08 grouped gemm: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
