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
# KERNEL: roi_align_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32,fp32,i32
# CONSTEXPR: PH=4, PW=4, ALIGNED=True, BLOCK_C=8, BLOCK_P=16
# GRID: n_rois, cdiv(C, BLOCK_C)
#
# KERNEL: roi_align_kernel
# SIGNATURE: *fp16:16,*fp32:16,*fp16:16,i32,i32:16,i32:16,fp32,i32
# CONSTEXPR: PH=7, PW=7, ALIGNED=False, BLOCK_C=4, BLOCK_P=64
# GRID: n_rois, cdiv(C, BLOCK_C)
#
# KERNEL: nms_mask_kernel
# SIGNATURE: *fp32:16,*i64:16,i32,fp32
# CONSTEXPR: BLOCK=32
# GRID: cdiv(N, BLOCK), cdiv(N, 64)
#
# KERNEL: nms_sweep_kernel
# SIGNATURE: *i64:16,*i32:16,*i32:16,i32
# CONSTEXPR: WORDS=8
# GRID: 1
#
# KERNEL: upsample_bicubic2d_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32,i32,fp32,fp32
# CONSTEXPR: ALIGN_CORNERS=False, BLOCK_H=8, BLOCK_W=16
# GRID: cdiv(OW, BLOCK_W), cdiv(OH, BLOCK_H), N * C
#
# KERNEL: upsample_bicubic2d_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32,i32,i32,i32,fp32,fp32
# CONSTEXPR: ALIGN_CORNERS=True, BLOCK_H=16, BLOCK_W=8
# GRID: cdiv(OW, BLOCK_W), cdiv(OH, BLOCK_H), N * C
#
# KERNEL: adaptive_avg_pool2d_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32,i32
# CONSTEXPR: MAX_KH=5, MAX_KW=5, BLOCK=32
# GRID: cdiv(OH * OW, BLOCK), N * C
#
# KERNEL: gaussian_blur_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: KSIZE=5, BLOCK_H=8, BLOCK_W=16
# GRID: cdiv(W, BLOCK_W), cdiv(H, BLOCK_H), N * C
#
# KERNEL: gaussian_blur_kernel
# SIGNATURE: *u8:16,*fp32:16,*u8:16,i32,i32
# CONSTEXPR: KSIZE=3, BLOCK_H=16, BLOCK_W=16
# GRID: cdiv(W, BLOCK_W), cdiv(H, BLOCK_H), N * C
#
# KERNEL: equalize_kernel
# SIGNATURE: *u8:16,*u8:16,*u8:16,i32
# CONSTEXPR: BLOCK=256
# GRID: n_planes
#
# KERNEL: pixel_shuffle_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: R=2, BLOCK_H=4, BLOCK_W=8
# GRID: cdiv(H, BLOCK_H), cdiv(W, BLOCK_W), N * C
#
# KERNEL: pixel_shuffle_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32,i32,i32:16
# CONSTEXPR: R=4, BLOCK_H=8, BLOCK_W=4
# GRID: cdiv(H, BLOCK_H), cdiv(W, BLOCK_W), N * C
#
# KERNEL: channel_absmax_nhwc_kernel
# SIGNATURE: *bf16:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK_M=64, BLOCK_C=32
# GRID: cdiv(M, BLOCK_M), cdiv(C, BLOCK_C)
#
# KERNEL: conv2d_int8_nhwc_kernel
# SIGNATURE: *i8:16,*i8:16,*i32:16,*fp32:16,*u8:16,i32,i32,i32,i32:16,i32,i32,i32,i32,i32,fp32,fp32,fp32
# CONSTEXPR: KSIZE=3, BLOCK_M=32, BLOCK_N=16, BLOCK_K=32
# GRID: cdiv(N * OH * OW, BLOCK_M), cdiv(OC, BLOCK_N)
#
# KERNEL: bn_stats_nhwc_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK_M=64, BLOCK_C=16
# GRID: cdiv(M, BLOCK_M), cdiv(C, BLOCK_C)
#
# KERNEL: bn_stats_nhwc_kernel
# SIGNATURE: *bf16:16,*fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK_M=128, BLOCK_C=8
# GRID: cdiv(M, BLOCK_M), cdiv(C, BLOCK_C)
#
# KERNEL: bn_finalize_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,fp32,fp32
# CONSTEXPR: BLOCK_P=4, BLOCK_C=16
# GRID: cdiv(C, BLOCK_C)
#
# KERNEL: deform_conv2d_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32,i32,i32
# CONSTEXPR: KSIZE=3, BLOCK_P=32, BLOCK_OC=16, BLOCK_C=16
# GRID: cdiv(OH * OW, BLOCK_P), cdiv(OC, BLOCK_OC), N
#
# KERNEL: deform_conv2d_kernel
# SIGNATURE: *fp16:16,*fp32:16,*fp32:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32,i32,i32,i32
# CONSTEXPR: KSIZE=3, BLOCK_P=16, BLOCK_OC=16, BLOCK_C=16
# GRID: cdiv(OH * OW, BLOCK_P), cdiv(OC, BLOCK_OC), N
#
# KERNEL: depthwise_conv3d_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32
# CONSTEXPR: K=3, BLOCK_H=8, BLOCK_W=8
# GRID: cdiv(W, BLOCK_W) * cdiv(H, BLOCK_H), D, N * C
#
# KERNEL: rgba_to_gray_kernel
# SIGNATURE: *i32:16,*u8:16,*i32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: rgba_to_gray_kernel
# SIGNATURE: *u32:16,*u8:16,*u32:16,i32
# CONSTEXPR: BLOCK=1024
# GRID: cdiv(n, BLOCK)
#
# Vision operators as torchvision-like and image-processing libraries write
# them, each checked against torch by tests/python/test_vision_ops.py:
# direct NCHW convolution with stride/padding/dilation and groups (a block of
# output channels straddling groups, depthwise), a channels-last depthwise
# convolution with a string-constexpr activation and a runtime `if` on a
# scalar row index inside `tl.static_range`, an implicit-GEMM NHWC
# convolution on `tl.dot` (GROUP_M order, k decomposed into kh/kw/c by `//`
# and `%`, input_precision as a constexpr), an int8 convolution with int32
# accumulation and uint8 requantisation, a deformable (DCNv2) convolution
# whose bilinear samples build the `tl.dot` operand in registers, a
# depthwise 3-D convolution; max pooling with indices (torch's NaN and
# first-valid-position rules, an early `return` for surplus programs) and
# average pooling (count_include_pad, ceil_mode divisors) on 2-D tiles and
# a 3-D grid; adaptive average pooling with per-output window sizes;
# bilinear, bicubic (a helper returning four weights) and nearest /
# nearest-exact resampling, channels-last and uint8; grid_sample with zeros
# and border padding; roi_align with run-time sample loops per roi and a
# helper returning a tuple of tuples; NMS as a 64-bit IoU bit matrix and a
# greedy sweep carrying an int64 word tile through a loop with a runtime
# `if`; channels-last group norm (Welford merged across tiles in scalars,
# SiLU) and batch norm (inference; training statistics by a three-tensor
# `tl.reduce` and a finalize loop carrying a tuple unpacked into a helper
# with `*`); im2col and col2im with atomics; a summed-area table carrying
# column totals; affine warps with border fills; reflect-padded Gaussian
# blur rounding uint8 through libdevice.rint; histogram equalisation with
# `tl.histogram`, integer lookup tables and loads at uint8 offsets; pixel
# shuffle by reshape/permute of a 4-D tile; per-channel absmax through
# float `tl.atomic_max`; RGBA8888 unpacking and repacking with shifts.
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
def _corner(base, y, x, H, W, cs, c_ok, weight):
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
        acc = _corner(base, y0, x0, H, W, cs, c_ok, wy0 * wx0)
        acc += _corner(base, y0, x0 + 1, H, W, cs, c_ok, wy0 * wx1)
        acc += _corner(base, y0 + 1, x0, H, W, cs, c_ok, wy1 * wx0)
        acc += _corner(base, y0 + 1, x0 + 1, H, W, cs, c_ok, wy1 * wx1)
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


@triton.jit
def _roi_bilinear(y, x, H, W):
    # torchvision's bilinear_interpolate, element-wise: the four corner
    # offsets and weights, all 0 for a sample more than a pixel outside
    empty = (y < -1.0) | (y > H) | (x < -1.0) | (x > W)
    y = tl.maximum(y, 0.0)
    x = tl.maximum(x, 0.0)
    y_low = y.to(tl.int32)
    x_low = x.to(tl.int32)
    y_edge = y_low >= H - 1
    x_edge = x_low >= W - 1
    y_low = tl.where(y_edge, H - 1, y_low)
    x_low = tl.where(x_edge, W - 1, x_low)
    y_high = tl.where(y_edge, H - 1, y_low + 1)
    x_high = tl.where(x_edge, W - 1, x_low + 1)
    y = tl.where(y_edge, y_low.to(tl.float32), y)
    x = tl.where(x_edge, x_low.to(tl.float32), x)
    ly = y - y_low
    lx = x - x_low
    hy = 1.0 - ly
    hx = 1.0 - lx
    keep = tl.where(empty, 0.0, 1.0)
    return (y_low * W + x_low, y_low * W + x_high, y_high * W + x_low, y_high * W + x_high), \
        (hy * hx * keep, hy * lx * keep, ly * hx * keep, ly * lx * keep)


@triton.jit
def roi_align_kernel(
    x_ptr, rois_ptr, y_ptr, C, H, W, spatial_scale, sampling_ratio,
    PH: tl.constexpr, PW: tl.constexpr, ALIGNED: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_P: tl.constexpr,
):
    # torchvision.ops.roi_align: rois [K, 5] = (batch index, x1, y1, x2, y2);
    # every bin averages a grid of bilinear samples whose size depends on
    # the roi (sampling_ratio <= 0: ceil(roi size / bins)), so the sample
    # loops have run-time bounds. grid (K, cdiv(C, BLOCK_C))
    r = tl.program_id(0)
    cs = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    c_ok = cs < C
    roi = rois_ptr + r * 5
    b = tl.load(roi).to(tl.int32)
    offset = 0.5 if ALIGNED else 0.0
    x1 = tl.load(roi + 1) * spatial_scale - offset
    y1 = tl.load(roi + 2) * spatial_scale - offset
    x2 = tl.load(roi + 3) * spatial_scale - offset
    y2 = tl.load(roi + 4) * spatial_scale - offset
    roi_w = x2 - x1
    roi_h = y2 - y1
    if not ALIGNED:
        roi_w = tl.maximum(roi_w, 1.0)
        roi_h = tl.maximum(roi_h, 1.0)
    bin_h = roi_h / PH
    bin_w = roi_w / PW
    if sampling_ratio > 0:
        grid_h = sampling_ratio
        grid_w = sampling_ratio
    else:
        grid_h = tl.ceil(roi_h / PH).to(tl.int32)
        grid_w = tl.ceil(roi_w / PW).to(tl.int32)
    count = tl.maximum(grid_h * grid_w, 1).to(tl.float32)
    ps = tl.arange(0, BLOCK_P)
    p_ok = ps < PH * PW
    ph = (ps // PW).to(tl.float32)
    pw = (ps % PW).to(tl.float32)
    base = x_ptr + (b * C + cs).to(tl.int64)[:, None] * H * W
    acc = tl.zeros((BLOCK_C, BLOCK_P), dtype=tl.float32)
    for iy in range(grid_h):
        yy = y1 + ph * bin_h + (iy + 0.5) * bin_h / grid_h
        for ix in range(grid_w):
            xx = x1 + pw * bin_w + (ix + 0.5) * bin_w / grid_w
            offs, wts = _roi_bilinear(yy, xx, H, W)
            for i in tl.static_range(4):
                v = tl.load(base + offs[i][None, :], mask=c_ok[:, None] & p_ok[None, :], other=0.0).to(tl.float32)
                acc += v * wts[i][None, :]
    out = y_ptr + (r * C + cs)[:, None] * (PH * PW) + ps[None, :]
    tl.store(out, (acc / count).to(y_ptr.dtype.element_ty), mask=c_ok[:, None] & p_ok[None, :])


@triton.jit
def nms_mask_kernel(boxes_ptr, mask_ptr, N, iou_threshold, BLOCK: tl.constexpr):
    # the IoU bit matrix of non-maximum suppression: bit j of word
    # mask[i, j // 64] is set when box j (j > i, boxes sorted by score)
    # overlaps box i by more than the threshold. grid (cdiv(N, BLOCK), cdiv(N, 64))
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    word = tl.program_id(1)
    cols = word * 64 + tl.arange(0, 64)
    r_ok = rows < N
    c_ok = cols < N
    rx1 = tl.load(boxes_ptr + rows * 4 + 0, mask=r_ok, other=0.0)
    ry1 = tl.load(boxes_ptr + rows * 4 + 1, mask=r_ok, other=0.0)
    rx2 = tl.load(boxes_ptr + rows * 4 + 2, mask=r_ok, other=0.0)
    ry2 = tl.load(boxes_ptr + rows * 4 + 3, mask=r_ok, other=0.0)
    cx1 = tl.load(boxes_ptr + cols * 4 + 0, mask=c_ok, other=0.0)
    cy1 = tl.load(boxes_ptr + cols * 4 + 1, mask=c_ok, other=0.0)
    cx2 = tl.load(boxes_ptr + cols * 4 + 2, mask=c_ok, other=0.0)
    cy2 = tl.load(boxes_ptr + cols * 4 + 3, mask=c_ok, other=0.0)
    iw = tl.maximum(tl.minimum(rx2[:, None], cx2[None, :]) - tl.maximum(rx1[:, None], cx1[None, :]), 0.0)
    ih = tl.maximum(tl.minimum(ry2[:, None], cy2[None, :]) - tl.maximum(ry1[:, None], cy1[None, :]), 0.0)
    inter = iw * ih
    area_r = (rx2 - rx1) * (ry2 - ry1)
    area_c = (cx2 - cx1) * (cy2 - cy1)
    iou = inter / (area_r[:, None] + area_c[None, :] - inter)
    hit = (iou > iou_threshold) & (cols[None, :] > rows[:, None]) & c_ok[None, :]
    bit = tl.full((64,), 1, tl.int64) << tl.arange(0, 64).to(tl.int64)
    words = tl.sum(tl.where(hit, bit[None, :], 0), axis=1)
    n_words = tl.cdiv(N, 64)
    tl.store(mask_ptr + rows.to(tl.int64) * n_words + word, words, mask=r_ok)


@triton.jit
def nms_sweep_kernel(mask_ptr, keep_ptr, num_kept_ptr, N, WORDS: tl.constexpr):
    # the greedy pass: boxes in score order, each kept unless a kept box
    # before it suppressed it; the suppressed set is a row of 64-bit words
    # held in registers. One program.
    ws = tl.arange(0, WORDS)
    n_words = tl.cdiv(N, 64)
    removed = tl.zeros((WORDS,), dtype=tl.int64)
    kept = 0
    for i in range(N):
        word = tl.sum(tl.where(ws == i // 64, removed, 0), axis=0)
        if ((word >> (i % 64)) & 1) == 0:
            tl.store(keep_ptr + kept, i)
            kept += 1
            row = tl.load(mask_ptr + i.to(tl.int64) * n_words + ws, mask=ws < n_words, other=0)
            removed = removed | row
    tl.store(num_kept_ptr, kept)


@triton.jit
def _cubic_weights(t, A: tl.constexpr):
    # torch's cubic convolution coefficients for the four taps at -1, 0, 1, 2
    x1 = t + 1.0
    w0 = ((A * x1 - 5.0 * A) * x1 + 8.0 * A) * x1 - 4.0 * A
    w1 = ((A + 2.0) * t - (A + 3.0)) * t * t + 1.0
    x2 = 1.0 - t
    w2 = ((A + 2.0) * x2 - (A + 3.0)) * x2 * x2 + 1.0
    x3 = 2.0 - t
    w3 = ((A * x3 - 5.0 * A) * x3 + 8.0 * A) * x3 - 4.0 * A
    return w0, w1, w2, w3


@triton.jit
def upsample_bicubic2d_kernel(
    x_ptr, y_ptr, H, W, OH, OW, scale_h, scale_w,
    ALIGN_CORNERS: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr,
):
    # F.interpolate(mode="bicubic"): 4x4 taps with indices clamped to the
    # image. grid (cdiv(OW, BLOCK_W), cdiv(OH, BLOCK_H), N*C)
    plane = tl.program_id(2).to(tl.int64)
    oh = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    ow = tl.program_id(0) * BLOCK_W + tl.arange(0, BLOCK_W)
    if ALIGN_CORNERS:
        sy = oh.to(tl.float32) * scale_h
        sx = ow.to(tl.float32) * scale_w
    else:
        sy = scale_h * (oh.to(tl.float32) + 0.5) - 0.5
        sx = scale_w * (ow.to(tl.float32) + 0.5) - 0.5
    fy = tl.floor(sy)
    fx = tl.floor(sx)
    wy = _cubic_weights(sy - fy, -0.75)
    wx = _cubic_weights(sx - fx, -0.75)
    iy = fy.to(tl.int32)
    ix = fx.to(tl.int32)
    base = x_ptr + plane * H * W
    m = (oh < OH)[:, None] & (ow < OW)[None, :]
    acc = tl.zeros((BLOCK_H, BLOCK_W), dtype=tl.float32)
    for i in tl.static_range(4):
        yy = tl.minimum(tl.maximum(iy - 1 + i, 0), H - 1)
        row = tl.zeros((BLOCK_H, BLOCK_W), dtype=tl.float32)
        for j in tl.static_range(4):
            xx = tl.minimum(tl.maximum(ix - 1 + j, 0), W - 1)
            v = tl.load(base + yy[:, None] * W + xx[None, :], mask=m, other=0.0).to(tl.float32)
            row += v * wx[j][None, :]
        acc += row * wy[i][:, None]
    tl.store(y_ptr + plane * OH * OW + oh[:, None] * OW + ow[None, :], acc.to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def adaptive_avg_pool2d_kernel(
    x_ptr, y_ptr, H, W, OH, OW,
    MAX_KH: tl.constexpr, MAX_KW: tl.constexpr, BLOCK: tl.constexpr,
):
    # F.adaptive_avg_pool2d: output (i, j) averages rows floor(i*H/OH) to
    # ceil((i+1)*H/OH), so windows differ in size; loops run over the
    # largest window with masks. grid (cdiv(OH*OW, BLOCK), N*C)
    plane = tl.program_id(1).to(tl.int64)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < OH * OW
    oh = offs // OW
    ow = offs % OW
    h0 = (oh * H) // OH
    h1 = ((oh + 1) * H + OH - 1) // OH
    w0 = (ow * W) // OW
    w1 = ((ow + 1) * W + OW - 1) // OW
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    base = x_ptr + plane * H * W
    for kh in tl.static_range(MAX_KH):
        for kw in tl.static_range(MAX_KW):
            ok = m & (h0 + kh < h1) & (w0 + kw < w1)
            acc += tl.load(base + (h0 + kh) * W + w0 + kw, mask=ok, other=0.0).to(tl.float32)
    area = ((h1 - h0) * (w1 - w0)).to(tl.float32)
    tl.store(y_ptr + plane * OH * OW + offs, (acc / area).to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def _reflect(i, n):
    # F.pad(mode="reflect") indexing: -1 -> 1, n -> n - 2
    i = tl.abs(i)
    return tl.where(i >= n, 2 * (n - 1) - i, i)


@triton.jit
def gaussian_blur_kernel(
    x_ptr, w_ptr, y_ptr, H, W,
    KSIZE: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr,
):
    # torchvision's gaussian_blur: a separable KSIZE x KSIZE kernel over
    # the reflect-padded image, both passes fused (the weights' outer
    # product). grid (cdiv(W, BLOCK_W), cdiv(H, BLOCK_H), N*C)
    plane = tl.program_id(2).to(tl.int64)
    hs = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    ws = tl.program_id(0) * BLOCK_W + tl.arange(0, BLOCK_W)
    m = (hs < H)[:, None] & (ws < W)[None, :]
    R: tl.constexpr = KSIZE // 2
    base = x_ptr + plane * H * W
    acc = tl.zeros((BLOCK_H, BLOCK_W), dtype=tl.float32)
    for i in tl.static_range(KSIZE):
        wi = tl.load(w_ptr + i)
        ri = _reflect(hs + (i - R), H)
        for j in tl.static_range(KSIZE):
            wj = tl.load(w_ptr + j)
            rj = _reflect(ws + (j - R), W)
            acc += wi * wj * tl.load(base + ri[:, None] * W + rj[None, :], mask=m, other=0).to(tl.float32)
    if y_ptr.dtype.element_ty == tl.uint8:
        # torchvision rounds a uint8 image's result back to uint8
        acc = tl.minimum(tl.maximum(tl.extra.cuda.libdevice.rint(acc), 0.0), 255.0)
    tl.store(y_ptr + plane * H * W + hs[:, None] * W + ws[None, :], acc.to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def equalize_kernel(x_ptr, y_ptr, lut_ptr, HW, BLOCK: tl.constexpr):
    # torchvision's equalize on one uint8 plane per program: a histogram
    # built block by block, its cumulative sum turned into a lookup table
    # by integer arithmetic (step = (total - count of the last level) //
    # 255, identity when step is 0), then every pixel mapped through it.
    plane = tl.program_id(0).to(tl.int64)
    src = x_ptr + plane * HW
    hist = tl.zeros((256,), dtype=tl.int32)
    for p0 in range(0, HW, BLOCK):
        offs = p0 + tl.arange(0, BLOCK)
        px = tl.load(src + offs, mask=offs < HW, other=0)
        hist += tl.histogram(px.to(tl.int32), 256, mask=offs < HW)
    levels = tl.arange(0, 256)
    last = tl.max(tl.where(hist != 0, levels, -1), axis=0)
    step = (tl.sum(hist, axis=0) - tl.sum(tl.where(levels == last, hist, 0), axis=0)) // 255
    lut_ = lut_ptr + plane * 256
    if step == 0:
        tl.store(lut_ + levels, levels.to(tl.uint8))
    else:
        # the table is shifted by one level: lut[0] = 0
        lut = (tl.cumsum(hist, axis=0) - hist + step // 2) // step
        tl.store(lut_ + levels, tl.minimum(lut, 255).to(tl.uint8))
    tl.debug_barrier()
    dst = y_ptr + plane * HW
    for p0 in range(0, HW, BLOCK):
        offs = p0 + tl.arange(0, BLOCK)
        px = tl.load(src + offs, mask=offs < HW, other=0)
        tl.store(dst + offs, tl.load(lut_ + px, mask=offs < HW), mask=offs < HW)


@triton.jit
def pixel_shuffle_kernel(x_ptr, y_ptr, C, H, W, R: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    # F.pixel_shuffle: x [N, C*R*R, H, W] -> y [N, C, H*R, W*R], done in
    # registers: an [R, R, BLOCK_H, BLOCK_W] tile permuted to
    # [BLOCK_H, R, BLOCK_W, R] and stored as whole output rows.
    # grid (cdiv(H, BLOCK_H), cdiv(W, BLOCK_W), N*C)
    nc = tl.program_id(2).to(tl.int64)
    h0 = tl.program_id(0) * BLOCK_H
    w0 = tl.program_id(1) * BLOCK_W
    rr = tl.arange(0, R * R)
    hs = h0 + tl.arange(0, BLOCK_H)
    ws = w0 + tl.arange(0, BLOCK_W)
    src = x_ptr + (nc * R * R + rr)[:, None, None] * H * W + hs[None, :, None] * W + ws[None, None, :]
    m = (hs < H)[None, :, None] & (ws < W)[None, None, :]
    v = tl.load(src, mask=m, other=0.0)
    v = tl.reshape(v, (R, R, BLOCK_H, BLOCK_W))
    v = tl.permute(v, (2, 0, 3, 1))
    v = tl.reshape(v, (BLOCK_H * R, BLOCK_W * R))
    oh = h0 * R + tl.arange(0, BLOCK_H * R)
    ow = w0 * R + tl.arange(0, BLOCK_W * R)
    dst = y_ptr + nc * (H * R) * (W * R) + oh[:, None] * (W * R) + ow[None, :]
    tl.store(dst, v, mask=(oh < H * R)[:, None] & (ow < W * R)[None, :])


@triton.jit
def channel_absmax_nhwc_kernel(x_ptr, amax_ptr, M, C, BLOCK_M: tl.constexpr, BLOCK_C: tl.constexpr):
    # per-channel |x| maxima of a channels-last activation (fp8 / int8
    # calibration): each program reduces its rows, then tl.atomic_max
    # merges the partial maxima. grid (cdiv(M, BLOCK_M), cdiv(C, BLOCK_C))
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cs = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    m = (rows < M)[:, None] & (cs < C)[None, :]
    x = tl.load(x_ptr + rows.to(tl.int64)[:, None] * C + cs[None, :], mask=m, other=0.0).to(tl.float32)
    tl.atomic_max(amax_ptr + cs, tl.max(tl.abs(x), axis=0), mask=cs < C)


@triton.jit
def conv2d_int8_nhwc_kernel(
    x_ptr, w_ptr, bias_ptr, w_scale_ptr, y_ptr,
    N, H, W, C, OC, OH, OW, stride, pad, x_scale, y_scale, y_zero_point,
    KSIZE: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    # a quantised convolution: int8 activations (symmetric, x_scale) and
    # int8 weights with one scale per output channel, int32 accumulation
    # through tl.dot over (kh, kw, channel-block) steps, then requantised to
    # uint8 with a zero point (round half to even, saturating).
    # x [N, H, W, C], w [OC, KSIZE, KSIZE, C], y [N, OH, OW, OC]
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    M = N * OH * OW
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    m_ok = offs_m < M
    n_ok = offs_n < OC
    n_img = offs_m // (OH * OW)
    oh = (offs_m // OW) % OH
    ow = offs_m % OW
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for kh in tl.static_range(KSIZE):
        ih = oh * stride - pad + kh
        for kw in tl.static_range(KSIZE):
            iw = ow * stride - pad + kw
            pix_ok = m_ok & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
            x_row = ((n_img * H + ih) * W + iw).to(tl.int64) * C
            for c0 in range(0, C, BLOCK_K):
                ks = c0 + tl.arange(0, BLOCK_K)
                a = tl.load(x_ptr + x_row[:, None] + ks[None, :], mask=pix_ok[:, None] & (ks < C)[None, :], other=0)
                b = tl.load(w_ptr + ((offs_n[None, :] * KSIZE + kh) * KSIZE + kw) * C + ks[:, None],
                            mask=(ks < C)[:, None] & n_ok[None, :], other=0)
                acc += tl.dot(a, b, out_dtype=tl.int32)
    acc += tl.load(bias_ptr + offs_n, mask=n_ok, other=0)[None, :]
    scale = x_scale * tl.load(w_scale_ptr + offs_n, mask=n_ok, other=0.0) / y_scale
    q = tl.extra.cuda.libdevice.rint(acc.to(tl.float32) * scale[None, :]) + y_zero_point
    q = tl.minimum(tl.maximum(q, 0.0), 255.0).to(tl.uint8)
    tl.store(y_ptr + offs_m.to(tl.int64)[:, None] * OC + offs_n[None, :], q, mask=m_ok[:, None] & n_ok[None, :])


@triton.jit
def _welford_combine(mean_l, m2_l, w_l, mean_r, m2_r, w_r):
    w = w_l + w_r
    w_frac = tl.where(w == 0.0, 0.0, w_r / w)
    delta = mean_r - mean_l
    return mean_l + delta * w_frac, m2_l + m2_r + delta * delta * w_l * w_frac, w


@triton.jit
def bn_stats_nhwc_kernel(x_ptr, mean_ptr, m2_ptr, count_ptr, M, C, BLOCK_M: tl.constexpr, BLOCK_C: tl.constexpr):
    # batch-norm training statistics, phase 1: per program a Welford
    # (mean, M2, count) triple per channel over its rows, merged with
    # tl.reduce on a three-tensor tuple; written as partials [programs, C].
    # grid (cdiv(M, BLOCK_M), cdiv(C, BLOCK_C))
    pid_m = tl.program_id(0)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cs = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    m = (rows < M)[:, None] & (cs < C)[None, :]
    x = tl.load(x_ptr + rows.to(tl.int64)[:, None] * C + cs[None, :], mask=m, other=0.0).to(tl.float32)
    w = m.to(tl.float32)
    mean, m2, cnt = tl.reduce((x, tl.zeros_like(x), w), 0, _welford_combine)
    out = pid_m * C + cs
    tl.store(mean_ptr + out, mean, mask=cs < C)
    tl.store(m2_ptr + out, m2, mask=cs < C)
    tl.store(count_ptr + out, cnt, mask=cs < C)


@triton.jit
def bn_finalize_kernel(
    mean_ptr, m2_ptr, count_ptr, run_mean_ptr, run_var_ptr, save_mean_ptr, save_invstd_ptr,
    n_parts, C, momentum, eps, BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr,
):
    # phase 2: the partial triples merged across programs (a loop carrying
    # the Welford state), then torch's running-statistics update (unbiased
    # variance) and the saved mean / inverse std. grid (cdiv(C, BLOCK_C),)
    cs = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    c_ok = cs < C
    acc = (tl.zeros((BLOCK_C,), tl.float32), tl.zeros((BLOCK_C,), tl.float32), tl.zeros((BLOCK_C,), tl.float32))
    for p0 in range(0, n_parts, BLOCK_P):
        ps = p0 + tl.arange(0, BLOCK_P)
        m = (ps < n_parts)[:, None] & c_ok[None, :]
        offs = ps[:, None] * C + cs[None, :]
        part = tl.reduce((tl.load(mean_ptr + offs, mask=m, other=0.0), tl.load(m2_ptr + offs, mask=m, other=0.0),
                          tl.load(count_ptr + offs, mask=m, other=0.0)), 0, _welford_combine)
        acc = _welford_combine(*acc, *part)
    mean, m2, n = acc
    var = m2 / n
    tl.store(save_mean_ptr + cs, mean, mask=c_ok)
    tl.store(save_invstd_ptr + cs, 1.0 / tl.sqrt(var + eps), mask=c_ok)
    rm = tl.load(run_mean_ptr + cs, mask=c_ok)
    rv = tl.load(run_var_ptr + cs, mask=c_ok)
    tl.store(run_mean_ptr + cs, (1 - momentum) * rm + momentum * mean, mask=c_ok)
    tl.store(run_var_ptr + cs, (1 - momentum) * rv + momentum * (m2 / (n - 1)), mask=c_ok)


@triton.jit
def deform_conv2d_kernel(
    x_ptr, offset_ptr, mask_ptr, w_ptr, y_ptr,
    C, H, W, OC, OH, OW, stride, pad,
    KSIZE: tl.constexpr, BLOCK_P: tl.constexpr, BLOCK_OC: tl.constexpr, BLOCK_C: tl.constexpr,
):
    # modulated deformable convolution (DCNv2): every kernel tap samples
    # the input bilinearly at its own learned offset, scaled by a learned
    # mask; the sampled [pixels, channels] tile is built in registers and
    # fed to tl.dot with the tap's weights. x [N, C, H, W], offset
    # [N, 2*K*K, OH, OW] as (dy, dx) pairs, mask [N, K*K, OH, OW],
    # w [OC, C, K, K]. grid (cdiv(OH*OW, BLOCK_P), cdiv(OC, BLOCK_OC), N)
    n = tl.program_id(2)
    ps = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    ocs = tl.program_id(1) * BLOCK_OC + tl.arange(0, BLOCK_OC)
    p_ok = ps < OH * OW
    oc_ok = ocs < OC
    oh = ps // OW
    ow = ps % OW
    x_img = x_ptr + n.to(tl.int64) * C * H * W
    acc = tl.zeros((BLOCK_P, BLOCK_OC), dtype=tl.float32)
    for tap in tl.static_range(KSIZE * KSIZE):
        kh = tap // KSIZE
        kw = tap % KSIZE
        off = offset_ptr + (n * 2 * KSIZE * KSIZE + 2 * tap) * OH * OW + ps
        dy = tl.load(off, mask=p_ok, other=0.0)
        dx = tl.load(off + OH * OW, mask=p_ok, other=0.0)
        mod = tl.load(mask_ptr + (n * KSIZE * KSIZE + tap) * OH * OW + ps, mask=p_ok, other=0.0)
        sy = (oh * stride - pad + kh).to(tl.float32) + dy
        sx = (ow * stride - pad + kw).to(tl.float32) + dx
        y0f = tl.floor(sy)
        x0f = tl.floor(sx)
        ly = sy - y0f
        lx = sx - x0f
        y0 = y0f.to(tl.int32)
        x0 = x0f.to(tl.int32)
        for c0 in range(0, C, BLOCK_C):
            cs = c0 + tl.arange(0, BLOCK_C)
            c_ok = cs < C
            col = tl.zeros((BLOCK_P, BLOCK_C), dtype=tl.float32)
            for corner in tl.static_range(4):
                yy = y0 + corner // 2
                xx = x0 + corner % 2
                wy = ly if corner // 2 == 1 else 1.0 - ly
                wx = lx if corner % 2 == 1 else 1.0 - lx
                ok = p_ok & (yy >= 0) & (yy < H) & (xx >= 0) & (xx < W)
                v = tl.load(x_img + cs[None, :] * (H * W) + (yy * W + xx)[:, None],
                            mask=ok[:, None] & c_ok[None, :], other=0.0).to(tl.float32)
                col += v * (wy * wx)[:, None]
            col = col * mod[:, None]
            wt = tl.load(w_ptr + ((ocs[None, :] * C + cs[:, None]) * KSIZE + kh) * KSIZE + kw,
                         mask=c_ok[:, None] & oc_ok[None, :], other=0.0)
            acc = tl.dot(col.to(wt.dtype), wt, acc)
    y = y_ptr + n.to(tl.int64) * OC * OH * OW + ocs[None, :] * (OH * OW) + ps[:, None]
    tl.store(y, acc.to(y_ptr.dtype.element_ty), mask=p_ok[:, None] & oc_ok[None, :])


@triton.jit
def depthwise_conv3d_kernel(
    x_ptr, w_ptr, y_ptr, C, D, H, W,
    K: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr,
):
    # a depthwise 3-D convolution over video clips [N, C, D, H, W], stride
    # 1 and "same" padding: one program per (n*c, depth) slice and a 2-D
    # tile of it, the K^3 taps unrolled. grid (cdiv(W, BLOCK_W) * cdiv(H, BLOCK_H), D, N*C)
    nc = tl.program_id(2)
    d = tl.program_id(1)
    n_wb = tl.cdiv(W, BLOCK_W)
    hs = (tl.program_id(0) // n_wb) * BLOCK_H + tl.arange(0, BLOCK_H)
    ws = (tl.program_id(0) % n_wb) * BLOCK_W + tl.arange(0, BLOCK_W)
    c = nc % C
    R: tl.constexpr = K // 2
    base = x_ptr + nc.to(tl.int64) * D * H * W
    acc = tl.zeros((BLOCK_H, BLOCK_W), dtype=tl.float32)
    for kd in tl.static_range(K):
        dd = d + kd - R
        for kh in tl.static_range(K):
            hh = hs + kh - R
            for kw in tl.static_range(K):
                ww = ws + kw - R
                ok = (dd >= 0) & (dd < D) & ((hh >= 0) & (hh < H))[:, None] & ((ww >= 0) & (ww < W))[None, :]
                v = tl.load(base + (dd * H + hh[:, None]) * W + ww[None, :], mask=ok, other=0.0)
                acc += v.to(tl.float32) * tl.load(w_ptr + ((c * K + kd) * K + kh) * K + kw).to(tl.float32)
    m = (hs < H)[:, None] & (ws < W)[None, :]
    tl.store(y_ptr + nc.to(tl.int64) * D * H * W + (d * H + hs[:, None]) * W + ws[None, :],
             acc.to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def rgba_to_gray_kernel(px_ptr, gray_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # packed RGBA8888 pixels (one uint32 each, R in the low byte) to
    # BT.601 luma, rounded and saturated to uint8; the alpha is kept and
    # the gray repacked as RGBA with R = G = B = luma.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    px = tl.load(px_ptr + offs, mask=m, other=0)
    r = (px & 0xFF).to(tl.float32)
    g = ((px >> 8) & 0xFF).to(tl.float32)
    b = ((px >> 16) & 0xFF).to(tl.float32)
    a = px >> 24
    luma = tl.extra.cuda.libdevice.rint(0.299 * r + 0.587 * g + 0.114 * b)
    y = tl.minimum(tl.maximum(luma, 0.0), 255.0).to(tl.uint32)
    tl.store(gray_ptr + offs, y.to(tl.uint8), mask=m)
    tl.store(out_ptr + offs, y | (y << 8) | (y << 16) | (a << 24), mask=m)
