# KERNEL: conv2d_nchw_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,constexpr,constexpr,constexpr,constexpr,constexpr,constexpr
# CONSTEXPR: stride_h=1, stride_w=1, pad_h=1, pad_w=1, dil_h=1, dil_w=1, GROUPS=1, KH=3, KW=3, HAS_BIAS=True, BLOCK_OC=8, BLOCK_P=64
# GRID: cdiv(OH * OW, BLOCK_P), cdiv(OC, BLOCK_OC), N
#
# KERNEL: conv2d_nchw_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: GROUPS=2, KH=3, KW=3, HAS_BIAS=False, BLOCK_OC=16, BLOCK_P=32
# GRID: cdiv(OH * OW, BLOCK_P), cdiv(OC, BLOCK_OC), N
#
# KERNEL: conv2d_nchw_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: GROUPS=12, KH=5, KW=5, HAS_BIAS=True, BLOCK_OC=4, BLOCK_P=128
# GRID: cdiv(OH * OW, BLOCK_P), cdiv(OC, BLOCK_OC), N
#
# KERNEL: depthwise_conv2d_nhwc_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32,i32:16,i32,i32,i32,i32
# CONSTEXPR: KSIZE=3, ACT="relu6", BLOCK_W=16, BLOCK_C=16
# GRID: N * OH, cdiv(OW, BLOCK_W), cdiv(C, BLOCK_C)
#
# KERNEL: depthwise_conv2d_nhwc_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: KSIZE=5, ACT="hardswish", BLOCK_W=8, BLOCK_C=32
# GRID: N * OH, cdiv(OW, BLOCK_W), cdiv(C, BLOCK_C)
#
# KERNEL: conv2d_nhwc_igemm_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32,i32,i32,i32,constexpr,constexpr,i32,i32
# CONSTEXPR: stride_h=1, stride_w=1, KH=3, KW=3, BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, GROUP_M=4, PRECISION="tf32"
# GRID: cdiv(N * OH * OW, BLOCK_M) * cdiv(OC, BLOCK_N)
#
# KERNEL: conv2d_nhwc_igemm_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,i32,i32,i32,i32:16,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: KH=5, KW=5, BLOCK_M=64, BLOCK_N=32, BLOCK_K=16, GROUP_M=4, PRECISION="tf32"
# GRID: cdiv(N * OH * OW, BLOCK_M) * cdiv(OC, BLOCK_N)
#
# KERNEL: conv2d_nhwc_igemm_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32,constexpr,constexpr,i32,i32
# CONSTEXPR: stride_h=1, stride_w=1, KH=1, KW=1, BLOCK_M=16, BLOCK_N=16, BLOCK_K=16, GROUP_M=4, PRECISION="ieee"
# GRID: cdiv(N * OH * OW, BLOCK_M) * cdiv(OC, BLOCK_N)
#
# KERNEL: max_pool2d_with_indices_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i64:16,i32,i32,i32,i32,i32,i32,i32,i32,constexpr,constexpr
# CONSTEXPR: dil_h=1, dil_w=1, KH=3, KW=3, BLOCK=128
# GRID: cdiv(OH * OW, BLOCK), N * C
#
# KERNEL: max_pool2d_with_indices_kernel
# SIGNATURE: *fp16:16,*fp16:16,*i64:16,i32,i32,i32,i32,constexpr,constexpr,i32,i32,i32,i32
# CONSTEXPR: stride_h=1, stride_w=1, KH=2, KW=2, BLOCK=64
# GRID: cdiv(OH * OW, BLOCK), N * C
#
# KERNEL: max_pool2d_with_indices_kernel
# SIGNATURE: *bf16:16,*bf16:16,*i64:16,i32,i32,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: KH=3, KW=3, BLOCK=32
# GRID: cdiv(OH * OW, BLOCK), N * C
#
# KERNEL: avg_pool2d_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,constexpr,constexpr
# CONSTEXPR: pad_h=1, pad_w=1, KH=3, KW=3, COUNT_INCLUDE_PAD=True, BLOCK_H=8, BLOCK_W=16
# GRID: cdiv(OW, BLOCK_W), cdiv(OH, BLOCK_H), N * C
#
# KERNEL: avg_pool2d_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: KH=4, KW=4, COUNT_INCLUDE_PAD=False, BLOCK_H=4, BLOCK_W=32
# GRID: cdiv(OW, BLOCK_W), cdiv(OH, BLOCK_H), N * C
#
# KERNEL: avg_pool2d_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32,i32,i32,i32,i32,i32,constexpr,constexpr
# CONSTEXPR: pad_h=1, pad_w=1, KH=3, KW=3, COUNT_INCLUDE_PAD=True, BLOCK_H=16, BLOCK_W=8
# GRID: cdiv(OW, BLOCK_W), cdiv(OH, BLOCK_H), N * C
#
# KERNEL: upsample_bilinear2d_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32,i32,fp32,fp32
# CONSTEXPR: ALIGN_CORNERS=False, BLOCK=128
# GRID: cdiv(OH * OW, BLOCK), N * C
#
# KERNEL: upsample_bilinear2d_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32,i32,fp32,fp32
# CONSTEXPR: ALIGN_CORNERS=True, BLOCK=64
# GRID: cdiv(OH * OW, BLOCK), N * C
#
# KERNEL: upsample_bilinear2d_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32,i32,i32,i32,fp32,fp32
# CONSTEXPR: ALIGN_CORNERS=False, BLOCK=32
# GRID: cdiv(OH * OW, BLOCK), N * C
#
# KERNEL: upsample_nearest2d_nhwc_kernel
# SIGNATURE: *u8:16,*u8:16,i32,i32,i32,i32,i32,fp32,fp32
# CONSTEXPR: EXACT=False, BLOCK_P=64, BLOCK_C=4
# GRID: cdiv(OH * OW, BLOCK_P), N
#
# KERNEL: upsample_nearest2d_nhwc_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32,i32,i32,fp32,fp32
# CONSTEXPR: EXACT=True, BLOCK_P=32, BLOCK_C=8
# GRID: cdiv(OH * OW, BLOCK_P), N
#
# KERNEL: upsample_nearest2d_nhwc_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32:16,i32:16,i32,i32,i32,fp32,fp32
# CONSTEXPR: EXACT=False, BLOCK_P=128, BLOCK_C=8
# GRID: cdiv(OH * OW, BLOCK_P), N
#
# KERNEL: grid_sample_bilinear_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32
# CONSTEXPR: ALIGN_CORNERS=False, PADDING="zeros", BLOCK_P=32, BLOCK_C=4
# GRID: cdiv(OH * OW, BLOCK_P), N
#
# KERNEL: grid_sample_bilinear_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32
# CONSTEXPR: ALIGN_CORNERS=True, PADDING="zeros", BLOCK_P=64, BLOCK_C=4
# GRID: cdiv(OH * OW, BLOCK_P), N
#
# KERNEL: grid_sample_bilinear_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32,i32
# CONSTEXPR: ALIGN_CORNERS=False, PADDING="border", BLOCK_P=16, BLOCK_C=8
# GRID: cdiv(OH * OW, BLOCK_P), N
#
# KERNEL: group_norm_nhwc_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,i32,i32:16,fp32
# CONSTEXPR: GROUPS=8, BLOCK_HW=32, BLOCK_CG=4, APPLY_SILU=True
# GRID: N * GROUPS
#
# KERNEL: group_norm_nhwc_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,fp32
# CONSTEXPR: GROUPS=4, BLOCK_HW=16, BLOCK_CG=8, APPLY_SILU=False
# GRID: N * GROUPS
#
# KERNEL: group_norm_nhwc_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*bf16:16,*fp32:16,*fp32:16,i32:16,i32,fp32
# CONSTEXPR: GROUPS=5, BLOCK_HW=64, BLOCK_CG=8, APPLY_SILU=True
# GRID: N * GROUPS
#
# KERNEL: batch_norm_nhwc_infer_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,fp32
# CONSTEXPR: HAS_RESIDUAL=True, RELU=True, BLOCK_M=32, BLOCK_C=32
# GRID: cdiv(M, BLOCK_M), cdiv(C, BLOCK_C)
#
# KERNEL: batch_norm_nhwc_infer_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32:16,i32:16,i32:16,fp32
# CONSTEXPR: HAS_RESIDUAL=False, RELU=False, BLOCK_M=64, BLOCK_C=16
# GRID: cdiv(M, BLOCK_M), cdiv(C, BLOCK_C)
#
# KERNEL: im2col_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32,i32,i32,constexpr,i32,constexpr
# CONSTEXPR: stride=1, dilation=1, KH=3, KW=3, BLOCK_L=64
# GRID: cdiv(OH * OW, BLOCK_L), C * KH * KW, N
#
# KERNEL: im2col_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: KH=4, KW=4, BLOCK_L=32
# GRID: cdiv(OH * OW, BLOCK_L), C * KH * KW, N
#
# KERNEL: col2im_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32,i32,i32,constexpr,i32,constexpr
# CONSTEXPR: stride=1, dilation=1, KH=3, KW=3, BLOCK_R=8, BLOCK_L=64
# GRID: cdiv(OH * OW, BLOCK_L), cdiv(C * KH * KW, BLOCK_R), N
#
# KERNEL: col2im_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: KH=4, KW=4, BLOCK_R=16, BLOCK_L=32
# GRID: cdiv(OH * OW, BLOCK_L), cdiv(C * KH * KW, BLOCK_R), N
#
# KERNEL: integral_image_kernel
# SIGNATURE: *u8:16,*i32:16,i32,i32,i32,i32
# CONSTEXPR: BLOCK_H=8, BLOCK_W=64
# GRID: P
#
# KERNEL: integral_image_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32:16,i32,i32
# CONSTEXPR: BLOCK_H=16, BLOCK_W=16
# GRID: P
#
# KERNEL: integral_image_kernel
# SIGNATURE: *i32:16,*i64:16,i32,i32,i32,i32
# CONSTEXPR: BLOCK_H=4, BLOCK_W=128
# GRID: P
#
# KERNEL: warp_affine_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,fp32
# CONSTEXPR: C=3, NEAREST=False, BLOCK_H=8, BLOCK_W=16
# GRID: cdiv(OW, BLOCK_W), cdiv(OH, BLOCK_H), N
#
# KERNEL: warp_affine_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32:16,i32,fp32
# CONSTEXPR: C=1, NEAREST=True, BLOCK_H=16, BLOCK_W=8
# GRID: cdiv(OW, BLOCK_W), cdiv(OH, BLOCK_H), N
#
# KERNEL: warp_affine_kernel
# SIGNATURE: *fp16:16,*fp32:16,*fp16:16,i32,i32,i32,i32,fp32
# CONSTEXPR: C=2, NEAREST=False, BLOCK_H=4, BLOCK_W=32
# GRID: cdiv(OW, BLOCK_W), cdiv(OH, BLOCK_H), N
#
import triton
import triton.language as tl


@triton.jit
def conv2d_nchw_kernel(
    x_ptr, w_ptr, b_ptr, y_ptr,
    C, H, W, OC, OH, OW,
    stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
    GROUPS: tl.constexpr, KH: tl.constexpr, KW: tl.constexpr, HAS_BIAS: tl.constexpr,
    BLOCK_OC: tl.constexpr, BLOCK_P: tl.constexpr,
):
    # One program: BLOCK_OC output channels x BLOCK_P output pixels of image n.
    pid_p = tl.program_id(0)
    pid_oc = tl.program_id(1)
    n = tl.program_id(2)
    c_per_group = C // GROUPS
    oc_per_group = OC // GROUPS
    offs_oc = pid_oc * BLOCK_OC + tl.arange(0, BLOCK_OC)
    offs_p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    mask_oc = offs_oc < OC
    mask_p = offs_p < OH * OW
    oh = offs_p // OW
    ow = offs_p % OW
    # a block of output channels may straddle groups: each row reads its own
    group = offs_oc // oc_per_group
    x_img = x_ptr + n.to(tl.int64) * C * H * W
    acc = tl.zeros((BLOCK_OC, BLOCK_P), dtype=tl.float32)
    for c in range(0, c_per_group):
        ic = group * c_per_group + c
        for kh in tl.static_range(KH):
            ih = oh * stride_h - pad_h + kh * dil_h
            row_ok = (ih >= 0) & (ih < H) & mask_p
            for kw in tl.static_range(KW):
                iw = ow * stride_w - pad_w + kw * dil_w
                ok = row_ok & (iw >= 0) & (iw < W)
                x_offs = ic[:, None] * (H * W) + (ih * W + iw)[None, :]
                xv = tl.load(x_img + x_offs, mask=mask_oc[:, None] & ok[None, :], other=0.0)
                wv = tl.load(w_ptr + ((offs_oc * c_per_group + c) * KH + kh) * KW + kw, mask=mask_oc, other=0.0)
                acc += xv.to(tl.float32) * wv.to(tl.float32)[:, None]
    if HAS_BIAS:
        acc += tl.load(b_ptr + offs_oc, mask=mask_oc, other=0.0).to(tl.float32)[:, None]
    y_img = y_ptr + n.to(tl.int64) * OC * OH * OW
    tl.store(y_img + offs_oc[:, None] * (OH * OW) + offs_p[None, :], acc.to(y_ptr.dtype.element_ty),
             mask=mask_oc[:, None] & mask_p[None, :])


@triton.jit
def _activation(x, ACT: tl.constexpr):
    if ACT == "relu":
        return tl.maximum(x, 0.0)
    elif ACT == "relu6":
        return tl.minimum(tl.maximum(x, 0.0), 6.0)
    elif ACT == "hardswish":
        return x * tl.clamp(x + 3.0, 0.0, 6.0) / 6.0
    else:
        return x


@triton.jit
def depthwise_conv2d_nhwc_kernel(
    x_ptr, w_ptr, b_ptr, y_ptr,
    H, W, C, OH, OW,
    stride, padding,
    KSIZE: tl.constexpr, ACT: tl.constexpr, BLOCK_W: tl.constexpr, BLOCK_C: tl.constexpr,
):
    # grid: (N * OH, cdiv(OW, BLOCK_W), cdiv(C, BLOCK_C)); channels are the
    # contiguous axis, so a [BLOCK_W, BLOCK_C] tile reads whole pixels.
    row = tl.program_id(0)
    n = row // OH
    oh = row % OH
    ow = tl.program_id(1) * BLOCK_W + tl.arange(0, BLOCK_W)
    cs = tl.program_id(2) * BLOCK_C + tl.arange(0, BLOCK_C)
    c_ok = cs < C
    acc = tl.zeros((BLOCK_W, BLOCK_C), dtype=tl.float32)
    for kh in tl.static_range(KSIZE):
        ih = oh * stride - padding + kh
        if (ih >= 0) & (ih < H):
            x_row = x_ptr + ((n * H + ih) * W).to(tl.int64) * C
            for kw in tl.static_range(KSIZE):
                iw = ow * stride - padding + kw
                ok = (iw >= 0) & (iw < W)
                xv = tl.load(x_row + iw[:, None] * C + cs[None, :], mask=ok[:, None] & c_ok[None, :], other=0.0)
                # torch's depthwise weight is [C, 1, K, K]
                wv = tl.load(w_ptr + cs * (KSIZE * KSIZE) + kh * KSIZE + kw, mask=c_ok, other=0.0)
                acc = acc + xv.to(tl.float32) * wv[None, :].to(tl.float32)
    acc += tl.load(b_ptr + cs, mask=c_ok, other=0.0).to(tl.float32)[None, :]
    acc = _activation(acc, ACT)
    y_row = y_ptr + ((n * OH + oh) * OW).to(tl.int64) * C
    tl.store(y_row + ow[:, None] * C + cs[None, :], acc.to(y_ptr.dtype.element_ty),
             mask=(ow < OW)[:, None] & c_ok[None, :])


@triton.jit
def conv2d_nhwc_igemm_kernel(
    x_ptr, w_ptr, y_ptr,
    N, H, W, C, OC, OH, OW,
    stride_h, stride_w, pad_h, pad_w,
    KH: tl.constexpr, KW: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr, PRECISION: tl.constexpr,
):
    # Implicit GEMM: M = N*OH*OW output pixels, N = OC, K = KH*KW*C; the
    # weight is [OC, KH, KW, C] (channels-last), read as a K x OC matrix.
    pid = tl.program_id(0)
    M = N * OH * OW
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(OC, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    n_idx = offs_m // (OH * OW)
    rem = offs_m % (OH * OW)
    oh = rem // OW
    ow = rem % OW
    m_ok = offs_m < M
    ih0 = oh * stride_h - pad_h
    iw0 = ow * stride_w - pad_w
    K_total = KH * KW * C
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K_total, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        k_ok = offs_k < K_total
        c = offs_k % C
        kwk = (offs_k // C) % KW
        khk = offs_k // (C * KW)
        ih = ih0[:, None] + khk[None, :]
        iw = iw0[:, None] + kwk[None, :]
        a_mask = m_ok[:, None] & k_ok[None, :] & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
        a_offs = ((n_idx[:, None] * H + ih) * W + iw).to(tl.int64) * C + c[None, :]
        a = tl.load(x_ptr + a_offs, mask=a_mask, other=0.0)
        b = tl.load(w_ptr + offs_n[None, :] * K_total + offs_k[:, None],
                    mask=k_ok[:, None] & (offs_n < OC)[None, :], other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
    y_offs = offs_m.to(tl.int64)[:, None] * OC + offs_n[None, :]
    tl.store(y_ptr + y_offs, acc.to(y_ptr.dtype.element_ty), mask=m_ok[:, None] & (offs_n < OC)[None, :])


@triton.jit
def max_pool2d_with_indices_kernel(
    x_ptr, y_ptr, idx_ptr,
    H, W, OH, OW,
    stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
    KH: tl.constexpr, KW: tl.constexpr, BLOCK: tl.constexpr,
):
    # grid: (cdiv(OH*OW, BLOCK), N*C). torch's rule: a value replaces the
    # running maximum when it is larger or NaN; the first valid position
    # seeds the index, so an all -inf window points at its first element.
    pid = tl.program_id(0)
    plane = tl.program_id(1).to(tl.int64)
    if pid * BLOCK >= OH * OW:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < OH * OW
    oh = offs // OW
    ow = offs % OW
    x_plane = x_ptr + plane * H * W
    best = tl.full((BLOCK,), float("-inf"), tl.float32)
    best_idx = tl.full((BLOCK,), -1, tl.int64)
    for kh in tl.static_range(KH):
        for kw in tl.static_range(KW):
            ih = oh * stride_h - pad_h + kh * dil_h
            iw = ow * stride_w - pad_w + kw * dil_w
            ok = mask & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
            pos = ih * W + iw
            v = tl.load(x_plane + pos, mask=ok, other=float("-inf")).to(tl.float32)
            take = ok & ((v > best) | (v != v) | (best_idx < 0))
            best = tl.where(take, v, best)
            best_idx = tl.where(take, pos.to(tl.int64), best_idx)
    out = plane * OH * OW + offs
    tl.store(y_ptr + out, best.to(y_ptr.dtype.element_ty), mask=mask)
    tl.store(idx_ptr + out, best_idx, mask=mask)


@triton.jit
def avg_pool2d_kernel(
    x_ptr, y_ptr,
    H, W, OH, OW,
    stride_h, stride_w, pad_h, pad_w,
    KH: tl.constexpr, KW: tl.constexpr, COUNT_INCLUDE_PAD: tl.constexpr,
    BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr,
):
    # grid: (cdiv(OW, BLOCK_W), cdiv(OH, BLOCK_H), N*C): a 2-D tile of outputs.
    plane = tl.program_id(2).to(tl.int64)
    oh = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)[:, None]
    ow = tl.program_id(0) * BLOCK_W + tl.arange(0, BLOCK_W)[None, :]
    mask = (oh < OH) & (ow < OW)
    hstart = oh * stride_h - pad_h
    wstart = ow * stride_w - pad_w
    # the divisor as torch computes it: the window clipped to the padded
    # image (ceil_mode windows may run past it), then to the image itself
    hend = tl.minimum(hstart + KH, H + pad_h)
    wend = tl.minimum(wstart + KW, W + pad_w)
    pool_size = (hend - hstart) * (wend - wstart)
    h0 = tl.maximum(hstart, 0)
    w0 = tl.maximum(wstart, 0)
    h1 = tl.minimum(hend, H)
    w1 = tl.minimum(wend, W)
    acc = tl.zeros((BLOCK_H, BLOCK_W), dtype=tl.float32)
    x_plane = x_ptr + plane * H * W
    for kh in tl.static_range(KH):
        ih = hstart + kh
        for kw in tl.static_range(KW):
            iw = wstart + kw
            ok = mask & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
            acc += tl.load(x_plane + ih * W + iw, mask=ok, other=0.0).to(tl.float32)
    if COUNT_INCLUDE_PAD:
        divisor = pool_size
    else:
        divisor = (h1 - h0) * (w1 - w0)
    out = acc / divisor.to(tl.float32)
    tl.store(y_ptr + plane * OH * OW + oh * OW + ow, out.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _source_index(dst, scale, ALIGN_CORNERS: tl.constexpr):
    if ALIGN_CORNERS:
        return dst.to(tl.float32) * scale
    else:
        src = scale * (dst.to(tl.float32) + 0.5) - 0.5
        return tl.maximum(src, 0.0)


@triton.jit
def upsample_bilinear2d_kernel(
    x_ptr, y_ptr, H, W, OH, OW, scale_h, scale_w,
    ALIGN_CORNERS: tl.constexpr, BLOCK: tl.constexpr,
):
    pid = tl.program_id(0)
    plane = tl.program_id(1).to(tl.int64)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < OH * OW
    oh = offs // OW
    ow = offs % OW
    h_src = _source_index(oh, scale_h, ALIGN_CORNERS)
    w_src = _source_index(ow, scale_w, ALIGN_CORNERS)
    h0 = h_src.to(tl.int32)
    w0 = w_src.to(tl.int32)
    h_step = tl.where(h0 < H - 1, 1, 0)
    w_step = tl.where(w0 < W - 1, 1, 0)
    lh = h_src - h0.to(tl.float32)
    lw = w_src - w0.to(tl.float32)
    base = x_ptr + plane * H * W
    p00 = tl.load(base + h0 * W + w0, mask=mask, other=0.0).to(tl.float32)
    p01 = tl.load(base + h0 * W + w0 + w_step, mask=mask, other=0.0).to(tl.float32)
    p10 = tl.load(base + (h0 + h_step) * W + w0, mask=mask, other=0.0).to(tl.float32)
    p11 = tl.load(base + (h0 + h_step) * W + w0 + w_step, mask=mask, other=0.0).to(tl.float32)
    top = (1.0 - lw) * p00 + lw * p01
    bot = (1.0 - lw) * p10 + lw * p11
    out = (1.0 - lh) * top + lh * bot
    tl.store(y_ptr + plane * OH * OW + offs, out.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def upsample_nearest2d_nhwc_kernel(
    x_ptr, y_ptr, H, W, C, OH, OW, scale_h, scale_w,
    EXACT: tl.constexpr, BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr,
):
    # channels-last; nearest (floor(dst * scale)) or nearest-exact
    # (floor((dst + 0.5) * scale)), both clamped to the last row/column
    pid_p = tl.program_id(0)
    n = tl.program_id(1)
    offs = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    p_ok = offs < OH * OW
    oh = offs // OW
    ow = offs % OW
    if EXACT:
        fh = tl.floor((oh.to(tl.float32) + 0.5) * scale_h)
        fw = tl.floor((ow.to(tl.float32) + 0.5) * scale_w)
    else:
        fh = tl.floor(oh.to(tl.float32) * scale_h)
        fw = tl.floor(ow.to(tl.float32) * scale_w)
    ih = tl.minimum(fh.to(tl.int32), H - 1)
    iw = tl.minimum(fw.to(tl.int32), W - 1)
    src = (n * H * W + ih * W + iw).to(tl.int64) * C
    dst = (n * OH * OW + offs).to(tl.int64) * C
    for c0 in range(0, C, BLOCK_C):
        cs = c0 + tl.arange(0, BLOCK_C)
        m = p_ok[:, None] & (cs < C)[None, :]
        v = tl.load(x_ptr + src[:, None] + cs[None, :], mask=m)
        tl.store(y_ptr + dst[:, None] + cs[None, :], v, mask=m)


@triton.jit
def _unnormalize(coord, size, ALIGN_CORNERS: tl.constexpr):
    if ALIGN_CORNERS:
        return (coord + 1.0) / 2.0 * (size - 1)
    return ((coord + 1.0) * size - 1.0) / 2.0


@triton.jit
def _corner(base, y, x, H, W, C, cs, c_ok, weight):
    ok = (y >= 0) & (y < H) & (x >= 0) & (x < W)
    v = tl.load(base + (y * W + x)[:, None] + cs[None, :] * (H * W), mask=ok[:, None] & c_ok[None, :], other=0.0)
    return v.to(tl.float32) * weight[:, None]


@triton.jit
def grid_sample_bilinear_kernel(
    x_ptr, grid_ptr, y_ptr, C, H, W, OH, OW,
    ALIGN_CORNERS: tl.constexpr, PADDING: tl.constexpr, BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr,
):
    # F.grid_sample(x, grid, "bilinear", padding_mode, align_corners), x NCHW,
    # grid [N, OH, OW, 2] holding (x, y) in [-1, 1]
    pid = tl.program_id(0)
    n = tl.program_id(1)
    offs = pid * BLOCK_P + tl.arange(0, BLOCK_P)
    p_ok = offs < OH * OW
    g = grid_ptr + (n * OH * OW + offs).to(tl.int64) * 2
    gx = tl.load(g, mask=p_ok, other=0.0).to(tl.float32)
    gy = tl.load(g + 1, mask=p_ok, other=0.0).to(tl.float32)
    ix = _unnormalize(gx, W, ALIGN_CORNERS)
    iy = _unnormalize(gy, H, ALIGN_CORNERS)
    if PADDING == "border":
        ix = tl.minimum(tl.maximum(ix, 0.0), W - 1.0)
        iy = tl.minimum(tl.maximum(iy, 0.0), H - 1.0)
    x0f = tl.floor(ix)
    y0f = tl.floor(iy)
    x0 = x0f.to(tl.int32)
    y0 = y0f.to(tl.int32)
    wx1 = ix - x0f
    wy1 = iy - y0f
    wx0 = 1.0 - wx1
    wy0 = 1.0 - wy1
    base = x_ptr + n.to(tl.int64) * C * H * W
    out_base = y_ptr + n.to(tl.int64) * C * OH * OW
    for c0 in range(0, C, BLOCK_C):
        cs = c0 + tl.arange(0, BLOCK_C)
        c_ok = cs < C
        acc = _corner(base, y0, x0, H, W, C, cs, c_ok, wy0 * wx0)
        acc += _corner(base, y0, x0 + 1, H, W, C, cs, c_ok, wy0 * wx1)
        acc += _corner(base, y0 + 1, x0, H, W, C, cs, c_ok, wy1 * wx0)
        acc += _corner(base, y0 + 1, x0 + 1, H, W, C, cs, c_ok, wy1 * wx1)
        tl.store(out_base + cs[None, :] * (OH * OW) + offs[:, None], acc.to(y_ptr.dtype.element_ty),
                 mask=p_ok[:, None] & c_ok[None, :])


@triton.jit
def group_norm_nhwc_kernel(
    x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr,
    HW, C, eps,
    GROUPS: tl.constexpr, BLOCK_HW: tl.constexpr, BLOCK_CG: tl.constexpr, APPLY_SILU: tl.constexpr,
):
    # one program per (image, group); the group's channels are a contiguous
    # run of C // GROUPS inside each pixel (diffusers' channels-last GroupNorm + SiLU)
    pid = tl.program_id(0)
    n = pid // GROUPS
    g = pid % GROUPS
    cg = C // GROUPS
    cs = tl.arange(0, BLOCK_CG)
    c_ok = cs < cg
    base = x_ptr + n.to(tl.int64) * HW * C + g * cg
    # Welford over tiles: count, mean and M2 carried through the loop
    count = 0.0
    mean = 0.0
    m2 = 0.0
    for p0 in range(0, HW, BLOCK_HW):
        ps = p0 + tl.arange(0, BLOCK_HW)
        m = (ps < HW)[:, None] & c_ok[None, :]
        v = tl.load(base + ps[:, None] * C + cs[None, :], mask=m, other=0.0).to(tl.float32)
        t_count = tl.sum(tl.sum(m.to(tl.float32), 1), 0)
        t_mean = tl.sum(tl.sum(v, 1), 0) / t_count
        d = tl.where(m, v - t_mean, 0.0)
        t_m2 = tl.sum(tl.sum(d * d, 1), 0)
        new_count = count + t_count
        delta = t_mean - mean
        mean = mean + delta * (t_count / new_count)
        m2 = m2 + t_m2 + delta * delta * (count * t_count / new_count)
        count = new_count
    rstd = 1.0 / tl.sqrt(m2 / count + eps)
    tl.store(mean_ptr + pid, mean)
    tl.store(rstd_ptr + pid, rstd)
    gamma = tl.load(w_ptr + g * cg + cs, mask=c_ok, other=1.0).to(tl.float32)
    beta = tl.load(b_ptr + g * cg + cs, mask=c_ok, other=0.0).to(tl.float32)
    out = y_ptr + n.to(tl.int64) * HW * C + g * cg
    for p0 in range(0, HW, BLOCK_HW):
        ps = p0 + tl.arange(0, BLOCK_HW)
        m = (ps < HW)[:, None] & c_ok[None, :]
        v = tl.load(base + ps[:, None] * C + cs[None, :], mask=m, other=0.0).to(tl.float32)
        y = (v - mean) * rstd * gamma[None, :] + beta[None, :]
        if APPLY_SILU:
            y = y * tl.sigmoid(y)
        tl.store(out + ps[:, None] * C + cs[None, :], y.to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def batch_norm_nhwc_infer_kernel(
    x_ptr, res_ptr, y_ptr, mean_ptr, var_ptr, w_ptr, b_ptr,
    M, C, stride_xm, stride_ym, eps,
    HAS_RESIDUAL: tl.constexpr, RELU: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_C: tl.constexpr,
):
    # channels-last batch norm in eval mode: x viewed as [N*H*W, C] rows with
    # a row stride; scale/shift folded per channel once per program
    pid_m = tl.program_id(0)
    pid_c = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cs = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    c_ok = cs < C
    mu = tl.load(mean_ptr + cs, mask=c_ok, other=0.0)
    var = tl.load(var_ptr + cs, mask=c_ok, other=1.0)
    gamma = tl.load(w_ptr + cs, mask=c_ok, other=1.0)
    beta = tl.load(b_ptr + cs, mask=c_ok, other=0.0)
    scale = gamma * tl.rsqrt(var + eps)
    shift = beta - mu * scale
    m = (rows < M)[:, None] & c_ok[None, :]
    x = tl.load(x_ptr + rows.to(tl.int64)[:, None] * stride_xm + cs[None, :], mask=m, other=0.0)
    y = x.to(tl.float32) * scale[None, :] + shift[None, :]
    if HAS_RESIDUAL:
        y += tl.load(res_ptr + rows.to(tl.int64)[:, None] * stride_ym + cs[None, :], mask=m, other=0.0).to(tl.float32)
    if RELU:
        y = tl.where(y > 0, y, 0.0)
    tl.store(y_ptr + rows.to(tl.int64)[:, None] * stride_ym + cs[None, :], y.to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def im2col_kernel(
    x_ptr, col_ptr, C, H, W, OH, OW,
    stride, padding, dilation,
    KH: tl.constexpr, KW: tl.constexpr, BLOCK_L: tl.constexpr,
):
    # F.unfold: cols[n, (c*KH + kh)*KW + kw, oh*OW + ow]; grid (cdiv(L, BLOCK_L), C*KH*KW, N)
    pid_l = tl.program_id(0)
    row = tl.program_id(1)
    n = tl.program_id(2)
    kw = row % KW
    kh = (row // KW) % KH
    c = row // (KH * KW)
    L = OH * OW
    ls = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    l_ok = ls < L
    ih = (ls // OW) * stride - padding + kh * dilation
    iw = (ls % OW) * stride - padding + kw * dilation
    ok = l_ok & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
    v = tl.load(x_ptr + ((n * C + c) * H).to(tl.int64) * W + ih * W + iw, mask=ok, other=0.0)
    rows_total = C * KH * KW
    tl.store(col_ptr + (n * rows_total + row).to(tl.int64) * L + ls, v, mask=l_ok)


@triton.jit
def col2im_kernel(
    col_ptr, x_ptr, C, H, W, OH, OW,
    stride, padding, dilation,
    KH: tl.constexpr, KW: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_L: tl.constexpr,
):
    # F.fold: every column entry is added into the pixel it came from; the
    # windows overlap, so the adds are atomic. grid (cdiv(L, BLOCK_L), cdiv(C*KH*KW, BLOCK_R), N)
    L = OH * OW
    rows_total = C * KH * KW
    n = tl.program_id(2)
    rs = tl.program_id(1) * BLOCK_R + tl.arange(0, BLOCK_R)
    ls = tl.program_id(0) * BLOCK_L + tl.arange(0, BLOCK_L)
    kw = rs % KW
    kh = (rs // KW) % KH
    c = rs // (KH * KW)
    ih = (ls // OW)[None, :] * stride - padding + (kh * dilation)[:, None]
    iw = (ls % OW)[None, :] * stride - padding + (kw * dilation)[:, None]
    in_range = (rs < rows_total)[:, None] & (ls < L)[None, :]
    v = tl.load(col_ptr + (n * rows_total + rs).to(tl.int64)[:, None] * L + ls[None, :], mask=in_range, other=0.0)
    ok = in_range & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
    dst = x_ptr + ((n * C + c) * H).to(tl.int64)[:, None] * W + ih * W + iw
    tl.atomic_add(dst, v, mask=ok, sem="relaxed")


@triton.jit
def integral_image_kernel(
    x_ptr, y_ptr, H, W, stride_xh, stride_yh,
    BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr,
):
    # summed-area table of one plane per program: each BLOCK_H x W strip is
    # scanned along both axes, and the column totals of the strips above are
    # carried through the loop
    plane = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_W)
    col_ok = cols < W
    x_plane = x_ptr + plane * H * stride_xh
    y_plane = y_ptr + plane * H * stride_yh
    carry = tl.zeros((BLOCK_W,), dtype=y_ptr.dtype.element_ty)
    for h0 in range(0, H, BLOCK_H):
        rows = h0 + tl.arange(0, BLOCK_H)
        m = (rows < H)[:, None] & col_ok[None, :]
        v = tl.load(x_plane + rows[:, None] * stride_xh + cols[None, :], mask=m, other=0).to(y_ptr.dtype.element_ty)
        v = tl.cumsum(v, axis=1)
        s = tl.cumsum(v, axis=0) + carry[None, :]
        tl.store(y_plane + rows[:, None] * stride_yh + cols[None, :], s, mask=m)
        carry += tl.sum(v, axis=0)


@triton.jit
def _bilinear_tap(base, y, x, H, W, wgt, fill, mask):
    ok = mask & (y >= 0) & (y < H) & (x >= 0) & (x < W)
    v = tl.load(base + y * W + x, mask=ok, other=0.0).to(tl.float32)
    return wgt * tl.where(ok, v, fill)


@triton.jit
def warp_affine_kernel(
    x_ptr, m_ptr, y_ptr, H, W, OH, OW, fill,
    C: tl.constexpr, NEAREST: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr,
):
    # cv2.warpAffine with WARP_INVERSE_MAP and BORDER_CONSTANT: output pixel
    # (x, y) samples the source at M @ (x, y, 1), M one 2x3 matrix per image.
    # grid: (cdiv(OW, BLOCK_W), cdiv(OH, BLOCK_H), N)
    n = tl.program_id(2)
    ys = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    xs = tl.program_id(0) * BLOCK_W + tl.arange(0, BLOCK_W)
    mask = (ys < OH)[:, None] & (xs < OW)[None, :]
    mat = m_ptr + n * 6
    a = tl.load(mat + 0)
    b = tl.load(mat + 1)
    tx = tl.load(mat + 2)
    c = tl.load(mat + 3)
    d = tl.load(mat + 4)
    ty = tl.load(mat + 5)
    xf = xs.to(tl.float32)[None, :]
    yf = ys.to(tl.float32)[:, None]
    sx = a * xf + b * yf + tx
    sy = c * xf + d * yf + ty
    out_offs = ys[:, None] * OW + xs[None, :]
    for ch in tl.static_range(C):
        base = x_ptr + (n * C + ch).to(tl.int64) * H * W
        if NEAREST:
            ix = tl.floor(sx + 0.5).to(tl.int32)
            iy = tl.floor(sy + 0.5).to(tl.int32)
            out = _bilinear_tap(base, iy, ix, H, W, 1.0, fill, mask)
        else:
            x0f = tl.floor(sx)
            y0f = tl.floor(sy)
            fx = sx - x0f
            fy = sy - y0f
            x0 = x0f.to(tl.int32)
            y0 = y0f.to(tl.int32)
            out = _bilinear_tap(base, y0, x0, H, W, (1 - fx) * (1 - fy), fill, mask)
            out += _bilinear_tap(base, y0, x0 + 1, H, W, fx * (1 - fy), fill, mask)
            out += _bilinear_tap(base, y0 + 1, x0, H, W, (1 - fx) * fy, fill, mask)
            out += _bilinear_tap(base, y0 + 1, x0 + 1, H, W, fx * fy, fill, mask)
        tl.store(y_ptr + (n * C + ch).to(tl.int64) * OH * OW + out_offs, out.to(y_ptr.dtype.element_ty), mask=mask)
