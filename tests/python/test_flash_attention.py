# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/flash_attention.py on the CPU, driven the
way Triton's fused-attention tutorial drives them: a torch.autograd.Function
whose forward autotunes attn_fwd (configs with a pre_hook, an
early_config_prune that reads keyword arguments, a grid lambda over META)
and whose backward runs the preprocess and the dK/dV/dQ kernel; checked
against attention written with torch ops (forward output, and the three
gradients from autograd), causal and not, fp16. The forward runs both ways
the tutorial has: with pointers (the kernel makes its descriptors) and with
host TensorDescriptors (triton.tools.tensor_descriptor), whose block shapes
the configs' pre_hook sets before each launch."""
import os
import sys

import torch

import tritonc as triton
import tritonc.language as tl
from tritonc.tools.tensor_descriptor import TensorDescriptor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("flash_attention")

pre_hook_calls = []


def _pre_hook(nargs):
    BLOCK_M, BLOCK_N, HEAD_DIM = nargs["BLOCK_M"], nargs["BLOCK_N"], nargs["HEAD_DIM"]
    pre_hook_calls.append((BLOCK_M, BLOCK_N, HEAD_DIM))
    if not isinstance(nargs["desc_q"], TensorDescriptor):
        return
    nargs["desc_q"].block_shape = [BLOCK_M, HEAD_DIM]
    nargs["desc_v"].block_shape = [BLOCK_N, HEAD_DIM]
    nargs["desc_k"].block_shape = [BLOCK_N, HEAD_DIM]
    nargs["desc_o"].block_shape = [BLOCK_M, HEAD_DIM]


def _prune(configs, named_args, **kwargs):
    N_CTX, STAGE = kwargs["N_CTX"], kwargs["STAGE"]
    return [c for c in configs if c.kwargs["BLOCK_M"] <= N_CTX and
            (c.kwargs["BLOCK_M"] >= c.kwargs["BLOCK_N"] or STAGE == 1)]


configs = [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn}, num_stages=s, num_warps=4, pre_hook=_pre_hook)
           for bm in (32, 64) for bn in (16, 32) for s in (2, 3)]
attn_fwd = triton.autotune(configs=configs, key=["N_CTX", "HEAD_DIM", "FP8_OUTPUT", "warp_specialize"],
                           prune_configs_by={"early_config_prune": _prune})(K.attn_fwd)


class _attention(torch.autograd.Function):

    @staticmethod
    def forward(ctx, q, k, v, causal, sm_scale, host_desc):
        HEAD_DIM = q.shape[-1]
        assert HEAD_DIM == k.shape[-1] == v.shape[-1] and HEAD_DIM in {16, 32, 64, 128, 256}
        o = torch.full_like(q, float("nan"))
        stage = 3 if causal else 1
        M = torch.empty((q.shape[0], q.shape[1], q.shape[2]), dtype=torch.float32)

        if host_desc:
            y_dim = q.shape[0] * q.shape[1] * q.shape[2]
            dummy_block = [1, 1]
            desc_q = TensorDescriptor(q, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=dummy_block)
            desc_v = TensorDescriptor(v, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=dummy_block)
            desc_k = TensorDescriptor(k, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=dummy_block)
            desc_o = TensorDescriptor(o, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=dummy_block)
        else:
            desc_q, desc_k, desc_v, desc_o = q, k, v, o

        def alloc_fn(size, align, _):
            return torch.empty(size, dtype=torch.int8)

        triton.set_allocator(alloc_fn)

        def grid(META):
            return (triton.cdiv(q.shape[2], META["BLOCK_M"]), q.shape[0] * q.shape[1], 1)

        attn_fwd[grid](sm_scale, M, q.shape[0], q.shape[1], desc_q, desc_k, desc_v, desc_o, N_CTX=q.shape[2],
                       HEAD_DIM=HEAD_DIM,
                       FP8_OUTPUT=False, STAGE=stage, warp_specialize=False, IS_HOPPER=False)
        ctx.save_for_backward(q, k, v, o, M)
        ctx.sm_scale, ctx.HEAD_DIM, ctx.causal = sm_scale, HEAD_DIM, causal
        return o

    @staticmethod
    def backward(ctx, do):
        q, k, v, o, M = ctx.saved_tensors
        do = do.contiguous()
        dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
        BATCH, N_HEAD, N_CTX = q.shape[:3]
        BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2 = 32, 64, 64, 32
        BLK_SLICE_FACTOR = 2
        RCP_LN2 = 1.4426950408889634
        arg_k = k * (ctx.sm_scale * RCP_LN2)
        PRE_BLOCK = 32
        assert N_CTX % PRE_BLOCK == 0
        delta = torch.empty_like(M)
        K.attn_bwd_preprocess[(N_CTX // PRE_BLOCK, BATCH * N_HEAD)](o, do, delta, BATCH, N_HEAD, N_CTX,
                                                                      BLOCK_M=PRE_BLOCK, HEAD_DIM=ctx.HEAD_DIM)
        K.attn_bwd[(N_CTX // BLOCK_N1, 1, BATCH * N_HEAD)](
            q, arg_k, v, ctx.sm_scale, do, dq, dk, dv, M, delta, q.stride(0), q.stride(1), q.stride(2), q.stride(3),
            N_HEAD, N_CTX, BLOCK_M1=BLOCK_M1, BLOCK_N1=BLOCK_N1, BLOCK_M2=BLOCK_M2, BLOCK_N2=BLOCK_N2,
            BLK_SLICE_FACTOR=BLK_SLICE_FACTOR, HEAD_DIM=ctx.HEAD_DIM, num_warps=4, num_stages=1,
            CAUSAL=ctx.causal)
        return dq, dk, dv, None, None, None


attention = _attention.apply


def reference(q, k, v, causal, sm_scale):
    N = q.shape[2]
    p = torch.matmul(q.float(), k.float().transpose(2, 3)) * sm_scale
    if causal:
        p = p.masked_fill(torch.tril(torch.ones(N, N, dtype=torch.bool)) == 0, float("-inf"))
    p = torch.softmax(p, dim=-1)
    return torch.matmul(p, v.float())


def check(Z, H, N_CTX, HEAD_DIM, causal, host_desc):
    gen = torch.Generator().manual_seed(Z * 1000 + N_CTX + HEAD_DIM + causal)
    q, k, v = ((torch.randn((Z, H, N_CTX, HEAD_DIM), generator=gen) * 0.5).half().requires_grad_()
               for _ in range(3))
    sm_scale = 0.5
    dout = torch.randn(q.shape, generator=gen).half()
    ref = reference(q, k, v, causal, sm_scale)
    ref.backward(dout.float())
    ref_dq, ref_dk, ref_dv = (t.grad.clone() for t in (q, k, v))
    for t in (q, k, v):
        t.grad = None
    del pre_hook_calls[:]
    tri = attention(q, k, v, causal, sm_scale, host_desc)
    assert pre_hook_calls and all(h[2] == HEAD_DIM for h in pre_hook_calls), pre_hook_calls
    tri.backward(dout)
    what = (Z, H, N_CTX, HEAD_DIM, causal, host_desc, attn_fwd.best_config)
    assert torch.allclose(tri.float(), ref, atol=1e-2, rtol=0), (what, (tri.float() - ref).abs().max())
    for name, got, want in (("dq", q.grad, ref_dq), ("dk", k.grad, ref_dk), ("dv", v.grad, ref_dv)):
        err = (got.float() - want).abs().max().item()
        assert err < 2e-2 * (1 + want.abs().max().item()), (what, name, err)


def main():
    for Z, H, N_CTX, HEAD_DIM, host_desc in ((1, 2, 128, 64, False), (2, 1, 64, 32, True)):
        for causal in (True, False):
            check(Z, H, N_CTX, HEAD_DIM, causal, host_desc)
    print("flash attention: ok")


if __name__ == "__main__":
    main()
