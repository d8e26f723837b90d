# RUN: %python %s
# REQUIRES: torch
"""The kernels of tests/kernels/vision_ops.py (convolution, pooling,
resampling and normalisation kernels in the style of torchvision-like
operator libraries), each checked against torch.nn.functional computing the
same operator: direct NCHW convolution with stride, padding, dilation and
groups; depthwise NHWC convolution with a fused activation; an implicit-GEMM
NHWC convolution on tl.dot; max pooling with indices (NaN, -inf windows) and
average pooling (count_include_pad both ways, ceil_mode); bilinear and
nearest upsampling; grid_sample; channels-last group norm and batch norm;
im2col and col2im (F.unfold, F.fold); an integral image; affine warps.
Fresh random inputs, ragged sizes, outputs poisoned first. Only torch
functions make the tensors, so the script runs on CUDA too."""
import math
import os
import sys

import torch
import torch.nn.functional as F

import tritonc as triton

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "Inputs"))
from corpus import load_corpus  # noqa: E402
from torch_checks import close, generators, poison, run_checks, same  # noqa: E402

K = load_corpus("vision_ops")

randn, rand, randint = generators(4321)


def out_size(size, k, stride, pad, dil=1, ceil=False):
    eff = dil * (k - 1) + 1
    if ceil:
        o = -(-(size + 2 * pad - eff) // stride) + 1
        if (o - 1) * stride >= size + pad:   # torch: the last window must start inside the image or left pad
            o -= 1
        return o
    return (size + 2 * pad - eff) // stride + 1


def check_conv2d_nchw():
    cases = (
        # dtype, N, C, H, W, OC, K, stride, pad, dil, groups, bias, BLOCK_OC, BLOCK_P, tol
        (torch.float32, 2, 5, 13, 17, 7, 3, 1, 1, 1, 1, True, 8, 64, 1e-5),
        (torch.float16, 3, 6, 19, 11, 10, 3, 2, 2, 2, 2, False, 16, 32, 2e-3),
        (torch.float32, 2, 12, 9, 14, 12, 5, 1, 2, 1, 12, True, 4, 128, 1e-5),   # depthwise
    )
    for dtype, N, C, H, W, OC, k, s, p, d, g, bias, boc, bp, tol in cases:
        x = randn(N, C, H, W, dtype=dtype)
        w = randn(OC, C // g, k, k, dtype=dtype) * 0.3
        b = randn(OC, dtype=dtype)
        OH, OW = out_size(H, k, s, p, d), out_size(W, k, s, p, d)
        y = poison((N, OC, OH, OW), dtype, x)
        grid = (triton.cdiv(OH * OW, bp), triton.cdiv(OC, boc), N)
        K.conv2d_nchw_kernel[grid](x, w, b, y, C, H, W, OC, OH, OW, s, s, p, p, d, d,
                                   GROUPS=g, KH=k, KW=k, HAS_BIAS=bias, BLOCK_OC=boc, BLOCK_P=bp)
        want = F.conv2d(x.double(), w.double(), b.double() if bias else None, s, p, d, g)
        close(y, want, tol, "conv2d NCHW %s groups=%d" % (dtype, g))


def check_depthwise_nhwc():
    for dtype, N, H, W, C, k, s, p, act, bw, bc, tol in (
            (torch.float16, 2, 15, 21, 24, 3, 1, 1, "relu6", 16, 16, 2e-3),
            (torch.float32, 1, 10, 9, 37, 5, 2, 2, "hardswish", 8, 32, 1e-5)):
        x = randn(N, C, H, W, dtype=dtype).contiguous(memory_format=torch.channels_last)
        w = randn(C, 1, k, k, dtype=dtype) * 0.3
        b = randn(C, dtype=dtype)
        OH, OW = out_size(H, k, s, p), out_size(W, k, s, p)
        y = poison((N, C, OH, OW), dtype, x).contiguous(memory_format=torch.channels_last)
        grid = (N * OH, triton.cdiv(OW, bw), triton.cdiv(C, bc))
        K.depthwise_conv2d_nhwc_kernel[grid](x, w, b, y, H, W, C, OH, OW, s, p,
                                             KSIZE=k, ACT=act, BLOCK_W=bw, BLOCK_C=bc)
        want = F.conv2d(x.double(), w.double(), b.double(), s, p, 1, C)
        want = F.relu6(want) if act == "relu6" else F.hardswish(want)
        close(y, want, tol, "depthwise NHWC %s %s" % (dtype, act))


def check_conv2d_igemm():
    for dtype, N, H, W, C, OC, k, s, p, bm, bn, bk, prec, tol in (
            (torch.float16, 2, 11, 13, 20, 24, 3, 1, 1, 32, 32, 32, "tf32", 2e-3),
            (torch.bfloat16, 3, 16, 9, 8, 40, 5, 2, 2, 64, 32, 16, "tf32", 1e-2),
            (torch.float32, 2, 7, 10, 33, 17, 1, 1, 0, 16, 16, 16, "ieee", 1e-5)):
        x = randn(N, C, H, W, dtype=dtype).contiguous(memory_format=torch.channels_last)
        w = (randn(OC, C, k, k) * (1.0 / math.sqrt(C * k * k))).to(dtype)
        OH, OW = out_size(H, k, s, p), out_size(W, k, s, p)
        y = poison((N, OC, OH, OW), dtype, x).contiguous(memory_format=torch.channels_last)
        w_nhwc = w.permute(0, 2, 3, 1).contiguous()
        grid = (triton.cdiv(N * OH * OW, bm) * triton.cdiv(OC, bn),)
        K.conv2d_nhwc_igemm_kernel[grid](x, w_nhwc, y, N, H, W, C, OC, OH, OW, s, s, p, p,
                                         KH=k, KW=k, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=4,
                                         PRECISION=prec, num_warps=8)
        want = F.conv2d(x.double(), w.double(), None, s, p)
        close(y, want, tol, "implicit-GEMM conv %s k=%d" % (dtype, k))


def check_max_pool():
    for dtype, N, C, H, W, k, s, p, d, block in (
            (torch.float32, 2, 3, 17, 23, 3, 2, 1, 1, 128),
            (torch.float16, 1, 4, 12, 9, 2, 1, 0, 2, 64),
            (torch.bfloat16, 2, 2, 20, 20, 3, 3, 1, 1, 32)):
        x = randint(-6, 7, (N, C, H, W)).to(dtype)      # ties everywhere: the first maximum wins
        x[0, 0, 2, 3] = float("nan")
        x[0, 1, 5, 5] = float("nan")
        x[0, 1, 5, 6] = float("nan")                     # two NaNs in one window: torch keeps the last
        x[-1, -1, :4, :4] = float("-inf")                # all -inf windows
        OH, OW = out_size(H, k, s, p, d), out_size(W, k, s, p, d)
        y = poison((N, C, OH, OW), dtype, x)
        idx = poison((N, C, OH, OW), torch.int64, x)
        # a larger grid than the outputs: the extra programs return early
        K.max_pool2d_with_indices_kernel[(triton.cdiv(OH * OW, block) + 2, N * C)](
            x, y, idx, H, W, OH, OW, s, s, p, p, d, d, KH=k, KW=k, BLOCK=block, num_warps=2)
        want, want_idx = F.max_pool2d(x.float(), k, s, p, d, return_indices=True)
        close(y, want.to(dtype), 0, "max_pool2d %s" % dtype)
        same(idx, want_idx, "max_pool2d indices %s" % dtype)


def check_avg_pool():
    for dtype, N, C, H, W, k, s, p, incl, ceil, bh, bw, tol in (
            (torch.float32, 2, 3, 15, 22, 3, 2, 1, True, False, 8, 16, 1e-6),
            (torch.float32, 1, 5, 14, 11, 4, 3, 2, False, True, 4, 32, 1e-6),
            (torch.float16, 2, 2, 9, 13, 3, 2, 1, True, True, 16, 8, 2e-3)):
        x = randn(N, C, H, W, dtype=dtype)
        OH, OW = out_size(H, k, s, p, ceil=ceil), out_size(W, k, s, p, ceil=ceil)
        y = poison((N, C, OH, OW), dtype, x)
        K.avg_pool2d_kernel[(triton.cdiv(OW, bw), triton.cdiv(OH, bh), N * C)](
            x, y, H, W, OH, OW, s, s, p, p, KH=k, KW=k, COUNT_INCLUDE_PAD=incl, BLOCK_H=bh, BLOCK_W=bw, num_warps=1)
        want = F.avg_pool2d(x.double(), k, s, p, ceil_mode=ceil, count_include_pad=incl)
        close(y, want, tol, "avg_pool2d include_pad=%s ceil=%s" % (incl, ceil))


def check_upsample_bilinear():
    for dtype, N, C, H, W, OH, OW, align, block, tol in (
            (torch.float32, 2, 3, 7, 9, 16, 21, False, 128, 1e-5),
            (torch.float32, 1, 2, 10, 6, 23, 13, True, 64, 1e-5),
            (torch.float16, 2, 2, 9, 12, 5, 7, False, 32, 2e-3)):    # downsampling too
        x = randn(N, C, H, W, dtype=dtype)
        if align:
            sh = (H - 1) / (OH - 1) if OH > 1 else 0.0
            sw = (W - 1) / (OW - 1) if OW > 1 else 0.0
        else:
            sh, sw = H / OH, W / OW
        y = poison((N, C, OH, OW), dtype, x)
        K.upsample_bilinear2d_kernel[(triton.cdiv(OH * OW, block), N * C)](
            x, y, H, W, OH, OW, sh, sw, ALIGN_CORNERS=align, BLOCK=block)
        want = F.interpolate(x.float(), size=(OH, OW), mode="bilinear", align_corners=align)
        close(y, want, tol, "bilinear align_corners=%s %s" % (align, dtype))


def check_upsample_nearest():
    for dtype, N, H, W, C, OH, OW, exact, bp, bc in (
            (torch.uint8, 2, 5, 7, 3, 13, 11, False, 64, 4),
            (torch.float32, 1, 9, 6, 20, 4, 17, True, 32, 8),
            (torch.float16, 2, 8, 8, 5, 24, 20, False, 128, 8)):
        x = randint(0, 256, (N, C, H, W)).to(dtype).contiguous(memory_format=torch.channels_last)
        y = poison((N, C, OH, OW), dtype, x).contiguous(memory_format=torch.channels_last)
        K.upsample_nearest2d_nhwc_kernel[(triton.cdiv(OH * OW, bp), N)](
            x, y, H, W, C, OH, OW, H / OH, W / OW, EXACT=exact, BLOCK_P=bp, BLOCK_C=bc)
        want = F.interpolate(x.float(), size=(OH, OW), mode="nearest-exact" if exact else "nearest").to(dtype)
        same(y.contiguous(), want.contiguous(), "nearest exact=%s %s" % (exact, dtype))


def check_grid_sample():
    for dtype, N, C, H, W, OH, OW, align, pad, bp, bc, tol in (
            (torch.float32, 2, 5, 11, 14, 9, 13, False, "zeros", 32, 4, 1e-5),
            (torch.float32, 1, 3, 8, 7, 10, 10, True, "zeros", 64, 4, 1e-5),
            (torch.float16, 2, 6, 12, 9, 7, 8, False, "border", 16, 8, 3e-3)):
        x = randn(N, C, H, W, dtype=dtype)
        grid = (rand(N, OH, OW, 2) * 2.6 - 1.3).to(dtype)    # some samples fall outside the image
        grid[0, 0, 0] = torch.tensor([-1.0, 1.0])
        y = poison((N, C, OH, OW), dtype, x)
        K.grid_sample_bilinear_kernel[(triton.cdiv(OH * OW, bp), N)](
            x, grid, y, C, H, W, OH, OW, ALIGN_CORNERS=align, PADDING=pad, BLOCK_P=bp, BLOCK_C=bc)
        want = F.grid_sample(x.double(), grid.double(), mode="bilinear", padding_mode=pad, align_corners=align)
        close(y, want, tol, "grid_sample %s align=%s" % (pad, align))


def check_group_norm_nhwc():
    for dtype, N, C, H, W, G, silu, bhw, bcg, tol in (
            (torch.float16, 2, 32, 9, 11, 8, True, 32, 4, 3e-3),
            (torch.float32, 3, 24, 5, 13, 4, False, 16, 8, 1e-5),
            (torch.bfloat16, 1, 40, 16, 16, 5, True, 64, 8, 2e-2)):
        x = (randn(N, C, H, W) * 2 + 0.5).to(dtype).contiguous(memory_format=torch.channels_last)
        w = randn(C, dtype=dtype)
        b = randn(C, dtype=dtype)
        y = poison((N, C, H, W), dtype, x).contiguous(memory_format=torch.channels_last)
        mean = poison((N * G,), torch.float32, x)
        rstd = poison((N * G,), torch.float32, x)
        K.group_norm_nhwc_kernel[(N * G,)](x, w, b, y, mean, rstd, H * W, C, 1e-5,
                                           GROUPS=G, BLOCK_HW=bhw, BLOCK_CG=bcg, APPLY_SILU=silu,
                                           num_warps=8)
        xd = x.double()
        want = F.group_norm(xd, G, w.double(), b.double(), 1e-5)
        if silu:
            want = F.silu(want)
        close(y, want, tol, "group norm NHWC %s" % dtype)
        grp = xd.reshape(N, G, -1)
        close(mean, grp.mean(-1).reshape(-1), 1e-5, "group norm mean")
        close(rstd, (grp.var(-1, unbiased=False) + 1e-5).rsqrt().reshape(-1), 1e-4, "group norm rstd")


def check_batch_norm_nhwc():
    for dtype, N, C, H, W, res, relu, bm, bc, tol in (
            (torch.bfloat16, 2, 45, 7, 9, True, True, 32, 32, 1e-2),
            (torch.float32, 3, 16, 5, 5, False, False, 64, 16, 1e-5)):
        x = randn(N, C, H, W, dtype=dtype).contiguous(memory_format=torch.channels_last)
        r = randn(N, C, H, W, dtype=dtype).contiguous(memory_format=torch.channels_last)
        mean, var = randn(C), rand(C) + 0.2
        w, b = randn(C), randn(C)
        y = poison((N, C, H, W), dtype, x).contiguous(memory_format=torch.channels_last)
        M = N * H * W
        K.batch_norm_nhwc_infer_kernel[(triton.cdiv(M, bm), triton.cdiv(C, bc))](
            x, r, y, mean, var, w, b, M, C, C, C, 1e-5,
            HAS_RESIDUAL=res, RELU=relu, BLOCK_M=bm, BLOCK_C=bc)
        want = F.batch_norm(x.double(), mean.double(), var.double(), w.double(), b.double(), False, 0.0, 1e-5)
        if res:
            want = want + r.double()
        if relu:
            want = F.relu(want)
        close(y, want, tol, "batch norm NHWC %s" % dtype)


def check_im2col_col2im():
    for dtype, N, C, H, W, k, s, p, d, bl, br in (
            (torch.float32, 2, 3, 10, 13, 3, 1, 1, 1, 64, 8),
            (torch.float32, 1, 4, 15, 12, 4, 2, 3, 2, 32, 16)):
        x = randn(N, C, H, W, dtype=dtype)
        OH, OW = out_size(H, k, s, p, d), out_size(W, k, s, p, d)
        L = OH * OW
        cols = poison((N, C * k * k, L), dtype, x)
        K.im2col_kernel[(triton.cdiv(L, bl), C * k * k, N)](x, cols, C, H, W, OH, OW, s, p, d,
                                                             KH=k, KW=k, BLOCK_L=bl)
        same(cols, F.unfold(x, k, d, p, s), "im2col k=%d s=%d p=%d d=%d" % (k, s, p, d))
        g = randn(N, C * k * k, L, dtype=dtype)
        img = torch.zeros(N, C, H, W, dtype=dtype, device=x.device)
        K.col2im_kernel[(triton.cdiv(L, bl), triton.cdiv(C * k * k, br), N)](
            g, img, C, H, W, OH, OW, s, p, d, KH=k, KW=k, BLOCK_R=br, BLOCK_L=bl)
        close(img, F.fold(g.double(), (H, W), k, d, p, s), 1e-5, "col2im k=%d s=%d" % (k, s))


def check_integral_image():
    for xdtype, ydtype, P, H, W, bh, bw in (
            (torch.uint8, torch.int32, 3, 37, 50, 8, 64),
            (torch.float32, torch.float32, 2, 20, 16, 16, 16),
            (torch.int32, torch.int64, 1, 5, 100, 4, 128)):
        if xdtype == torch.uint8:
            x = randint(0, 256, (P, H, W)).to(xdtype)
        elif xdtype == torch.int32:
            x = randint(-2 ** 30, 2 ** 30, (P, H, W)).to(xdtype)
        else:
            x = randn(P, H, W)
        # a padded row pitch on both sides
        xs = torch.zeros(P, H, W + 3, dtype=xdtype, device=x.device)[:, :, :W]
        xs.copy_(x)
        ys = poison((P, H, W + 5), ydtype, x)[:, :, :W]
        K.integral_image_kernel[(P,)](xs, ys, H, W, W + 3, W + 5, BLOCK_H=bh, BLOCK_W=bw, num_warps=8)
        want = x.to(torch.float64 if ydtype.is_floating_point else torch.int64).cumsum(1).cumsum(2)
        if ydtype.is_floating_point:
            close(ys, want, 1e-5, "integral image fp32")
        else:
            same(ys.to(torch.int64), want.to(ydtype).to(torch.int64), "integral image %s" % xdtype)


def check_warp_affine():
    for dtype, N, C, H, W, OH, OW, nearest, bh, bw, tol in (
            (torch.float32, 2, 3, 17, 23, 19, 21, False, 8, 16, 1e-4),
            (torch.float32, 3, 1, 12, 12, 16, 9, True, 16, 8, 0),
            (torch.float16, 1, 2, 9, 31, 10, 30, False, 4, 32, 3e-3)):
        x = randn(N, C, H, W, dtype=dtype)
        ang = rand(N) * 1.2 - 0.6
        sc = rand(N) * 0.6 + 0.8
        mats = torch.stack([sc * torch.cos(ang), -sc * torch.sin(ang), rand(N) * 6 - 3,
                            sc * torch.sin(ang), sc * torch.cos(ang), rand(N) * 6 - 3], 1).float().contiguous()
        fill = -2.5
        y = poison((N, C, OH, OW), dtype, x)
        K.warp_affine_kernel[(triton.cdiv(OW, bw), triton.cdiv(OH, bh), N)](
            x, mats, y, H, W, OH, OW, fill, C=C, NEAREST=nearest, BLOCK_H=bh, BLOCK_W=bw)
        # the reference: the same map in float32, gathered by torch
        ys_, xs_ = torch.meshgrid(torch.arange(OH, device=x.device).float(),
                                  torch.arange(OW, device=x.device).float(), indexing="ij")
        m = mats.view(N, 6, 1, 1)
        sx = m[:, 0] * xs_ + m[:, 1] * ys_ + m[:, 2]
        sy = m[:, 3] * xs_ + m[:, 4] * ys_ + m[:, 5]
        xf = x.double()

        def tap(iy, ix):
            ok = (iy >= 0) & (iy < H) & (ix >= 0) & (ix < W)
            flat = (iy.clamp(0, H - 1) * W + ix.clamp(0, W - 1)).long()
            v = torch.gather(xf.reshape(N, C, H * W), 2, flat.reshape(N, 1, -1).expand(N, C, -1)).reshape(N, C, OH, OW)
            return torch.where(ok[:, None], v, torch.full_like(v, fill))
        if nearest:
            want = tap(torch.floor(sy + 0.5), torch.floor(sx + 0.5))
        else:
            x0, y0 = torch.floor(sx), torch.floor(sy)
            fx, fy = (sx - x0).double()[:, None], (sy - y0).double()[:, None]
            want = (tap(y0, x0) * (1 - fx) * (1 - fy) + tap(y0, x0 + 1) * fx * (1 - fy)
                    + tap(y0 + 1, x0) * (1 - fx) * fy + tap(y0 + 1, x0 + 1) * fx * fy)
        close(y, want, tol, "warp affine nearest=%s %s" % (nearest, dtype))


def roi_align_ref(x, rois, PH, PW, scale, sr, aligned):
    """torchvision.ops.roi_align, written out (torchvision is not a dependency)."""
    N, C, H, W = x.shape
    out = torch.zeros(rois.shape[0], C, PH, PW, dtype=torch.float64, device=x.device)
    xd = x.double()
    for r in range(rois.shape[0]):
        b = int(rois[r, 0])
        off = 0.5 if aligned else 0.0
        x1, y1, x2, y2 = [float(v) * scale - off for v in rois[r, 1:]]
        rw, rh = x2 - x1, y2 - y1
        if not aligned:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        bh, bw = rh / PH, rw / PW
        gh = sr if sr > 0 else math.ceil(rh / PH)
        gw = sr if sr > 0 else math.ceil(rw / PW)
        cnt = max(gh * gw, 1)
        for ph in range(PH):
            for pw in range(PW):
                acc = torch.zeros(C, dtype=torch.float64, device=x.device)
                for iy in range(gh):
                    y = y1 + ph * bh + (iy + 0.5) * bh / gh
                    for ix in range(gw):
                        xx = x1 + pw * bw + (ix + 0.5) * bw / gw
                        if y < -1.0 or y > H or xx < -1.0 or xx > W:
                            continue
                        yy, xc = max(y, 0.0), max(xx, 0.0)
                        yl, xl = int(yy), int(xc)
                        if yl >= H - 1:
                            yh = yl = H - 1
                            yy = float(yl)
                        else:
                            yh = yl + 1
                        if xl >= W - 1:
                            xh = xl = W - 1
                            xc = float(xl)
                        else:
                            xh = xl + 1
                        ly, lx = yy - yl, xc - xl
                        hy, hx = 1 - ly, 1 - lx
                        acc += (hy * hx * xd[b, :, yl, xl] + hy * lx * xd[b, :, yl, xh]
                                + ly * hx * xd[b, :, yh, xl] + ly * lx * xd[b, :, yh, xh])
                out[r, :, ph, pw] = acc / cnt
    return out


def check_roi_align():
    for dtype, C, H, W, PH, PW, scale, sr, aligned, bc, tol in (
            (torch.float32, 5, 20, 24, 4, 4, 0.5, 0, True, 8, 1e-4),
            (torch.float32, 20, 13, 17, 2, 8, 0.25, 2, False, 16, 1e-4),
            (torch.float16, 3, 16, 16, 7, 7, 1.0, 0, False, 4, 3e-3)):
        x = randn(2, C, H, W, dtype=dtype)
        K_ = 6
        xy1 = rand(K_, 2) * torch.tensor([W / scale, H / scale]) * 0.8 - 2
        wh = rand(K_, 2) * torch.tensor([W / scale, H / scale]) * 0.6 + 0.3
        rois = torch.cat([randint(0, 2, (K_, 1)).float(), xy1, xy1 + wh], 1).contiguous()
        rois[0, 1:] = torch.tensor([-30.0, -30.0, -10.0, -12.0])     # entirely outside: zeros
        rois[1, 1:] = torch.tensor([3.0, 2.0, 3.2, 2.1])             # smaller than a pixel
        y = poison((K_, C, PH, PW), dtype, x)
        K.roi_align_kernel[(K_, triton.cdiv(C, bc))](x, rois, y, C, H, W, scale, sr, PH=PH, PW=PW,
                                                     ALIGNED=aligned, BLOCK_C=bc,
                                                     BLOCK_P=triton.next_power_of_2(PH * PW), num_warps=2)
        close(y, roi_align_ref(x, rois, PH, PW, scale, sr, aligned), tol, "roi_align %s aligned=%s" % (dtype, aligned))


def nms_ref(boxes, thr):
    keep = []
    removed = [False] * boxes.shape[0]
    b = boxes.double()
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    for i in range(boxes.shape[0]):
        if removed[i]:
            continue
        keep.append(i)
        iw = (torch.minimum(b[i, 2], b[:, 2]) - torch.maximum(b[i, 0], b[:, 0])).clamp(min=0)
        ih = (torch.minimum(b[i, 3], b[:, 3]) - torch.maximum(b[i, 1], b[:, 1])).clamp(min=0)
        inter = iw * ih
        iou = inter / (area[i] + area - inter)
        for j in range(i + 1, boxes.shape[0]):
            if iou[j] > thr:
                removed[j] = True
    return keep


def check_nms():
    for N, thr, block in ((300, 0.5, 32), (64, 0.3, 16), (7, 0.7, 8), (130, 0.45, 64)):
        xy = rand(N, 2) * 100
        wh = rand(N, 2) * 30 + 1
        boxes = torch.cat([xy, xy + wh], 1)
        scores = rand(N)
        boxes = boxes[scores.argsort(descending=True)].contiguous()
        words = triton.cdiv(N, 64)
        mask = poison((N, words), torch.int64, boxes)
        K.nms_mask_kernel[(triton.cdiv(N, block), words)](boxes, mask, N, thr, BLOCK=block)
        # the bits against the pairwise IoU
        b = boxes.double()
        area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
        iw = (torch.minimum(b[:, None, 2], b[None, :, 2]) - torch.maximum(b[:, None, 0], b[None, :, 0])).clamp(min=0)
        ih = (torch.minimum(b[:, None, 3], b[None, :, 3]) - torch.maximum(b[:, None, 1], b[None, :, 1])).clamp(min=0)
        iou = iw * ih / (area[:, None] + area[None, :] - iw * ih)
        j = torch.arange(N, device=boxes.device)
        hit = (iou > thr) & (j[None, :] > j[:, None])
        bits = (mask[:, j // 64] >> (j % 64)[None, :]) & 1
        same(bits.bool(), hit, "nms mask bits N=%d" % N)
        keep = poison((N,), torch.int32, boxes)
        nk = poison((1,), torch.int32, boxes)
        wp = 1 << (words - 1).bit_length()
        K.nms_sweep_kernel[(1,)](mask, keep, nk, N, WORDS=max(wp, 1), num_warps=1)
        want = nms_ref(boxes, thr)
        same(nk, torch.tensor([len(want)], dtype=torch.int32, device=boxes.device), "nms kept count N=%d" % N)
        same(keep[:len(want)], torch.tensor(want, dtype=torch.int32, device=boxes.device), "nms kept boxes N=%d" % N)


def check_upsample_bicubic():
    for dtype, N, C, H, W, OH, OW, align, bh, bw, tol in (
            (torch.float32, 2, 3, 7, 9, 15, 20, False, 8, 16, 1e-5),
            (torch.float32, 1, 2, 11, 6, 5, 13, True, 4, 32, 1e-5),
            (torch.float16, 1, 3, 8, 8, 19, 17, False, 16, 8, 3e-3)):
        x = randn(N, C, H, W, dtype=dtype)
        if align:
            sh, sw = (H - 1) / (OH - 1), (W - 1) / (OW - 1)
        else:
            sh, sw = H / OH, W / OW
        y = poison((N, C, OH, OW), dtype, x)
        K.upsample_bicubic2d_kernel[(triton.cdiv(OW, bw), triton.cdiv(OH, bh), N * C)](
            x, y, H, W, OH, OW, sh, sw, ALIGN_CORNERS=align, BLOCK_H=bh, BLOCK_W=bw)
        want = F.interpolate(x.float(), size=(OH, OW), mode="bicubic", align_corners=align)
        close(y, want, tol, "bicubic align_corners=%s %s" % (align, dtype))


def check_adaptive_avg_pool():
    for dtype, N, C, H, W, OH, OW, block, tol in (
            (torch.float32, 2, 3, 17, 23, 5, 7, 32, 1e-6),
            (torch.float32, 1, 4, 7, 7, 3, 3, 16, 1e-6),
            (torch.bfloat16, 2, 2, 10, 31, 4, 6, 64, 1e-2)):
        x = randn(N, C, H, W, dtype=dtype)
        mkh = max(-(-((i + 1) * H) // OH) - (i * H) // OH for i in range(OH))
        mkw = max(-(-((j + 1) * W) // OW) - (j * W) // OW for j in range(OW))
        y = poison((N, C, OH, OW), dtype, x)
        K.adaptive_avg_pool2d_kernel[(triton.cdiv(OH * OW, block), N * C)](
            x, y, H, W, OH, OW, MAX_KH=mkh, MAX_KW=mkw, BLOCK=block)
        close(y, F.adaptive_avg_pool2d(x.double(), (OH, OW)), tol, "adaptive avg pool %dx%d" % (OH, OW))


def check_gaussian_blur():
    for dtype, N, C, H, W, ks, sigma, bh, bw in (
            (torch.float32, 2, 3, 19, 23, 5, 1.2, 8, 16),
            (torch.uint8, 1, 3, 16, 33, 3, 0.8, 16, 16),
            (torch.float16, 1, 2, 9, 12, 7, 2.0, 4, 32)):
        if dtype == torch.uint8:
            x = randint(0, 256, (N, C, H, W)).to(dtype)
        else:
            x = randn(N, C, H, W, dtype=dtype)
        r = ks // 2
        k1 = torch.exp(-0.5 * (torch.arange(ks, dtype=torch.float32) - r) ** 2 / sigma ** 2)
        k1 = (k1 / k1.sum()).contiguous()
        y = poison((N, C, H, W), dtype, x)
        K.gaussian_blur_kernel[(triton.cdiv(W, bw), triton.cdiv(H, bh), N * C)](x, k1, y, H, W, KSIZE=ks,
                                                                               BLOCK_H=bh, BLOCK_W=bw)
        xp = F.pad(x.double(), (r, r, r, r), mode="reflect")
        k2 = (k1.double()[:, None] * k1.double()[None, :]).expand(C, 1, ks, ks)
        want = F.conv2d(xp, k2, groups=C)
        if dtype == torch.uint8:
            diff = (y.int() - torch.round(want).int()).abs()
            assert diff.max().item() <= 1 and (diff > 0).float().mean().item() < 0.01, \
                "gaussian blur uint8: %d values off" % int((diff > 0).sum())
        else:
            close(y, want, 1e-5 if dtype == torch.float32 else 2e-3, "gaussian blur %s k=%d" % (dtype, ks))


def check_equalize():
    for P, H, W, block in ((3, 37, 41, 256), (2, 8, 8, 64), (1, 100, 130, 1024)):
        x = (randn(P, H, W) * 30 + 100).clamp(0, 255).to(torch.uint8)
        x[0] = 17                                              # one level only: step 0, the identity
        if P > 1:
            x[1, :, :] = torch.where(rand(H, W) < 0.5, 3, 250).to(torch.uint8)   # two levels
        y = poison((P, H, W), torch.uint8, x)
        lut = poison((P, 256), torch.uint8, x)
        K.equalize_kernel[(P,)](x, y, lut, H * W, BLOCK=block, num_warps=8)
        for p in range(P):
            hist = torch.bincount(x[p].reshape(-1).long(), minlength=256)
            nz = hist[hist != 0]
            step = torch.div(nz[:-1].sum(), 255, rounding_mode="floor")
            if step == 0:
                want = x[p]
            else:
                lt = torch.div(torch.cumsum(hist, 0) + torch.div(step, 2, rounding_mode="floor"), step,
                               rounding_mode="floor")
                lt = F.pad(lt, [1, 0])[:-1].clamp(0, 255)
                want = lt[x[p].long()].to(torch.uint8)
            same(y[p], want, "equalize plane %d" % p)


def check_pixel_shuffle():
    for dtype, N, C, H, W, R, bh, bw in ((torch.float32, 2, 3, 7, 9, 2, 4, 8), (torch.float16, 1, 2, 5, 16, 4, 8, 4),
                                         (torch.int32, 1, 4, 3, 3, 2, 2, 2)):
        x = randint(-1000, 1000, (N, C * R * R, H, W)).to(dtype)
        y = poison((N, C, H * R, W * R), dtype, x)
        K.pixel_shuffle_kernel[(triton.cdiv(H, bh), triton.cdiv(W, bw), N * C)](x, y, C, H, W, R=R, BLOCK_H=bh,
                                                                              BLOCK_W=bw)
        same(y, F.pixel_shuffle(x, R), "pixel_shuffle r=%d %s" % (R, dtype))


def check_channel_absmax():
    for dtype, M, C, bm, bc in ((torch.bfloat16, 1000, 45, 64, 32), (torch.float32, 37, 300, 16, 128)):
        x = randn(M, C, dtype=dtype) * 3
        x[5, 7] = -50.0          # the largest magnitude is negative
        amax = torch.zeros(C, device=x.device)
        K.channel_absmax_nhwc_kernel[(triton.cdiv(M, bm), triton.cdiv(C, bc))](x, amax, M, C, BLOCK_M=bm, BLOCK_C=bc)
        same(amax, x.float().abs().amax(0), "channel absmax %s" % dtype)


def check_conv2d_int8():
    for N, H, W, C, OC, k, s, p, bm, bn, bk in ((2, 9, 11, 40, 24, 3, 1, 1, 32, 16, 32), (1, 12, 7, 16, 50, 1, 2, 0, 16, 64, 32)):
        x = randint(-128, 128, (N, H, W, C)).to(torch.int8)
        w = randint(-128, 128, (OC, k, k, C)).to(torch.int8)
        bias = randint(-5000, 5000, (OC,)).to(torch.int32)
        w_scale = rand(OC) * 0.01 + 0.001
        x_scale, y_scale, zp = 0.02, 0.5, 128.0
        OH, OW = (H + 2 * p - k) // s + 1, (W + 2 * p - k) // s + 1
        y = poison((N, OH, OW, OC), torch.uint8, x)
        K.conv2d_int8_nhwc_kernel[(triton.cdiv(N * OH * OW, bm), triton.cdiv(OC, bn))](
            x, w, bias, w_scale, y, N, H, W, C, OC, OH, OW, s, p, x_scale, y_scale, zp,
            KSIZE=k, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
        acc = F.conv2d(x.permute(0, 3, 1, 2).double(), w.permute(0, 3, 1, 2).double(), None, s, p)
        acc = acc.permute(0, 2, 3, 1) + bias.double()          # exact: int32 sums of int8 products
        sc = (x_scale * w_scale.float() / y_scale).float()      # the kernel's float32 scale
        want = (torch.round(acc.float() * sc) + zp).clamp(0, 255).to(torch.uint8)
        same(y, want, "int8 conv k=%d s=%d" % (k, s))


def check_bn_training_stats():
    for dtype, N, C, H, W, bm, bc, bp in ((torch.float32, 4, 40, 9, 11, 64, 16, 4), (torch.bfloat16, 2, 7, 30, 30, 128, 8, 8),
                                          (torch.float16, 1, 100, 3, 5, 8, 64, 16)):
        x = (randn(N, C, H, W) * 3 + 5).to(dtype).contiguous(memory_format=torch.channels_last)
        M = N * H * W
        parts = triton.cdiv(M, bm)
        pm, pv, pc = (poison((parts, C), torch.float32, x) for _ in range(3))
        K.bn_stats_nhwc_kernel[(parts, triton.cdiv(C, bc))](x, pm, pv, pc, M, C, BLOCK_M=bm, BLOCK_C=bc)
        rm, rv = randn(C), rand(C) + 0.5
        rm_t, rv_t = rm.clone(), rv.clone()
        sm, si = poison((C,), torch.float32, x), poison((C,), torch.float32, x)
        K.bn_finalize_kernel[(triton.cdiv(C, bc),)](pm, pv, pc, rm_t, rv_t, sm, si, parts, C, 0.1, 1e-5,
                                                    BLOCK_P=bp, BLOCK_C=bc)
        xd = x.double()
        rmd, rvd = rm.double(), rv.double()
        F.batch_norm(xd, rmd, rvd, None, None, True, 0.1, 1e-5)
        mean = xd.mean((0, 2, 3))
        var = xd.var((0, 2, 3), unbiased=False)
        close(sm, mean, 1e-5, "bn save_mean %s" % dtype)
        close(si, (var + 1e-5).rsqrt(), 1e-5, "bn save_invstd %s" % dtype)
        close(rm_t, rmd, 1e-5, "bn running_mean %s" % dtype)
        close(rv_t, rvd, 1e-5, "bn running_var %s" % dtype)


def deform_conv_ref(x, offset, mask, w, stride, pad):
    """DCNv2 written out with grid_sample-free gathers (float64)."""
    N, C, H, W = x.shape
    OC, _, Kk, _ = w.shape
    OH, OW = offset.shape[2], offset.shape[3]
    xd = x.double()
    cols = torch.zeros(N, C, Kk * Kk, OH, OW, dtype=torch.float64, device=x.device)
    oh = torch.arange(OH, device=x.device).view(OH, 1).double()
    ow = torch.arange(OW, device=x.device).view(1, OW).double()
    for tap in range(Kk * Kk):
        kh, kw = divmod(tap, Kk)
        sy = oh * stride - pad + kh + offset[:, 2 * tap].double()
        sx = ow * stride - pad + kw + offset[:, 2 * tap + 1].double()
        y0, x0 = torch.floor(sy), torch.floor(sx)
        ly, lx = sy - y0, sx - x0
        acc = torch.zeros(N, C, OH, OW, dtype=torch.float64, device=x.device)
        for dy, dx, wgt in ((0, 0, (1 - ly) * (1 - lx)), (0, 1, (1 - ly) * lx), (1, 0, ly * (1 - lx)), (1, 1, ly * lx)):
            yy, xx = (y0 + dy).long(), (x0 + dx).long()
            ok = (yy >= 0) & (yy < H) & (xx >= 0) & (xx < W)
            flat = (yy.clamp(0, H - 1) * W + xx.clamp(0, W - 1)).view(N, 1, -1).expand(N, C, -1)
            v = torch.gather(xd.view(N, C, -1), 2, flat).view(N, C, OH, OW)
            acc += torch.where(ok[:, None], v, torch.zeros_like(v)) * wgt[:, None]
        cols[:, :, tap] = acc * mask[:, tap, None].double()
    return torch.einsum("nckhw,ock->nohw", cols, w.double().reshape(OC, C, Kk * Kk))


def check_deform_conv2d():
    for dtype, N, C, H, W, OC, k, s, p, bp, boc, bc, tol in (
            (torch.float32, 2, 5, 9, 11, 20, 3, 1, 1, 32, 16, 16, 1e-4),
            (torch.float16, 1, 20, 12, 10, 16, 3, 2, 1, 16, 16, 16, 5e-3)):
        x = randn(N, C, H, W, dtype=dtype)
        OH, OW = out_size(H, k, s, p), out_size(W, k, s, p)
        offset = randn(N, 2 * k * k, OH, OW) * 1.5
        mask = torch.sigmoid(randn(N, k * k, OH, OW))
        w = (randn(OC, C, k, k) * 0.2).to(dtype)
        y = poison((N, OC, OH, OW), dtype, x)
        K.deform_conv2d_kernel[(triton.cdiv(OH * OW, bp), triton.cdiv(OC, boc), N)](
            x, offset, mask, w, y, C, H, W, OC, OH, OW, s, p, KSIZE=k, BLOCK_P=bp, BLOCK_OC=boc, BLOCK_C=bc)
        want = deform_conv_ref(x, offset, mask, w, s, p)
        close(y, want, tol if dtype != torch.float32 or x.device.type != "cuda" else 1e-2, "deform conv %s" % dtype)
        # with zero offsets and unit masks it is an ordinary convolution
        y0 = poison((N, OC, OH, OW), dtype, x)
        K.deform_conv2d_kernel[(triton.cdiv(OH * OW, bp), triton.cdiv(OC, boc), N)](
            x, torch.zeros_like(offset), torch.ones_like(mask), w, y0, C, H, W, OC, OH, OW, s, p, KSIZE=k,
            BLOCK_P=bp, BLOCK_OC=boc, BLOCK_C=bc)
        close(y0, F.conv2d(x.double(), w.double(), None, s, p), tol if dtype != torch.float32 or x.device.type != "cuda"
              else 1e-2, "deform conv without offsets %s" % dtype)


def check_depthwise_conv3d():
    for dtype, N, C, D, H, W, k, bh, bw, tol in ((torch.float32, 2, 3, 5, 9, 11, 3, 8, 8, 1e-5),
                                                 (torch.float16, 1, 2, 4, 7, 20, 3, 4, 16, 2e-3)):
        x = randn(N, C, D, H, W, dtype=dtype)
        w = (randn(C, 1, k, k, k) * 0.2).to(dtype)
        y = poison((N, C, D, H, W), dtype, x)
        K.depthwise_conv3d_kernel[(triton.cdiv(W, bw) * triton.cdiv(H, bh), D, N * C)](
            x, w, y, C, D, H, W, K=k, BLOCK_H=bh, BLOCK_W=bw)
        close(y, F.conv3d(x.double(), w.double(), None, 1, k // 2, 1, C), tol, "depthwise conv3d %s" % dtype)


def check_rgba_to_gray():
    for n, block in ((1000, 256), (17, 32)):
        rgba = randint(0, 256, (n, 4)).to(torch.uint8)
        rgba[0] = torch.tensor([255, 255, 255, 255], dtype=torch.uint8)
        packed = rgba.view(torch.int32).view(-1)
        gray = poison((n,), torch.uint8, rgba)
        out = poison((n,), torch.int32, rgba)
        K.rgba_to_gray_kernel[(triton.cdiv(n, block),)](packed, gray, out, n, BLOCK=block)
        f = rgba.float()
        want = torch.round(0.299 * f[:, 0] + 0.587 * f[:, 1] + 0.114 * f[:, 2]).clamp(0, 255).to(torch.uint8)
        # the weighted sum in float32 either way: allow a rounding flip at .5
        assert (gray.int() - want.int()).abs().max().item() <= 1, "gray"
        same(out.view(torch.uint8).view(n, 4)[:, :3], gray[:, None].expand(n, 3), "repacked gray")
        same(out.view(torch.uint8).view(n, 4)[:, 3], rgba[:, 3], "alpha kept")


run_checks(globals(), "vision_ops")
