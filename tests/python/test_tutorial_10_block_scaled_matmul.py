# RUN: %python %s
# REQUIRES: torch
"""Triton's block-scaled matmul tutorial on the CPU (tl.dot_scaled is
emulated there as on GPUs without block-scaled tensor cores): operands as
host TensorDescriptors over uint8 storage (fp8 e4m3 bytes, or e2m1 packed
two to a byte along K), e8m0 scales stored in the 5-D tiled layout
(M/128, K/VEC/4, 32, 4, 4) read with a flat 2-D load (USE_2D_SCALE_LOAD) or
a 5-D pointer grid, reshaped and transposed in the kernel to the 2-D layout
dot_scaled wants; the K loop a tl.range with num_stages; launch_metadata.
Formats mxfp8, mxfp4 and mixed (e4m3 x e2m1); checked against a float32
decode in torch. The tutorial's nvfp4 format (e2m1 operands, float8e4nv
scales on 16 elements along K) on a small dot, against the same decode."""
import sys

import torch

import tritonc as triton
import tritonc.language as tl
from tritonc.tools.tensor_descriptor import TensorDescriptor


def meta_name(grid, kernel, args):
    return {"name": f"{kernel.name} [M={args['M']}, N={args['N']}, K={args['K']}]", "flops": 2. * args["M"] *
            args["N"] * args["K"]}


@triton.jit(launch_metadata=meta_name)
def bs_matmul(a_desc, a_scale, b_desc, b_scale, c_desc, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
              stride_sk: tl.constexpr, stride_sb: tl.constexpr, stride_sc: tl.constexpr, stride_sd: tl.constexpr,
              output_type: tl.constexpr, ELEM_PER_BYTE_A: tl.constexpr, ELEM_PER_BYTE_B: tl.constexpr,
              VEC_SIZE: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
              NUM_STAGES: tl.constexpr, USE_2D_SCALE_LOAD: tl.constexpr):
    if output_type == 0:
        out_dtype = tl.float32
    elif output_type == 1:
        out_dtype = tl.float16
    else:
        out_dtype = tl.float8e4nv
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    pid_m = pid % tiles_m
    pid_n = pid // tiles_m
    om = pid_m * BLOCK_M
    on = pid_n * BLOCK_N
    ka = 0
    kb = 0
    rsm = (pid_m * (BLOCK_M // 128) + tl.arange(0, BLOCK_M // 128)) % M
    rsn = (pid_n * (BLOCK_N // 128) + tl.arange(0, BLOCK_N // 128)) % N
    MIXED: tl.constexpr = ELEM_PER_BYTE_A == 1 and ELEM_PER_BYTE_B == 2
    CHUNK: tl.constexpr = BLOCK_K // VEC_SIZE // 4
    if USE_2D_SCALE_LOAD:
        inner = tl.arange(0, CHUNK * 32 * 4 * 4)
        pa_s = a_scale + rsm[:, None] * stride_sk + inner[None, :]
        pb_s = b_scale + rsn[:, None] * stride_sk + inner[None, :]
    else:
        rk = tl.arange(0, CHUNK)
        rc = tl.arange(0, 32)
        rd = tl.arange(0, 4)
        pa_s = a_scale + (rsm[:, None, None, None, None] * stride_sk + rk[None, :, None, None, None] * stride_sb +
                          rc[None, None, :, None, None] * stride_sc + rd[None, None, None, :, None] * stride_sd +
                          rd[None, None, None, None, :])
        pb_s = b_scale + (rsn[:, None, None, None, None] * stride_sk + rk[None, :, None, None, None] * stride_sb +
                          rc[None, None, :, None, None] * stride_sc + rd[None, None, None, :, None] * stride_sd +
                          rd[None, None, None, None, :])
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), num_stages=NUM_STAGES):
        a = a_desc.load([om, ka])
        b = b_desc.load([on, kb])
        sa = tl.load(pa_s)
        sb = tl.load(pb_s)
        if USE_2D_SCALE_LOAD:
            sa = sa.reshape(BLOCK_M // 128, CHUNK, 32, 4, 4)
            sb = sb.reshape(BLOCK_N // 128, CHUNK, 32, 4, 4)
        sa = sa.trans(0, 3, 2, 1, 4).reshape(BLOCK_M, BLOCK_K // VEC_SIZE)
        sb = sb.trans(0, 3, 2, 1, 4).reshape(BLOCK_N, BLOCK_K // VEC_SIZE)
        if MIXED:
            acc = tl.dot_scaled(a, sa, "e4m3", b.T, sb, "e2m1", acc)
        elif ELEM_PER_BYTE_A == 2 and ELEM_PER_BYTE_B == 2:
            acc = tl.dot_scaled(a, sa, "e2m1", b.T, sb, "e2m1", acc)
        else:
            acc = tl.dot_scaled(a, sa, "e4m3", b.T, sb, "e4m3", acc)
        ka += BLOCK_K // ELEM_PER_BYTE_A
        kb += BLOCK_K // ELEM_PER_BYTE_B
        pa_s += CHUNK * stride_sb
        pb_s += CHUNK * stride_sb
    c_desc.store([om, on], acc.to(out_dtype))


def decode_e4m3(b):
    b = b.to(torch.int32)
    s = torch.where((b >> 7) == 1, -1.0, 1.0)
    e = (b >> 3) & 15
    m = (b & 7).float()
    v = torch.where(e == 0, m / 8 * 2.0**-6, (1 + m / 8) * torch.pow(2.0, (e - 7).float()))
    return s * v


def decode_e2m1(n):
    n = n.to(torch.int32)
    s = torch.where((n >> 3) == 1, -1.0, 1.0)
    e = (n >> 1) & 3
    m = (n & 1).float()
    v = torch.where(e == 0, m * 0.5, (1 + m / 2) * torch.pow(2.0, (e - 1).float()))
    return s * v


def random_e4m3(rows, cols):
    b = torch.randint(0, 256, (rows, cols), dtype=torch.int32)
    b = b & 0x87 | (torch.randint(0, 9, (rows, cols), dtype=torch.int32) << 3)  # |x| < 4: fp16 output stays finite
    return b.to(torch.uint8)


def random_e2m1(rows, cols):
    nib = torch.randint(0, 16, (rows, cols), dtype=torch.int32)
    packed = (nib[:, 0::2] | (nib[:, 1::2] << 4)).to(torch.uint8)
    return nib, packed


def unpack_scale(s5):
    cm, ck = s5.shape[:2]
    return s5.permute(0, 3, 2, 1, 4).reshape(cm * 128, ck * 4)


def run(fmt, M, N, K, use_2d):
    BLOCK_M, BLOCK_N = 128, 128
    BLOCK_K = 256 if "fp4" in fmt else 128
    VEC = 32
    EA = 2 if "fp4" in fmt else 1
    EB = 1 if fmt == "mxfp8" else 2
    if EA == 1:
        a = random_e4m3(M, K)
        a_ref = decode_e4m3(a)
    else:
        nib, a = random_e2m1(M, K)
        a_ref = decode_e2m1(nib)
    if EB == 1:
        b = random_e4m3(N, K)
        b_ref = decode_e4m3(b)
    else:
        nib, b = random_e2m1(N, K)
        b_ref = decode_e2m1(nib)
    a_desc = TensorDescriptor.from_tensor(a, [BLOCK_M, BLOCK_K // EA])
    if fmt == "mixed":
        b_desc = TensorDescriptor(b, shape=[N, K // EB], strides=[K // EB, 1], block_shape=[BLOCK_N, BLOCK_K // EB])
    else:
        b_desc = TensorDescriptor.from_tensor(b, [BLOCK_N, BLOCK_K // EB])
    a_scale = torch.randint(124, 129, (M // 128, K // VEC // 4, 32, 4, 4), dtype=torch.uint8)
    b_scale = torch.randint(124, 129, (N // 128, K // VEC // 4, 32, 4, 4), dtype=torch.uint8)
    sa = torch.pow(2.0, unpack_scale(a_scale).float() - 127).repeat_interleave(VEC, dim=1)[:M, :K]
    sb = torch.pow(2.0, unpack_scale(b_scale).float() - 127).repeat_interleave(VEC, dim=1)[:N, :K]
    ref = torch.matmul(a_ref * sa, (b_ref * sb).T)
    out = torch.full((M, N), float("nan"), dtype=torch.float16)
    c_desc = TensorDescriptor.from_tensor(out, [BLOCK_M, BLOCK_N])
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N), 1)
    bs_matmul[grid](a_desc, a_scale, b_desc, b_scale, c_desc, M, N, K, a_scale.stride(0), a_scale.stride(1),
                    a_scale.stride(2), a_scale.stride(3), 1, EA, EB, VEC, BLOCK_M, BLOCK_N, BLOCK_K, 4,
                    USE_2D_SCALE_LOAD=use_2d)
    err = (out.float() - ref).abs().max().item()
    tol = 1e-3 * ref.abs().max().item() + 1e-3
    assert err <= tol, (fmt, use_2d, err, tol)


@triton.jit
def nvfp4_dot(a_ptr, sa_ptr, b_ptr, sb_ptr, c_ptr):
    r = tl.arange(0, 16)
    kk = tl.arange(0, 32)
    s4 = tl.arange(0, 4)
    a = tl.load(a_ptr + r[:, None] * 32 + kk[None, :])
    b = tl.load(b_ptr + r[:, None] * 32 + kk[None, :])
    sa = tl.load(sa_ptr + r[:, None] * 4 + s4[None, :])
    sb = tl.load(sb_ptr + r[:, None] * 4 + s4[None, :])
    tl.store(c_ptr + r[:, None] * 16 + r[None, :], tl.dot_scaled(a, sa, "e2m1", b.T, sb, "e2m1"))


E2M1 = torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0], dtype=torch.float64)


def e2m1_rows(packed):
    """[R, C] uint8, two e2m1 values a byte along the row (low nibble
    first) -> [R, 2C] float64."""
    p = packed.to(torch.int64)
    out = torch.empty(p.shape[0], 2 * p.shape[1], dtype=torch.float64)
    for h, nib in enumerate((p & 15, p >> 4)):
        v = E2M1[nib & 7]
        out[:, h::2] = torch.where(nib >= 8, -v, v)
    return out


def e4m3(bits):
    """float8e4nv bytes -> float64 (normal and subnormal; no NaN used)."""
    b = bits.to(torch.int64)
    e, m = (b >> 3) & 15, (b & 7).double()
    v = torch.where(e == 0, m / 8 * 2.0 ** -6, (1 + m / 8) * torch.pow(2.0, (e - 7).double()))
    return torch.where(b >= 128, -v, v)


def run_nvfp4():
    a = torch.randint(0, 256, (16, 32), dtype=torch.uint8)
    b = torch.randint(0, 256, (16, 32), dtype=torch.uint8)
    # positive normal e4m3 scales between 2^-3 and 2^3
    sa = (torch.randint(4, 11, (16, 4)) * 8 + torch.randint(0, 8, (16, 4))).to(torch.uint8)
    sb = (torch.randint(4, 11, (16, 4)) * 8 + torch.randint(0, 8, (16, 4))).to(torch.uint8)
    c = torch.full((16, 16), float("nan"))
    nvfp4_dot[(1, )](a, triton.reinterpret(sa, tl.float8e4nv), b, triton.reinterpret(sb, tl.float8e4nv), c)
    ea = e2m1_rows(a) * e4m3(sa).repeat_interleave(16, dim=1)
    eb = e2m1_rows(b) * e4m3(sb).repeat_interleave(16, dim=1)
    ref = ea @ eb.T
    err = (c.double() - ref).abs().max().item()
    assert err <= 1e-5 * ref.abs().max().item() + 1e-6, ("nvfp4", err)


def main():
    torch.manual_seed(42)
    for fmt in ("mxfp8", "mxfp4", "mixed"):
        run(fmt, 128, 256, 512 if "fp4" in fmt else 256, True)
    run("mxfp8", 256, 128, 256, False)
    run("mxfp4", 128, 128, 256, False)
    run_nvfp4()
    print("tutorial 10 block scaled matmul: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
