# RUN: %python %s
# REQUIRES: torch, numpy
"""The kernels of tests/kernels/matmul_variants.py on the CPU against torch
matmuls: the grouped-ordering tutorial kernel through autotune (a grid lambda
over META, a leaky_relu epilogue), the persistent kernel over a few
"SMs" (tl.range with flatten), the persistent kernel over host
TensorDescriptors with the split epilogue, the same over descriptors made in
the kernel (bf16), and tl.dot's variants (ieee / no tf32 / out_dtype fp16 /
transposed operand, int8 -> int32, batched 3-D). Ragged sizes, outputs
poisoned first."""
import os
import sys

import torch

import tritonc as triton
import tritonc.language as tl
from tritonc.tools.tensor_descriptor import TensorDescriptor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402

K = load_corpus("matmul_variants")

GEN = torch.Generator().manual_seed(7)

matmul_tuned = triton.autotune(
    configs=[triton.Config({"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 4},
                           num_stages=3, num_warps=4),
             triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 16, "GROUP_SIZE_M": 8},
                           num_stages=4, num_warps=4)],
    key=["M", "N", "K"])(K.matmul_kernel)


def close(got, want, tol, what):
    err = (got.float() - want.float()).abs().max().item()
    assert err <= tol * (1 + want.float().abs().max().item()), "%s: max error %g" % (what, err)


def check_tutorial_matmul():
    for M, N, Kd in ((100, 70, 50), (128, 128, 64), (33, 200, 17), (1, 16, 300)):
        a = (torch.rand((M, Kd), generator=GEN) - 0.5).half()
        b = (torch.rand((Kd, N), generator=GEN) - 0.5).half()
        for act in ("", "leaky_relu"):
            c = torch.full((M, N), float("nan")).half()
            grid = lambda META: (triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"]), )
            matmul_tuned[grid](a, b, c, M, N, Kd, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                               c.stride(0), c.stride(1), ACTIVATION=act)
            ref = a.float() @ b.float()
            if act:
                ref = torch.nn.functional.leaky_relu(ref, 0.01)
            close(c, ref, 1e-2, "matmul %s %s" % ((M, N, Kd), act))
        assert matmul_tuned.best_config is not None


def check_persistent():
    for M, N, Kd, sms in ((100, 70, 50, 3), (257, 129, 64, 4), (16, 16, 16, 8)):
        a = torch.randn((M, Kd), generator=GEN).half()
        b = torch.randn((Kd, N), generator=GEN).half()
        c = torch.full((M, N), float("nan")).half()
        BM, BN, BK = 32, 32, 32
        grid = lambda META: (min(sms, triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"])), )
        K.matmul_persistent[grid](a, b, c, M, N, Kd, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                  c.stride(0), c.stride(1), BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK,
                                  GROUP_SIZE_M=8, NUM_SMS=sms)
        close(c, a.float() @ b.float(), 1e-2, "persistent %s" % ((M, N, Kd),))


def check_descriptors():
    for M, N, Kd, subtile in ((100, 70, 48, True), (64, 128, 64, False), (33, 40, 24, True)):
        a = torch.randn((M, Kd), generator=GEN).half()
        b = torch.randn((N, Kd), generator=GEN).half()  # b is given transposed
        c = torch.full((M, (N + 7) // 8 * 8 + 8), float("nan")).half()[:, :N]  # a row stride past N
        BM, BN, BK = 32, 32, 16
        sms = 3
        a_desc = TensorDescriptor.from_tensor(a, [BM, BK])
        b_desc = TensorDescriptor(b, b.shape, b.stride(), [BN, BK])
        c_desc = TensorDescriptor(c, c.shape, c.stride(), [BM, BN // 2 if subtile else BN])
        grid = (min(sms, triton.cdiv(M, BM) * triton.cdiv(N, BN)),)
        K.matmul_descriptor_persistent[grid](a_desc, b_desc, c_desc, M, N, Kd, BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN,
                                             BLOCK_SIZE_K=BK, GROUP_SIZE_M=8, EPILOGUE_SUBTILE=subtile,
                                             NUM_SMS=sms)
        close(c, a.float() @ b.float().T, 1e-2, "host descriptors %s" % ((M, N, Kd, subtile),))
        a16, b16 = a.bfloat16(), b.bfloat16()
        c16 = torch.full((M, N), float("nan")).bfloat16()
        K.matmul_device_descriptor[grid](a16, b16, c16, M, N, Kd, BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN,
                                         BLOCK_SIZE_K=BK, GROUP_SIZE_M=8, EPILOGUE_SUBTILE=subtile, NUM_SMS=sms)
        close(c16, a16.float() @ b16.float().T, 2e-2, "device descriptors %s" % ((M, N, Kd, subtile),))


def check_dots():
    M, N, Kd = 16, 32, 16
    a = torch.randn((M, Kd), generator=GEN)
    b = torch.randn((Kd, N), generator=GEN)
    c, d = torch.full((M, N), float("nan")), torch.full((M, N), float("nan"))
    e = torch.full((M, N), float("nan")).half()
    K.dot_variants[(1,)](a, b, c, d, e, M, N, Kd)
    close(c, a @ b, 1e-5, "dot ieee")
    close(d, a @ b, 1e-5, "dot of a transposed tile")
    close(e, a.half().float() @ b.half().float(), 1e-2, "dot out_dtype fp16")
    a8 = torch.randint(-128, 128, (32, 64), dtype=torch.int8, generator=GEN)
    b8 = torch.randint(-128, 128, (64, 32), dtype=torch.int8, generator=GEN)
    c32 = torch.full((32, 32), 12345, dtype=torch.int32)
    K.dot_int8[(1,)](a8, b8, c32, 32, 32, 64)
    assert torch.equal(c32.cpu(), a8.cpu().int() @ b8.cpu().int()), "int8 dot"  # (no int matmul on CUDA in torch)
    a3 = torch.randn((2, 16, 16), generator=GEN).half()
    b3 = torch.randn((2, 16, 32), generator=GEN).half()
    c3 = torch.full((2, 16, 32), float("nan"))
    K.bmm_3d[(1,)](a3, b3, c3, 2, 16, 32, 16)
    close(c3, torch.bmm(a3.float(), b3.float()), 1e-3, "batched dot")


def main():
    for f in (check_tutorial_matmul, check_persistent, check_descriptors, check_dots):
        f()
        print(f.__name__, "ok")


if __name__ == "__main__":
    main()
