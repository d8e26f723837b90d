# KERNEL: triton_per_fused_argmax_amax_0
# SIGNATURE: *fp32:16,*fp32:16,*i64:16,i32,i32
# CONSTEXPR: XBLOCK=8
# GRID: cdiv(xnumel, XBLOCK)
#
# KERNEL: triton_per_fused_argmax_amax_0
# SIGNATURE: *bf16:16,*fp32:16,*i64:16,i32,i32:16
# CONSTEXPR: XBLOCK=1
# GRID: xnumel
#
# KERNEL: triton_red_fused_native_layer_norm_1
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32
# CONSTEXPR: XBLOCK=2, RBLOCK=64
# GRID: cdiv(xnumel, XBLOCK)
#
# KERNEL: triton_red_fused_native_layer_norm_1
# SIGNATURE: *fp32:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,i32,i32:16
# CONSTEXPR: XBLOCK=1, RBLOCK=256
# GRID: xnumel
#
# KERNEL: triton_red_fused__softmax_2
# SIGNATURE: *fp16:16,*fp16:16,i32,i32
# CONSTEXPR: XBLOCK=4, R0_BLOCK=32
# GRID: cdiv(xnumel, XBLOCK)
#
# KERNEL: triton_red_fused__softmax_2
# SIGNATURE: *fp32:16,*bf16:16,i32,i32:16
# CONSTEXPR: XBLOCK=1, R0_BLOCK=1024
# GRID: xnumel
#
# KERNEL: triton_per_fused_cummax_3
# SIGNATURE: *fp32:16,*fp32:16,*i64:16,i32,i32
# CONSTEXPR: XBLOCK=4, RBLOCK=64, REVERSE=False
# GRID: cdiv(xnumel, XBLOCK)
#
# KERNEL: triton_per_fused_cummax_3
# SIGNATURE: *fp16:16,*fp16:16,*i64:16,i32,i32
# CONSTEXPR: XBLOCK=2, RBLOCK=128, REVERSE=True
# GRID: cdiv(xnumel, XBLOCK)
#
# KERNEL: triton_poi_fused_embedding_gelu_4
# SIGNATURE: *i32:16,*fp32:16,*fp32:16,i64,i64
# CONSTEXPR: XBLOCK=256
# GRID: cdiv(xnumel, XBLOCK)
#
# KERNEL: triton_poi_fused_embedding_gelu_4
# SIGNATURE: *i64:16,*bf16:16,*fp32:16,i32,i32
# CONSTEXPR: XBLOCK=128
# GRID: cdiv(xnumel, XBLOCK)
#
# KERNEL: triton_tem_fused_mm_5
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32:16
# CONSTEXPR: ALLOW_TF32=False, ACC_TYPE=tl.float32, EVEN_K=True, GROUP_M=8, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32
# GRID: cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)
#
# KERNEL: triton_tem_fused_mm_5
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32
# CONSTEXPR: ALLOW_TF32=True, ACC_TYPE=tl.float32, EVEN_K=False, GROUP_M=4, BLOCK_M=32, BLOCK_N=32, BLOCK_K=16
# GRID: cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)
#
# KERNEL: jagged_softmax_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i32:16,i32
# CONSTEXPR: BLOCK_T=16, BLOCK_D=32
# GRID: B, cdiv(D, BLOCK_D)
#
# KERNEL: jagged_softmax_kernel
# SIGNATURE: *bf16:16,*bf16:16,*i64:16,i32:16
# CONSTEXPR: BLOCK_T=64, BLOCK_D=64
# GRID: B, cdiv(D, BLOCK_D)
#
# KERNEL: jagged_dense_bmm_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*i32:16,i32,i32,i32,i32
# CONSTEXPR: BLOCK_M=32, BLOCK_N=32, BLOCK_K=32
# GRID: cdiv(MAX_T, BLOCK_M), B, cdiv(N, BLOCK_N)
#
# KERNEL: jagged_dense_bmm_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*i32:16,i32:16,i32:16,i32:16,i32:16
# CONSTEXPR: BLOCK_M=16, BLOCK_N=64, BLOCK_K=16
# GRID: cdiv(MAX_T, BLOCK_M), B, cdiv(N, BLOCK_N)
#
# KERNEL: linked_list_sum_kernel
# SIGNATURE: *i32:16,*i32:16,*fp32:16,*fp32:16,*i32:16
# CONSTEXPR:
# GRID: L
#
# KERNEL: bitonic_sort_rows_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: DESCENDING=False, PAD=3.0e38, BLOCK=128
# GRID: R
#
# KERNEL: bitonic_sort_rows_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32
# CONSTEXPR: DESCENDING=True, PAD=60000.0, BLOCK=64
# GRID: R
#
# KERNEL: bitonic_sort_rows_kernel
# SIGNATURE: *i32:16,*i32:16,i32
# CONSTEXPR: DESCENDING=True, PAD=2147483647, BLOCK=32
# GRID: R
#
# KERNEL: suffix_scan_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i64:16,*fp32:16,i32,i32
# CONSTEXPR: BLOCK_T=32, BLOCK_D=16
# GRID: 1
#
# KERNEL: bool_scan_kernel
# SIGNATURE: *i8:16,*i32:16,*i32:16,*i32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: 1
#
# KERNEL: complex_interleave_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: N=16, BLOCK_R=4
# GRID: cdiv(n_rows, BLOCK_R)
#
# KERNEL: complex_interleave_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,i32
# CONSTEXPR: N=8, BLOCK_R=16
# GRID: cdiv(n_rows, BLOCK_R)
#
# KERNEL: gather_flip_axis0_kernel
# SIGNATURE: *fp32:16,*i32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: C=16, BLOCK_R=32, BLOCK_I=64
# GRID: 1
#
# KERNEL: gather_flip_axis0_kernel
# SIGNATURE: *i16:16,*i32:16,*i16:16,*i16:16,i32
# CONSTEXPR: C=4, BLOCK_R=8, BLOCK_I=8
# GRID: 1
#
# KERNEL: reorder_reduce_kernel
# SIGNATURE: *fp32:16,*fp32:16
# CONSTEXPR: A=8, B=32
# GRID: 1
#
# KERNEL: batched_dot_permute_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16
# CONSTEXPR: BH=2, M=16, N=32, D=16, PRECISION="ieee"
# GRID: BATCH // BH
#
# KERNEL: batched_dot_permute_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: BH=4, M=16, N=16, D=32, PRECISION="tf32"
# GRID: BATCH // BH
#
# KERNEL: fp8_mixed_dot_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,fp32,i32,i32,i32
# CONSTEXPR: BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, A_TYPE=tl.float8e4nv, B_TYPE=tl.float8e5
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: fp8_mixed_dot_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,fp32,i32,i32:16,i32:16
# CONSTEXPR: BLOCK_M=32, BLOCK_N=32, BLOCK_K=64, A_TYPE=tl.float8e5, B_TYPE=tl.float8e5
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: dot_precision_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: K=32, M=16, N=32, PRECISION="tf32x3"
# GRID: 1
#
# KERNEL: dot_precision_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: K=16, M=32, N=16, PRECISION="none"
# GRID: 1
#
# KERNEL: dot_precision_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: K=64, M=64, N=16, PRECISION="tf32"
# GRID: 1
#
# KERNEL: fma_clamp_umulhi_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*i32:16,*i32:16,*i64:16,*fp32:16,*i32:16,*i64:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: fma_clamp_umulhi_kernel
# SIGNATURE: *fp64:16,*fp64:16,*fp64:16,*fp64:16,*u32:16,*u32:16,*u64:16,*fp64:16,*u32:16,*u64:16,i32
# CONSTEXPR: BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: hash_bits_kernel
# SIGNATURE: *i32:16,*u32:16,*i64:16,*i32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: rtz_downcast_kernel
# SIGNATURE: *fp32:16,*fp16:16,*bf16:16,*fp16:16,*fp8e5:16,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: asm_prmt_kernel
# SIGNATURE: *u32:16,*u32:16,*u32:16,i32
# CONSTEXPR: BLOCK=256
# GRID: cdiv(n, BLOCK)
#
# KERNEL: nested_helpers_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# KERNEL: autotuned_atomic_sum_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64, EVEN=False
# GRID: cdiv(n, BLOCK)
#
# KERNEL: autotuned_atomic_sum_kernel
# SIGNATURE: *bf16:16,*fp32:16,i32:16
# CONSTEXPR: BLOCK=256, EVEN=True
# GRID: cdiv(n, BLOCK)
#
# KERNEL: checked_kernel
# SIGNATURE: *i32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=128, WARPS=4
# GRID: cdiv(n, BLOCK)
#
# KERNEL: range_options_gemv_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp32:16,i32,i32,i32:16
# CONSTEXPR: BLOCK_M=32, BLOCK_N=64
# GRID: cdiv(M, BLOCK_M)
#
# KERNEL: range_options_gemv_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLOCK_M=8, BLOCK_N=128
# GRID: cdiv(M, BLOCK_M)
#
# KERNEL: block_ptr_3d_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32,i32,i32
# CONSTEXPR: BLOCK_M=16, BLOCK_N=32
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: block_ptr_3d_kernel
# SIGNATURE: *bf16:16,*bf16:16,i32,i32,i32:16,i32:16,i32:16
# CONSTEXPR: BLOCK_M=32, BLOCK_N=64
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: desc_transpose_kernel
# SIGNATURE: *fp16:16,*fp16:16,i32:16,i32:16
# CONSTEXPR: BM=32, BN=64
# GRID: cdiv(M, BM), cdiv(N, BN)
#
# KERNEL: desc_transpose_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32:16,i32:16
# CONSTEXPR: BM=16, BN=16
# GRID: cdiv(M, BM), cdiv(N, BN)
#
# KERNEL: grid3d_kernel
# SIGNATURE: *i32:16,*i32:16
# CONSTEXPR:
# GRID: 3, 5, 7
#
# KERNEL: other_dtype_kernel
# SIGNATURE: *i8:16,*u8:16,*u16:16,*fp16:16,*i32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=32
# GRID: 1
#
# KERNEL: scalar_atomics_kernel
# SIGNATURE: *i32:16,*fp64:16,*u64:16,*i64:16,*i32:16,*i64:16,*fp32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: promotion_rules_kernel
# SIGNATURE: *i8:16,*u8:16,*i16:16,*fp16:16,*bf16:16,*i32:16,*u32:16,*i64:16,*fp64:16
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# KERNEL: rank0_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=128
# GRID: 1
#
# KERNEL: reduce_3d_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*i32:16,*i32:16
# CONSTEXPR: A=4, B=8, C=16
# GRID: 1
#
# KERNEL: reduce_3d_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*i32:16,*i32:16
# CONSTEXPR: A=2, B=32, C=4
# GRID: 1
#
# KERNEL: cache_modifiers_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=512
# GRID: cdiv(n, BLOCK)
#
# KERNEL: bucket_lock_kernel
# SIGNATURE: *i32:16,*fp32:16,*fp32:16,*i32:16,*i32:16,i32
# CONSTEXPR: BLOCK_D=64
# GRID: ROWS
#
# KERNEL: gcd_collatz_kernel
# SIGNATURE: *i32:16,*i32:16,*i32:16,*i32:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: softmax_fp64_kernel
# SIGNATURE: *fp64:16,*fp64:16,*i64:16,i32
# CONSTEXPR: BLOCK=256
# GRID: R
#
# KERNEL: broadcast_3d_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: I=4, J=8, K=16
# GRID: 1
#
# KERNEL: recursive_tuple_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: DEPTH=4
# GRID: 1
#
# KERNEL: pointer_select_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i8:16,*fp32:16,*i32:16,i32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: bool_ptr_kernel
# SIGNATURE: *i1:16,*i32:16,*i1:16,*i32:16,i32
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# KERNEL: dot_fp64_kernel
# SIGNATURE: *fp64:16,*fp64:16,*fp64:16,i32,i32,i32
# CONSTEXPR: BLOCK_M=32, BLOCK_N=32, BLOCK_K=16
# GRID: cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)
#
# KERNEL: runtime_full_kernel
# SIGNATURE: *i32:16,i32,fp32,i32
# CONSTEXPR: BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: tiny_shapes_kernel
# SIGNATURE: *fp32:16,*fp32:16
# CONSTEXPR:
# GRID: 1
#
# KERNEL: scan3d_kernel
# SIGNATURE: *i32:16,*i32:16,*i32:16
# CONSTEXPR: A=2, B=16, C=8
# GRID: 1
#
# KERNEL: scan3d_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: A=4, B=4, C=32
# GRID: 1
#
# KERNEL: scalar_mask_kernel
# SIGNATURE: *fp32:16,*fp32:16,*i1:16,i32,i32
# CONSTEXPR: BLOCK=32
# GRID: cdiv(n, BLOCK)
#
# KERNEL: half_rounding_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,i32
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# KERNEL: half_rounding_kernel
# SIGNATURE: *bf16:16,*bf16:16,*bf16:16,i32
# CONSTEXPR: BLOCK=64
# GRID: 1
#
# KERNEL: float_edges_kernel
# SIGNATURE: *fp32:16,*i32:16,*i64:16,*u32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=32
# GRID: 1
#
# KERNEL: defaults_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,fp32,i32
# CONSTEXPR: BLOCK=64, ACT="relu"
# GRID: cdiv(n, BLOCK)
#
# KERNEL: inplace_scale_kernel
# SIGNATURE: *fp16:16,i32,fp32
# CONSTEXPR: BLOCK=128
# GRID: cdiv(n, BLOCK)
#
# KERNEL: target_utils_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*i32:16,i32,i32
# CONSTEXPR: BLOCK=64
# GRID: cdiv(n, BLOCK)
#
# KERNEL: fft_dif_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: N=64, LOG2N=6
# GRID: R
#
# KERNEL: fft_dif_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: N=8, LOG2N=3
# GRID: R
#
# KERNEL: block_sparse_mm_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*i32:16,*i32:16,i32,i32
# CONSTEXPR: BLOCK=32
# GRID: MB, cdiv(N, BLOCK)
#
# KERNEL: block_sparse_mm_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*i32:16,*i32:16,i32,i32
# CONSTEXPR: BLOCK=16
# GRID: MB, cdiv(N, BLOCK)
#
# KERNEL: csr_spmv_kernel
# SIGNATURE: *i64:16,*i32:16,*fp32:16,*fp32:16,*fp32:16
# CONSTEXPR: BLOCK=32
# GRID: ROWS
#
# KERNEL: lse_median_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32
# CONSTEXPR: BLOCK=128
# GRID: R
#
# KERNEL: conv2d_direct_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,*fp32:16,i32,i32,i32,i32,i32,i32
# CONSTEXPR: KH=3, KW=3, STRIDE=1, PAD=1, BLOCK_OC=16, BLOCK_P=64
# GRID: NB, cdiv(OH * OW, BLOCK_P)
#
# KERNEL: conv2d_direct_kernel
# SIGNATURE: *fp16:16,*fp16:16,*fp16:16,*fp16:16,i32,i32,i32,i32,i32,i32
# CONSTEXPR: KH=5, KW=3, STRIDE=2, PAD=2, BLOCK_OC=8, BLOCK_P=128
# GRID: NB, cdiv(OH * OW, BLOCK_P)
#
# KERNEL: dtype_sweep_kernel
# SIGNATURE: *i8:16,*i64:16,*i8:16,*i8:16,*i8:16,*i8:16,*i8:16,*i8:16
# CONSTEXPR: R=4, C=16
# GRID: 1
#
# KERNEL: dtype_sweep_kernel
# SIGNATURE: *u8:16,*i32:16,*u8:16,*u8:16,*u8:16,*u8:16,*u8:16,*u8:16
# CONSTEXPR: R=8, C=32
# GRID: 1
#
# KERNEL: dtype_sweep_kernel
# SIGNATURE: *i64:16,*i32:16,*i64:16,*i64:16,*i64:16,*i64:16,*i64:16,*i64:16
# CONSTEXPR: R=2, C=64
# GRID: 1
#
# KERNEL: dtype_sweep_kernel
# SIGNATURE: *fp64:16,*i16:16,*fp64:16,*fp64:16,*fp64:16,*fp64:16,*fp64:16,*fp64:16
# CONSTEXPR: R=4, C=8
# GRID: 1
#
# KERNEL: dtype_sweep_kernel
# SIGNATURE: *bf16:16,*i32:16,*bf16:16,*bf16:16,*bf16:16,*bf16:16,*bf16:16,*bf16:16
# CONSTEXPR: R=16, C=16
# GRID: 1
#
# KERNEL: dtype_sweep_kernel
# SIGNATURE: *i16:16,*i8:16,*i16:16,*i16:16,*i16:16,*i16:16,*i16:16,*i16:16
# CONSTEXPR: R=2, C=128
# GRID: 1
#
# KERNEL: loop_bounds_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32,i32
# CONSTEXPR: BLOCK=32
# GRID: 1
#
# KERNEL: split_flip_join_kernel
# SIGNATURE: *fp32:16,*i16:16
# CONSTEXPR: R=32, C=4
# GRID: 1
#
# KERNEL: split_flip_join_kernel
# SIGNATURE: *fp64:16,*i32:16
# CONSTEXPR: R=8, C=64
# GRID: 1
#
# KERNEL: carried_views_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32
# CONSTEXPR: R=4, C=8
# GRID: 1
#
# KERNEL: carried_views_kernel
# SIGNATURE: *i16:16,*i16:16,i32
# CONSTEXPR: R=16, C=16
# GRID: 1
#
# A probe of kernels no other corpus file has (tests/python/test_probe24_kernels.py runs them on the CPU):
# torch inductor's generated code (argmax/amax through a copied triton_helpers, a looped Welford layer
# norm with a runtime `if` returning a tuple, an online softmax with r0_ names, a tuple cummax scan, an
# int64 embedding with a device_assert, the mm template with `tl.broadcast_to(xindex, acc.shape)`),
# ragged softmax and ragged x dense GEMM over cu_seqlens, a pointer-chasing `while`, a bitonic sort by
# hand, reversed tuple scans and cumprod, i1 cumsum, split/join/interleave, gather/flip on axis 0,
# reshape/cat with can_reorder, rank-3 dots with a permuted operand, e4m3 x e5m2 dots, tf32x3, fma/clamp,
# umulhi on signed and 64-bit operands, uint32 hashing, rtz downcasts, prmt inline asm, helpers with
# default and keyword arguments and nested tuple returns, autotune + heuristics with reset_to_zero,
# static/device asserts and `assert`, tl.range options, rank-3 block pointers, a descriptor transpose,
# 3-D grids, `other=` of another dtype, scalar and 64-bit atomics with sem/scope, Triton's promotion
# table checked by tl.static_assert, rank-0 tensors, 3-D reductions, every cache modifier, a lock per
# bucket, data-dependent `while`s with `and`, fp64 softmax, rank-3 broadcasting; then recursion on a
# constexpr and tuple slices, pointer selects and pointer casts, bool pointers, fp64 dots, a runtime
# tl.full, size-1 shapes, 3-D scans, scalar masks, half-precision rounding per op, float->int
# saturation and subnormals, default/keyword arguments, autotune pruning with restore_value,
# tl.random.* and extra.cuda utilities, a radix-2 FFT by reshape/permute/split/join, a block-sparse
# GEMM, CSR SpMV, a logsumexp tl.reduce with a median by tl.sort, direct conv2d, one kernel over six
# dtypes, empty and reversed loop bounds, split/flip/join of integer tiles, and loop-carried tiles
# yielded as views of themselves.
import triton
import triton.language as tl
import triton.language.math as tl_math
from triton.language.extra import libdevice
from triton.language.extra import cuda as tlcuda
from triton.language.random import philox as philox_rounds

NEG_INF = tl.constexpr(float("-inf"))


# ---------------------------------------------------------------------------
# torch inductor, generated style: a copy of the triton_helpers it calls
# ---------------------------------------------------------------------------

@triton.jit
def promote_to_tensor(x):
    return x + tl.zeros((1,), tl.int1)


@triton.jit
def is_floating(x):
    return promote_to_tensor(x).dtype.is_floating()


@triton.jit
def maximum(a, b):
    mask = a > b
    if is_floating(a):
        mask |= a != a
    return tl.where(mask, a, b)


@triton.jit
def max2(a, dim):
    return tl.reduce(a, dim, maximum)


@triton.jit
def maximum_with_index(a_value, a_index, b_value, b_index):
    mask = a_value > b_value
    equal = a_value == b_value
    if is_floating(a_value):
        a_isnan = a_value != a_value
        b_isnan = b_value != b_value
        mask |= a_isnan and not b_isnan
        equal |= a_isnan and b_isnan
    mask |= equal & (a_index < b_index)
    return tl.where(mask, a_value, b_value), tl.where(mask, a_index, b_index)


@triton.jit
def max_with_index(value, index, dim):
    return tl.reduce((value, index), dim, maximum_with_index)


@triton.jit
def welford_reduce(value, mean, m2, weight, first_iteration):
    if first_iteration:
        new_weight = tl.full(weight.shape, 1, weight.dtype)
        new_mean = value
        new_m2 = tl.zeros_like(m2)
    else:
        delta = value - mean
        new_weight = weight + 1
        new_mean = mean + delta / new_weight
        new_m2 = m2 + delta * (value - new_mean)
    return new_mean, new_m2, new_weight


@triton.jit
def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
    return (
        mean_1 + delta * w2_over_w,
        m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w,
        new_weight,
    )


@triton.jit
def welford(mean, m2, weight, dim):
    return tl.reduce((mean, m2, weight), dim, welford_combine)


@triton.jit
def online_softmax_reduce(lhs_max, lhs_sum, dim):
    out_max = max2(lhs_max, dim)
    out_max_keepdim = out_max[:, None]
    delta = tl.where(out_max_keepdim == float("-inf"), 0, lhs_max - out_max_keepdim)
    out_sum = tl.sum(lhs_sum * tl.exp(delta), dim)
    return out_max, out_sum


@triton.jit
def _triton_helper_fn_cummax(arg0_0, arg0_1, arg1_0, arg1_1):
    tmp0 = arg0_0 > arg1_0
    tmp1 = arg0_0 == arg1_0
    tmp2 = arg0_1 > arg1_1
    tmp3 = tmp1 & tmp2
    tmp4 = tmp0 | tmp3
    tmp5 = tl.where(tmp4, arg0_0, arg1_0)
    tmp6 = tl.where(tmp4, arg0_1, arg1_1)
    return tmp5, tmp6


@triton.jit
def triton_per_fused_argmax_amax_0(in_ptr0, out_ptr0, out_ptr1, xnumel, rnumel, XBLOCK: tl.constexpr):
    RBLOCK: tl.constexpr = 64
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rindex = tl.arange(0, RBLOCK)[None, :]
    roffset = 0
    rmask = rindex < rnumel
    r1 = rindex
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, other=0.0).to(tl.float32)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
    tmp3 = tl.where(rmask & xmask, tmp1, float("-inf"))
    tmp4 = max2(tmp3, 1)[:, None]
    tmp5 = tl.broadcast_to(rindex, tmp3.shape)
    tmp6_val, tmp6_idx = max_with_index(tmp3, tmp5, 1)
    tmp6 = tmp6_idx[:, None]
    tl.store(out_ptr0 + (x0), tmp4, xmask)
    tl.store(out_ptr1 + (x0), tmp6.to(tl.int64), xmask)


@triton.jit
def triton_red_fused_native_layer_norm_1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, rnumel,
                                         XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    tmp2_mean = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    tmp2_m2 = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    tmp2_weight = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
        tmp2_mean_next, tmp2_m2_next, tmp2_weight_next = welford_reduce(
            tmp1, tmp2_mean, tmp2_m2, tmp2_weight, roffset == 0
        )
        tmp2_mean = tl.where(rmask & xmask, tmp2_mean_next, tmp2_mean)
        tmp2_m2 = tl.where(rmask & xmask, tmp2_m2_next, tmp2_m2)
        tmp2_weight = tl.where(rmask & xmask, tmp2_weight_next, tmp2_weight)
    tmp2_tmp, tmp3_tmp, tmp4_tmp = welford(tmp2_mean, tmp2_m2, tmp2_weight, 1)
    tmp2 = tmp2_tmp[:, None]
    tmp3 = tmp3_tmp[:, None]
    tmp5 = rnumel.to(tl.float32)
    tmp6 = tmp3 / tmp5
    tmp7 = 1e-05
    tmp8 = tmp6 + tmp7
    tmp9 = libdevice.rsqrt(tmp8)
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp9, xmask)
    tl.store(out_ptr0 + (x0), tmp2, xmask)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp10 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp13 = tl.load(in_ptr1 + (r1), rmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp15 = tl.load(in_ptr2 + (r1), rmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp12 = (tmp10 - tmp2) * tmp9
        tmp16 = tmp12 * tmp13 + tmp15
        tl.store(in_ptr0 + (r1 + (rnumel * x0)), tmp16, rmask & xmask)


@triton.jit
def triton_red_fused__softmax_2(in_ptr0, out_ptr2, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    x0 = xindex
    _tmp3_max = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)
    _tmp3_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + r0_numel * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tmp0.to(tl.float32)
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        _tmp3_max_next = maximum(_tmp3_max, tmp2)
        _tmp3_sum_next = _tmp3_sum * tl_math.exp(_tmp3_max - _tmp3_max_next) + tl_math.exp(tmp2 - _tmp3_max_next)
        _tmp3_max = tl.where(r0_mask & xmask, _tmp3_max_next, _tmp3_max)
        _tmp3_sum = tl.where(r0_mask & xmask, _tmp3_sum_next, _tmp3_sum)
    tmp3, tmp4 = online_softmax_reduce(_tmp3_max, _tmp3_sum, 1)
    tmp3 = tmp3[:, None]
    tmp4 = tmp4[:, None]
    for r0_offset in range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        r0_1 = r0_index
        tmp5 = tl.load(in_ptr0 + (r0_1 + r0_numel * x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp6 = tmp5.to(tl.float32)
        tmp8 = tl_math.exp(tmp6 - tmp3)
        tmp10 = tmp8 / tmp4
        tl.store(out_ptr2 + (r0_1 + r0_numel * x0), tmp10.to(out_ptr2.dtype.element_ty), r0_mask & xmask)


@triton.jit
def triton_per_fused_cummax_3(in_ptr0, out_ptr0, out_ptr1, xnumel, rnumel, XBLOCK: tl.constexpr,
                              RBLOCK: tl.constexpr, REVERSE: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rindex = tl.arange(0, RBLOCK)[None, :]
    rmask = rindex < rnumel
    tmp0 = tl.load(in_ptr0 + (rindex + rnumel * xindex), rmask & xmask, other=0.0)
    tmp1 = rindex.to(tl.int64)
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK, RBLOCK])
    tmp3 = tl.where(rmask, tmp0, float("-inf"))
    tmp4, tmp5 = tl.associative_scan((tmp3, tmp2), 1, _triton_helper_fn_cummax, reverse=REVERSE)
    tl.store(out_ptr0 + (rindex + rnumel * xindex), tmp4, rmask & xmask)
    tl.store(out_ptr1 + (rindex + rnumel * xindex), tmp5, rmask & xmask)


@triton.jit
def triton_poi_fused_embedding_gelu_4(in_ptr0, in_ptr1, out_ptr0, ks0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0).to(tl.int64) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:].to(tl.int64)
    xmask = xindex < xnumel
    x1 = xindex // ks0
    x0 = xindex % ks0
    tmp0 = tl.load(in_ptr0 + (x1), xmask, eviction_policy='evict_last')
    tmp1 = tl.full([XBLOCK], 64, tl.int32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp0 < 0
    tmp4 = tl.where(tmp3, tmp2, tmp0)
    tl.device_assert(((0 <= tmp4) & (tmp4 < 64)) | ~(xmask), "index out of bounds: 0 <= tmp4 < 64")
    tmp6 = tl.load(in_ptr1 + (x0 + ks0 * tmp4), xmask).to(tl.float32)
    tmp7 = 0.5
    tmp8 = tmp6 * tmp7
    tmp9 = 0.7071067811865476
    tmp10 = tmp6 * tmp9
    tmp11 = libdevice.erf(tmp10)
    tmp12 = 1.0
    tmp13 = tmp11 + tmp12
    tmp14 = tmp8 * tmp13
    tmp15 = tl.full([], 0.0, tl.float32)
    tmp16 = maximum(tmp15, tmp14)
    tmp17 = libdevice.isnan(tmp6).to(tl.int1)
    tmp18 = tl.where(tmp17, tmp6, tmp16)
    tl.store(out_ptr0 + (xindex), tmp18, xmask)


@triton.jit
def triton_tem_fused_mm_5(arg_A, arg_B, out_ptr0, M, N, K, stride_am, stride_bk,
                          ALLOW_TF32: tl.constexpr, ACC_TYPE: tl.constexpr, EVEN_K: tl.constexpr,
                          GROUP_M: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                          BLOCK_K: tl.constexpr):
    A = arg_A
    B = arg_B
    stride_ak = 1
    stride_bn = 1
    pid = tl.program_id(0)
    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // (group_size)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if (stride_am == 1 and stride_ak == M) or (stride_am == K and stride_ak == 1):
        ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    else:
        ram = rm % M
    if (stride_bk == 1 and stride_bn == K) or (stride_bk == N and stride_bn == 1):
        rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    else:
        rbn = rn % N
    rk = tl.arange(0, BLOCK_K)
    A = A + (ram[:, None] * stride_am + rk[None, :] * stride_ak)
    B = B + (rk[:, None] * stride_bk + rbn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    for k in range(K, 0, -BLOCK_K):
        if EVEN_K:
            a = tl.load(A)
            b = tl.load(B)
        else:
            a = tl.load(A, mask=rk[None, :] < k, other=0.)
            b = tl.load(B, mask=rk[:, None] < k, other=0.)
        acc += tl.dot(a, b, allow_tf32=ALLOW_TF32)
        A += BLOCK_K * stride_ak
        B += BLOCK_K * stride_bk
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    idx_m = rm[:, None]
    idx_n = rn[None, :]
    mask = (idx_m < M) & (idx_n < N)
    xindex = idx_n + (N * idx_m)
    tl.store(out_ptr0 + (tl.broadcast_to(xindex, acc.shape)), acc, mask)


# ---------------------------------------------------------------------------
# jagged / varlen
# ---------------------------------------------------------------------------

@triton.jit
def jagged_softmax_kernel(x_ptr, out_ptr, cu_seqlens, D, BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    # softmax over the (ragged) time axis of each sequence, per feature
    b = tl.program_id(0)
    pid_d = tl.program_id(1)
    start = tl.load(cu_seqlens + b).to(tl.int64)
    end = tl.load(cu_seqlens + b + 1).to(tl.int64)
    offs_d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    dmask = offs_d < D
    m = tl.full([BLOCK_D], NEG_INF, tl.float32)
    s = tl.zeros([BLOCK_D], tl.float32)
    for t0 in tl.range(start, end, BLOCK_T):
        offs_t = t0 + tl.arange(0, BLOCK_T)
        mask = (offs_t < end)[:, None] & dmask[None, :]
        x = tl.load(x_ptr + offs_t[:, None] * D + offs_d[None, :], mask=mask, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new[None, :]), axis=0)
        m = m_new
    for t0 in tl.range(start, end, BLOCK_T):
        offs_t = t0 + tl.arange(0, BLOCK_T)
        mask = (offs_t < end)[:, None] & dmask[None, :]
        x = tl.load(x_ptr + offs_t[:, None] * D + offs_d[None, :], mask=mask, other=0.0).to(tl.float32)
        y = tl.exp(x - m[None, :]) / s[None, :]
        tl.store(out_ptr + offs_t[:, None] * D + offs_d[None, :], y.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def jagged_dense_bmm_kernel(a_ptr, b_ptr, c_ptr, cu_seqlens, K, N, stride_bb, stride_bk,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    batch = tl.program_id(1)
    pid_n = tl.program_id(2)
    begin = tl.load(cu_seqlens + batch)
    end = tl.load(cu_seqlens + batch + 1)
    seqlen = end - begin
    if pid_m * BLOCK_M >= seqlen:
        return
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (begin + offs_m)[:, None].to(tl.int64) * K + offs_k[None, :]
    b_ptrs = b_ptr + batch.to(tl.int64) * stride_bb + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        kmask = offs_k < K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < seqlen) & kmask[None, :], other=0.0)
        b = tl.load(b_ptrs, mask=kmask[:, None] & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + (begin + offs_m)[:, None].to(tl.int64) * N + offs_n[None, :]
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < seqlen) & (offs_n[None, :] < N))


@triton.jit
def linked_list_sum_kernel(head_ptr, next_ptr, val_ptr, out_ptr, steps_ptr):
    # a pointer chase: a scalar while loop whose exit depends on loaded data
    pid = tl.program_id(0)
    node = tl.load(head_ptr + pid)
    acc = tl.zeros([], tl.float32)
    n = 0
    while node != -1:
        acc += tl.load(val_ptr + node)
        node = tl.load(next_ptr + node)
        n += 1
    tl.store(out_ptr + pid, acc)
    tl.store(steps_ptr + pid, n)


# ---------------------------------------------------------------------------
# sorting by hand, scans, shape combinators
# ---------------------------------------------------------------------------

@triton.jit
def _cmp_swap(x, flip, i: tl.constexpr, n_dims: tl.constexpr):
    n_outer: tl.constexpr = x.numel >> n_dims
    shape: tl.constexpr = [n_outer * 2 ** i, 2, 2 ** (n_dims - i - 1)]
    y = tl.reshape(x, shape)
    mask = tl.arange(0, 2)[None, :, None]
    left = tl.broadcast_to(tl.sum(y * (1 - mask), 1)[:, None, :], shape).to(y.dtype)
    right = tl.broadcast_to(tl.sum(y * mask, 1)[:, None, :], shape).to(y.dtype)
    left = tl.reshape(left, x.shape)
    right = tl.reshape(right, x.shape)
    if x.dtype.primitive_bitwidth == 16:
        idtype: tl.constexpr = tl.int16
    else:
        idtype: tl.constexpr = tl.int32
    ileft = left.to(idtype, bitcast=True)
    iright = right.to(idtype, bitcast=True)
    ix = x.to(idtype, bitcast=True)
    cond = (left > right) != flip
    ret = ix ^ tl.where(cond, ileft ^ iright, tl.zeros_like(ix))
    return ret.to(x.dtype, bitcast=True)


@triton.jit
def _bitonic_merge(x, stage: tl.constexpr, order: tl.constexpr, n_dims: tl.constexpr):
    n_outer: tl.constexpr = x.numel >> n_dims
    tl.static_assert(stage <= n_dims)
    if order == 2:
        shape: tl.constexpr = [n_outer * 2 ** (n_dims - 1 - stage), 2, 2 ** stage]
        flip = tl.reshape(tl.broadcast_to(tl.arange(0, 2)[None, :, None], shape), x.shape)
    else:
        flip = order
    for i in tl.static_range(stage):
        x = _cmp_swap(x, flip, i + (n_dims - stage), n_dims)
    return x


@triton.jit
def bitonic_sort_rows_kernel(x_ptr, out_ptr, n_cols, DESCENDING: tl.constexpr, PAD: tl.constexpr,
                             BLOCK: tl.constexpr):
    # a finite pad: the left/right split multiplies by 0 and 1
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    pad = -PAD if DESCENDING else PAD
    x = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=pad)
    x = tl.reshape(x, [1, BLOCK])
    n_dims: tl.constexpr = tl.constexpr(BLOCK.bit_length() - 1)
    for i in tl.static_range(1, n_dims + 1):
        x = _bitonic_merge(x, i, 2 if i < n_dims else DESCENDING, n_dims)
    x = tl.reshape(x, [BLOCK])
    tl.store(out_ptr + row * n_cols + offs, x, mask=offs < n_cols)


@triton.jit
def _suffix_argmax(a_v, a_i, b_v, b_i):
    # keep the larger, and of equal values the one nearest the end (the
    # combine is commutative, so the operand order of a reversed scan does
    # not matter)
    take_a = (a_v > b_v) | ((a_v == b_v) & (a_i > b_i))
    return tl.where(take_a, a_v, b_v), tl.where(take_a, a_i, b_i)


@triton.jit
def suffix_scan_kernel(x_ptr, vmax_ptr, imax_ptr, prod_ptr, T, D, BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    offs_t = tl.arange(0, BLOCK_T)
    offs_d = tl.arange(0, BLOCK_D)
    mask = (offs_t[:, None] < T) & (offs_d[None, :] < D)
    x = tl.load(x_ptr + offs_t[:, None] * D + offs_d[None, :], mask=mask, other=float("-inf"))
    idx = tl.broadcast_to(offs_t[:, None].to(tl.int64), [BLOCK_T, BLOCK_D])
    v, i = tl.associative_scan((x, idx), axis=0, combine_fn=_suffix_argmax, reverse=True)
    p = tl.cumprod(tl.where(mask, x, 1.0), axis=0, reverse=True)
    tl.store(vmax_ptr + offs_t[:, None] * D + offs_d[None, :], v, mask=mask)
    tl.store(imax_ptr + offs_t[:, None] * D + offs_d[None, :], i, mask=mask)
    tl.store(prod_ptr + offs_t[:, None] * D + offs_d[None, :], p, mask=mask)


@triton.jit
def bool_scan_kernel(flag_ptr, pos_ptr, cnt_ptr, cprod_ptr, n, BLOCK: tl.constexpr):
    # cumsum/sum of an i1 tensor (Triton sums int1 as uint32); an integer
    # reversed cumprod
    offs = tl.arange(0, BLOCK)
    f = tl.load(flag_ptr + offs, mask=offs < n, other=0) != 0
    pos = tl.cumsum(f, axis=0)
    tl.static_assert(pos.dtype == tl.uint32)
    cnt = tl.sum(f, axis=0)
    tl.static_assert(cnt.dtype == tl.uint32)
    tl.store(pos_ptr + offs, pos.to(tl.int32), mask=offs < n)
    tl.store(cnt_ptr, cnt.to(tl.int32))
    v = tl.where(f, 2, 1).to(tl.int32)
    tl.store(cprod_ptr + offs, tl.cumprod(v, 0, reverse=True), mask=offs < n)


@triton.jit
def complex_interleave_kernel(a_ptr, b_ptr, out_ptr, quad_ptr, n_rows, N: tl.constexpr, BLOCK_R: tl.constexpr):
    # [rows, N] complex numbers stored interleaved (re, im): a * conj(b)
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.arange(0, 2 * N)
    mask = (rows < n_rows)[:, None]
    offs = rows[:, None] * (2 * N) + cols[None, :]
    a = tl.load(a_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    ar, ai = tl.split(tl.reshape(a, [BLOCK_R, N, 2]))
    br, bi = tl.split(a.reshape(BLOCK_R, N, 2) * 0 + tl.reshape(b, [BLOCK_R, N, 2]))
    re = ar * br + ai * bi
    im = ai * br - ar * bi
    tl.store(out_ptr + offs, tl.interleave(re, im), mask=mask)
    # (re, im, |z|^2, arg-ish) as a 4-wide record through two levels of join
    q = tl.join(tl.join(re, im), tl.join(re * re + im * im, im - re))
    q = tl.reshape(q, [BLOCK_R, 4 * N])
    qoffs = rows[:, None] * (4 * N) + tl.arange(0, 4 * N)[None, :]
    tl.store(quad_ptr + qoffs, q, mask=mask)


@triton.jit
def gather_flip_axis0_kernel(src_ptr, idx_ptr, out_ptr, flip_ptr, R, C: tl.constexpr, BLOCK_R: tl.constexpr,
                             BLOCK_I: tl.constexpr):
    rr = tl.arange(0, BLOCK_R)
    ri = tl.arange(0, BLOCK_I)
    cc = tl.arange(0, C)
    src = tl.load(src_ptr + rr[:, None] * C + cc[None, :], mask=(rr < R)[:, None], other=0)
    idx = tl.load(idx_ptr + ri[:, None] * C + cc[None, :])
    g = tl.gather(src, idx, axis=0)
    tl.store(out_ptr + ri[:, None] * C + cc[None, :], g)
    f = tl.flip(src, 0)
    # the flipped padded tile: rows BLOCK_R-R.. hold the data
    tl.store(flip_ptr + rr[:, None] * C + cc[None, :], f)


@triton.jit
def reorder_reduce_kernel(x_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr):
    offs = tl.arange(0, A * B)
    x = tl.load(x_ptr + offs)
    y = tl.reshape(x, [B, A], can_reorder=True)
    s = tl.sum(tl.sum(y, axis=1), axis=0)
    m = tl.max(tl.reshape(x, (A, B), can_reorder=True))
    z = tl.cat(x, x * 2, can_reorder=True)
    tl.store(out_ptr, s)
    tl.store(out_ptr + 1, m)
    tl.store(out_ptr + 2, tl.sum(z, axis=0))


@triton.jit
def batched_dot_permute_kernel(q_ptr, k_ptr, v_ptr, o_ptr, BH: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                               D: tl.constexpr, PRECISION: tl.constexpr):
    pid = tl.program_id(0)
    b = pid * BH + tl.arange(0, BH)
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    d = tl.arange(0, D)
    q = tl.load(q_ptr + b[:, None, None] * (M * D) + m[None, :, None] * D + d[None, None, :])
    k = tl.load(k_ptr + b[:, None, None] * (N * D) + n[None, :, None] * D + d[None, None, :])
    v = tl.load(v_ptr + b[:, None, None] * (N * D) + n[None, :, None] * D + d[None, None, :])
    s = tl.dot(q, tl.permute(k, 0, 2, 1), input_precision=PRECISION)
    p = tl.exp(s - tl.max(s, axis=2, keep_dims=True))
    p = p / tl.sum(p, axis=2)[:, :, None]
    o = tl.zeros([BH, M, D], tl.float32)
    o = tl.dot(p.to(v.dtype), v, acc=o, input_precision=PRECISION)
    tl.store(o_ptr + b[:, None, None] * (M * D) + m[None, :, None] * D + d[None, None, :], o.to(o_ptr.dtype.element_ty))


@triton.jit
def fp8_mixed_dot_kernel(a_ptr, b_ptr, c_ptr, scale, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         BLOCK_K: tl.constexpr, A_TYPE: tl.constexpr, B_TYPE: tl.constexpr):
    # a and b arrive as fp32, are narrowed to fp8 in the kernel, and meet in
    # one dot (e4m3 x e5m2 is a legal pair)
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :], mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :], mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a.to(A_TYPE), b.to(B_TYPE), acc, out_dtype=tl.float32, max_num_imprecise_acc=32)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc * scale, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def dot_precision_kernel(a_ptr, b_ptr, c_ptr, K: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                         PRECISION: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    if PRECISION == "none":
        c = tl.dot(a, b, allow_tf32=False)
    else:
        c = tl.dot(a, b, input_precision=PRECISION)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


@triton.jit
def fma_clamp_umulhi_kernel(x_ptr, y_ptr, lo_ptr, hi_ptr, u_ptr, v_ptr, w_ptr, out_ptr, hi32_ptr, hi64_ptr, n,
                            BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    lo = tl.load(lo_ptr + offs, mask=mask)
    hi = tl.load(hi_ptr + offs, mask=mask)
    r = tl.clamp(tl.fma(x, y, 1.0), lo, hi)
    tl.store(out_ptr + offs, r, mask=mask)
    u = tl.load(u_ptr + offs, mask=mask)
    v = tl.load(v_ptr + offs, mask=mask)
    # umulhi on a signed int32 is the unsigned high word
    tl.store(hi32_ptr + offs, tl.umulhi(u, v), mask=mask)
    w = tl.load(w_ptr + offs, mask=mask)
    tl.store(hi64_ptr + offs, tl.umulhi(w, w.to(tl.uint64) | 0x8000000000000000), mask=mask)


@triton.jit
def _rotl32(x, r: tl.constexpr):
    return (x << r) | (x >> (32 - r))


@triton.jit
def hash_bits_kernel(x_ptr, h_ptr, s_ptr, par_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    u = x.to(tl.uint32, bitcast=True)
    # murmur3 fmix32 (logical shifts on uint32)
    h = u ^ (u >> 16)
    h = h * 0x85EBCA6B
    h = h ^ (h >> 13)
    h = h * 0xC2B2AE35
    h = h ^ (h >> 16)
    h = _rotl32(h, 5) ^ 0xFFFFFFFF
    tl.store(h_ptr + offs, h, mask=mask)
    # arithmetic shift of negative int64, lowest set bit, sign mask
    x64 = x.to(tl.int64) * -65537
    s = (x64 >> 7) + (x & -x) + (x >> 31)
    tl.store(s_ptr + offs, s, mask=mask)
    par = tl.xor_sum(u & 0xFF, axis=0)
    tl.atomic_xor(par_ptr, par.to(tl.int32, bitcast=True))


@triton.jit
def rtz_downcast_kernel(x_ptr, f16_ptr, bf16_ptr, f16n_ptr, e5_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(f16_ptr + offs, x.to(tl.float16, fp_downcast_rounding="rtz"), mask=mask)
    tl.store(bf16_ptr + offs, tl.cast(x, tl.bfloat16, fp_downcast_rounding="rtz"), mask=mask)
    tl.store(f16n_ptr + offs, x.to(tl.float16, fp_downcast_rounding="rtne"), mask=mask)
    tl.store(e5_ptr + offs, x.to(tl.float8e5), mask=mask)


@triton.jit
def asm_prmt_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    z = tl.inline_asm_elementwise("prmt.b32 $0, $1, $2, 0x5140;", "=r,r,r", [x, y], dtype=tl.uint32,
                                  is_pure=True, pack=1)
    # globaltimer and smid are inline asm in Triton too
    t0 = tlcuda.globaltimer()
    z += (tlcuda.smid() < 0).to(tl.uint32) + (tlcuda.globaltimer() < t0).to(tl.uint32)
    tl.store(out_ptr + offs, z, mask=mask)


# ---------------------------------------------------------------------------
# helpers, decorators, asserts, loop options
# ---------------------------------------------------------------------------

SCALE_DEFAULT = tl.constexpr(0.5)


@triton.jit
def _affine(x, scale=SCALE_DEFAULT, BIAS: tl.constexpr = 1):
    return x * scale + BIAS


@triton.jit
def _moments(x, axis: tl.constexpr = 0):
    s = tl.sum(x, axis=axis)
    q = tl.sum(x * x, axis=axis)
    return (s, q), tl.max(x, axis=axis)


@triton.jit
def _stats(x, n, CENTER: tl.constexpr = True):
    (s, q), mx = _moments(x)
    mean = s / n
    if CENTER:
        var = q / n - mean * mean
    else:
        var = q / n
    return mean, var, mx


@triton.jit
def nested_helpers_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    a = _affine(x)
    b = _affine(x, 2.0)
    c = _affine(x, BIAS=-3)
    d = _affine(scale=0.25, x=x, BIAS=0)
    t = (a, b) + (c, d)
    acc = tl.zeros_like(x)
    for i in tl.static_range(len(t)):
        acc += t[i] * (i + 1)
    mean, var, mx = _stats(tl.where(offs < n, acc, 0.0), n)
    stats = _stats(acc, n, CENTER=False)
    tl.store(out_ptr + offs, acc, mask=offs < n)
    tl.store(out_ptr + BLOCK + tl.arange(0, 4), tl.where(tl.arange(0, 4) == 0, mean,
                                                        tl.where(tl.arange(0, 4) == 1, var,
                                                                 tl.where(tl.arange(0, 4) == 2, mx, stats[1]))))


@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=2), triton.Config({"BLOCK": 256}, num_warps=4)],
                 key=["n"], reset_to_zero=["out_ptr"])
@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def autotuned_atomic_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        x = tl.load(x_ptr + offs)
    else:
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))
    tl.atomic_add(out_ptr + 1, tl.sum((x > 0).to(tl.float32), axis=0), sem="relaxed", scope="gpu")


@triton.jit
def checked_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, WARPS: tl.constexpr):
    tl.static_assert(BLOCK % 32 == 0, "BLOCK must be a multiple of 32")
    tl.static_assert(BLOCK >= WARPS * 32)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.static_assert(offs.shape[0] == BLOCK)
    tl.static_print("checked_kernel BLOCK =", BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1)
    tl.device_assert(x > 0, "x must be positive")
    assert n > 0, "n must be positive"
    tl.store(out_ptr + offs, tl.log(x.to(tl.float32)), mask=offs < n)


@triton.jit
def range_options_gemv_kernel(a_ptr, x_ptr, y_ptr, M, N, stride_am, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros([BLOCK_M], tl.float32)
    for n0 in tl.range(0, N, BLOCK_N, num_stages=2, loop_unroll_factor=2, disallow_acc_multi_buffer=True):
        rn = n0 + tl.arange(0, BLOCK_N)
        a = tl.load(a_ptr + rm[:, None].to(tl.int64) * stride_am + rn[None, :],
                    mask=(rm[:, None] < M) & (rn[None, :] < N), other=0.0, cache_modifier=".cg")
        x = tl.load(x_ptr + rn, mask=rn < N, other=0.0, eviction_policy="evict_last")
        acc += tl.sum(a.to(tl.float32) * x.to(tl.float32)[None, :], axis=1)
    tl.store(y_ptr + rm, acc, mask=rm < M, cache_modifier=".cs")


@triton.jit
def block_ptr_3d_kernel(x_ptr, out_ptr, B, M, N, stride_b, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # sums a [B, M, N] tensor over B through one rank-3 block pointer
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    src = tl.make_block_ptr(base=x_ptr, shape=(B, M, N), strides=(stride_b, stride_m, 1),
                            offsets=(0, pid_m * BLOCK_M, pid_n * BLOCK_N), block_shape=(1, BLOCK_M, BLOCK_N),
                            order=(2, 1, 0))
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for b in range(0, B):
        t = tl.load(src, boundary_check=(1, 2), padding_option="zero")
        acc += tl.reshape(t, [BLOCK_M, BLOCK_N]).to(tl.float32)
        src = tl.advance(src, (1, 0, 0))
    dst = tl.make_block_ptr(out_ptr, (M, N), (N, 1), (pid_m * BLOCK_M, pid_n * BLOCK_N), (BLOCK_M, BLOCK_N), (1, 0))
    tl.store(dst, acc.to(out_ptr.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def desc_transpose_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    src = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    dst = tl.make_tensor_descriptor(y_ptr, shape=[N, M], strides=[M, 1], block_shape=[BN, BM])
    t = src.load([pid_m * BM, pid_n * BN])
    dst.store([pid_n * BN, pid_m * BM], tl.trans(t))


@triton.jit
def grid3d_kernel(out_ptr, info_ptr):
    p0 = tl.program_id(0)
    p1 = tl.program_id(axis=1)
    p2 = tl.program_id(2)
    n0 = tl.num_programs(0)
    n1 = tl.num_programs(axis=1)
    n2 = tl.num_programs(2)
    lin = p0 + n0 * (p1 + n1 * p2)
    tl.store(out_ptr + lin, p0 * 10000 + p1 * 100 + p2)
    if lin == 0:
        tl.store(info_ptr + tl.arange(0, 4), tl.where(tl.arange(0, 4) == 0, n0,
                                                      tl.where(tl.arange(0, 4) == 1, n1,
                                                               tl.where(tl.arange(0, 4) == 2, n2, n0 * n1 * n2))))


@triton.jit
def other_dtype_kernel(i8_ptr, u8_ptr, u16_ptr, f16_ptr, i32_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(i8_ptr + offs, mask=m, other=-1.7)
    b = tl.load(u8_ptr + offs, mask=m, other=300)
    c = tl.load(u16_ptr + offs, mask=m, other=-1)
    d = tl.load(f16_ptr + offs, mask=m, other=float("inf"))
    e = tl.load(i32_ptr + offs, mask=m, other=True)
    tl.static_assert(a.dtype == tl.int8)
    tl.static_assert(b.dtype == tl.uint8)
    tl.static_assert(d.dtype == tl.float16)
    row = out_ptr + offs * 5
    tl.store(row + 0, a.to(tl.float32))
    tl.store(row + 1, b.to(tl.float32))
    tl.store(row + 2, c.to(tl.float32))
    tl.store(row + 3, d.to(tl.float32))
    tl.store(row + 4, e.to(tl.float32))


@triton.jit
def scalar_atomics_kernel(cnt_ptr, f64_ptr, u64_ptr, i64_ptr, slot_ptr, flags_ptr, vals_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    slot = tl.atomic_add(cnt_ptr, 1, sem="acq_rel", scope="gpu")
    tl.store(slot_ptr + pid, slot)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(vals_ptr + offs, mask=m, other=0.0)
    tl.atomic_add(f64_ptr, tl.sum(v.to(tl.float64), axis=0), sem="relaxed")
    tl.atomic_add(u64_ptr, (pid.to(tl.uint64) << 40) + 1)
    tl.atomic_min(i64_ptr, -pid.to(tl.int64) * 3_000_000_000, sem="release", scope="cta")
    tl.atomic_max(i64_ptr + 1, tl.max(v, axis=0).to(tl.int64))
    bits = tl.where(v > 0, 1 << (offs % 63).to(tl.int64), 0).to(tl.int64)
    tl.atomic_or(flags_ptr + (offs % 2), bits, mask=m)
    old = tl.atomic_and(flags_ptr + 2, ~(1 << pid.to(tl.int64)))
    tl.store(slot_ptr + tl.num_programs(0) + pid, (old >> pid.to(tl.int64)) & 1)


@triton.jit
def promotion_rules_kernel(i8_ptr, u8_ptr, i16_ptr, f16_ptr, bf16_ptr, i32_ptr, u32_ptr, i64_ptr, out_ptr,
                           BLOCK: tl.constexpr):
    # Triton's promotion table, each result's dtype checked at compile time
    offs = tl.arange(0, BLOCK)
    a = tl.load(i8_ptr + offs)
    b = tl.load(u8_ptr + offs)
    c = tl.load(i16_ptr + offs)
    d = tl.load(f16_ptr + offs)
    e = tl.load(bf16_ptr + offs)
    f = tl.load(i32_ptr + offs)
    g = tl.load(u32_ptr + offs)
    h = tl.load(i64_ptr + offs)
    r = (a + 100, b * 3, d / 3.0, d + 1.5, e * 2, f + 2.5, c // 3, a + c, a + b, g + h, f < 3.5, d + e, a * d,
         g >> 1, f / f, h / 2, d % 2.0, e / e, c % -5, a * 2.0)
    want = (tl.int8, tl.uint8, tl.float32, tl.float16, tl.bfloat16, tl.float32, tl.int16, tl.int16, tl.uint8,
            tl.int64, tl.int1, tl.float16, tl.float16, tl.uint32, tl.float32, tl.float32, tl.float32, tl.float32,
            tl.int16, tl.float32)
    for i in tl.static_range(len(r)):
        tl.static_assert(r[i].dtype == want[i])
        tl.store(out_ptr + i * BLOCK + offs, r[i].to(tl.float64))


@triton.jit
def rank0_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    k = tl.full([], 3, tl.int32)
    z = tl.zeros([], tl.float32)
    s = tl.sum(x) + z
    tl.static_assert(len(s.shape) == 0)
    one = tl.reshape(s, [1])
    col = s[None]
    b = tl.broadcast_to(s * k, [BLOCK])
    y = x * k + b - one + col * 0
    tl.store(out_ptr + offs, y, mask=offs < n)
    tl.store(out_ptr + BLOCK + tl.arange(0, 1), one)


@triton.jit
def reduce_3d_kernel(x_ptr, s_ptr, m_ptr, i_ptr, a_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    ia = tl.arange(0, A)[:, None, None]
    ib = tl.arange(0, B)[None, :, None]
    ic = tl.arange(0, C)[None, None, :]
    x = tl.load(x_ptr + ia * (B * C) + ib * C + ic)
    s = tl.sum(x, axis=0, keep_dims=True)            # [1, B, C]
    tl.store(s_ptr + ib * C + ic, s)
    m, i = tl.max(x, axis=1, return_indices=True, return_indices_tie_break_left=False)   # [A, C]
    ac = tl.arange(0, A)[:, None] * C + tl.arange(0, C)[None, :]
    tl.store(m_ptr + ac, m)
    tl.store(i_ptr + ac, i)
    am = tl.argmin(x, axis=2, tie_break_left=True, keep_dims=True)    # [A, B, 1]
    tl.store(a_ptr + ia * B + ib, am)


@triton.jit
def cache_modifiers_kernel(x_ptr, y_ptr, o1_ptr, o2_ptr, o3_ptr, o4_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x_ptr + offs, mask=m, other=0.0, cache_modifier=".ca", eviction_policy="evict_first")
    b = tl.load(y_ptr + offs, mask=m, other=0.0, cache_modifier=".cg")
    c = tl.load(x_ptr + offs, mask=m, other=0.0, cache_modifier=".cv")
    d = tl.load(y_ptr + offs, mask=m, other=0.0, volatile=True)
    tl.store(o1_ptr + offs, a + b, mask=m, cache_modifier=".wb")
    tl.store(o2_ptr + offs, a - b, mask=m, cache_modifier=".cg", eviction_policy="evict_last")
    tl.store(o3_ptr + offs, c * d, mask=m, cache_modifier=".cs")
    tl.store(o4_ptr + offs, c / d, mask=m, cache_modifier=".wt")


@triton.jit
def bucket_lock_kernel(key_ptr, x_ptr, acc_ptr, cnt_ptr, lock_ptr, D, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    bucket = tl.load(key_ptr + pid)
    offs = tl.arange(0, BLOCK_D)
    x = tl.load(x_ptr + pid * D + offs, mask=offs < D, other=0.0)
    while tl.atomic_cas(lock_ptr + bucket, 0, 1, sem="acquire") == 1:
        pass
    row = tl.load(acc_ptr + bucket * D + offs, mask=offs < D, other=0.0)
    tl.store(acc_ptr + bucket * D + offs, row + x, mask=offs < D)
    c = tl.load(cnt_ptr + bucket)
    tl.store(cnt_ptr + bucket, c + 1)
    tl.debug_barrier()
    tl.atomic_xchg(lock_ptr + bucket, 0, sem="release")


@triton.jit
def gcd_collatz_kernel(a_ptr, b_ptr, g_ptr, steps_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m, other=1)
    b = tl.load(b_ptr + offs, mask=m, other=0)
    while tl.max(b, axis=0) != 0:
        nz = b != 0
        a, b = tl.where(nz, b, a), tl.where(nz, a % tl.where(nz, b, 1), 0)
    tl.store(g_ptr + offs, a, mask=m)
    # a scalar loop with `and` in its condition: Collatz steps of the first
    # element, capped
    x = tl.load(a_ptr + tl.program_id(0) * BLOCK).to(tl.int64)
    k = 0
    while (x != 1) and (k < 200):
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        k += 1
    tl.store(steps_ptr + tl.program_id(0), k)


@triton.jit
def softmax_fp64_kernel(x_ptr, y_ptr, idx_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=-float("inf"))
    mx = tl.max(x, axis=0)
    e = tl.exp(x - mx)
    y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * n_cols + offs, tl.log(y) + tl.log(tl.sum(e, axis=0)) + mx - x, mask=offs < n_cols)
    tl.store(idx_ptr + row, tl.argmax(x, axis=0))


@triton.jit
def broadcast_3d_kernel(a_ptr, b_ptr, c_ptr, out_ptr, I: tl.constexpr, J: tl.constexpr, K: tl.constexpr):
    i = tl.arange(0, I)
    j = tl.arange(0, J)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + i)                         # [I]
    b = tl.load(b_ptr + j[:, None] * K + k[None, :])  # [J, K]
    c = tl.load(c_ptr + i[:, None] * K + k[None, :])  # [I, K]
    t = a[:, None, None] * b[None, :, :] + c[:, None, :]
    t = t - tl.max(t, axis=1)[:, None, :]
    r = tl.sum(t, axis=2)                          # [I, J]
    flat = tl.ravel(tl.permute(t, (2, 0, 1)))      # k-major
    tl.store(out_ptr + tl.arange(0, I * J * K), flat)
    tl.store(out_ptr + I * J * K + i[:, None] * J + j[None, :], r)


TILE = tl.constexpr((16, 32))


@triton.jit
def _power_sum(x, DEPTH: tl.constexpr):
    # recursion on a constexpr: x + x^2 + ... + x^DEPTH
    if DEPTH == 1:
        return x
    else:
        return x + x * _power_sum(x, DEPTH - 1)


@triton.jit
def _tail_sum(t):
    if len(t) == 1:
        return t[0]
    else:
        return t[0] + _tail_sum(t[1:])


@triton.jit
def recursive_tuple_kernel(x_ptr, out_ptr, n, DEPTH: tl.constexpr):
    rows = tl.arange(0, TILE[0])
    cols = tl.arange(0, TILE[1])
    offs = rows[:, None] * TILE[1] + cols[None, :]
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    acc = tl.zeros(TILE, tl.float32)
    acc += _power_sum(x, DEPTH)
    parts = (x, x * 2, x * 3, acc)
    head = parts[:2]
    tail = parts[2:]
    tl.static_assert(len(head) == 2 and len(tail) == 2)
    tl.store(out_ptr + offs, _tail_sum(head + tail), mask=offs < n)


@triton.jit
def pointer_select_kernel(a_ptr, b_ptr, sel_ptr, out_ptr, bytes_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    s = tl.load(sel_ptr + offs, mask=m, other=0)
    src = tl.where(s != 0, a_ptr + offs, b_ptr + (n - 1 - offs))
    v = tl.load(src, mask=m)
    tl.store(out_ptr + offs, v, mask=m)
    # the fp32 words of a as bytes, through a pointer cast
    pb = a_ptr.to(tl.pointer_type(tl.uint8))
    boffs = tl.program_id(0) * BLOCK * 4 + tl.arange(0, 4 * BLOCK)
    by = tl.load(pb + boffs, mask=boffs < 4 * n)
    tl.store(bytes_ptr + boffs, by.to(tl.int32), mask=boffs < 4 * n)


@triton.jit
def bool_ptr_kernel(m_ptr, x_ptr, out_ptr, cnt_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    valid = offs < n
    m = tl.load(m_ptr + offs, mask=valid, other=False)
    x = tl.load(x_ptr + offs, mask=valid, other=0)
    # a bool store of ints: nonzero is True
    tl.store(out_ptr + offs, x * m.to(tl.int32), mask=valid)
    tl.store(out_ptr + BLOCK + offs, (x > 2) ^ m, mask=valid)
    tl.store(cnt_ptr, tl.sum(m.to(tl.int32), axis=0), mask=n > 0)


@triton.jit
def dot_fp64_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float64)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :], mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :], mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, out_dtype=tl.float64)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def runtime_full_kernel(out_ptr, fill, scale, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    f = tl.full([BLOCK], fill, tl.int32)
    g = tl.full([2, BLOCK // 2], scale, tl.float16)
    r = tl.arange(16, 16 + BLOCK)
    v = f + r + tl.reshape(g, [BLOCK]).to(tl.int32)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, v, mask=(offs < n) & (pid < 3))


@triton.jit
def tiny_shapes_kernel(x_ptr, out_ptr):
    one = tl.arange(0, 1)
    two = tl.arange(0, 2)
    a = tl.load(x_ptr + one)                    # [1]
    b = tl.load(x_ptr + 1 + two)                # [2]
    col = tl.load(x_ptr + 3 + tl.arange(0, 4)[:, None] + one[None, :])   # [4, 1]
    s1 = tl.sum(col, axis=1)                    # reduce a size-1 axis
    c1 = tl.cumsum(a, axis=0)
    m2 = tl.max(b, axis=0)
    p = tl.cumprod(b, axis=0)
    tl.store(out_ptr + tl.arange(0, 4), s1)
    tl.store(out_ptr + 4 + one, c1)
    tl.store(out_ptr + 5, m2)
    tl.store(out_ptr + 6 + two, p)
    tl.store(out_ptr + 8 + two, tl.sort(b, descending=True))
    tl.store(out_ptr + 10 + one, tl.argmax(col, axis=0).to(tl.float32))


@triton.jit
def _add3(a, b):
    return a + b


@triton.jit
def scan3d_kernel(x_ptr, out_ptr, rev_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    ia = tl.arange(0, A)[:, None, None]
    ib = tl.arange(0, B)[None, :, None]
    ic = tl.arange(0, C)[None, None, :]
    offs = ia * (B * C) + ib * C + ic
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.associative_scan(x, 1, _add3))
    tl.store(rev_ptr + offs, tl.cumsum(x, axis=2, reverse=True) - tl.cumsum(x, axis=0))


@triton.jit
def scalar_mask_kernel(x_ptr, out_ptr, flag_ptr, n, limit, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    live = pid < limit                      # a scalar mask for a block of pointers
    x = tl.load(x_ptr + offs, mask=live, other=-1.0)
    tl.store(out_ptr + offs, x * 2, mask=live & (offs < n))
    first = tl.load(x_ptr + pid * BLOCK, mask=live, other=0.0)
    tl.store(flag_ptr + pid, first > 0, mask=pid < tl.num_programs(0))


@triton.jit
def half_rounding_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # fp16/bf16 arithmetic rounds after every operation, as the GPU's
    # native half instructions do
    offs = tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m, other=0.0)
    b = tl.load(b_ptr + offs, mask=m, other=0.0)
    s = (a + b) - a
    p = (a * b) * b - a
    tl.store(out_ptr + offs, s, mask=m)
    tl.store(out_ptr + BLOCK + offs, p, mask=m)
    tl.store(out_ptr + 2 * BLOCK + offs, tl.maximum(a - b, -a) + b, mask=m)


@triton.jit
def float_edges_kernel(x_ptr, i32_ptr, i64_ptr, u32_ptr, tiny_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(i32_ptr + offs, x.to(tl.int32), mask=m)
    tl.store(i64_ptr + offs, x.to(tl.int64), mask=m)
    tl.store(u32_ptr + offs, x.to(tl.uint32), mask=m)
    # subnormal results: 1e-40 is an fp64 literal, cast to fp32 (a subnormal)
    tl.store(tiny_ptr + offs, x * 1e-40 + 1e-45 * x, mask=m)


@triton.jit(do_not_specialize=["n"])
def defaults_kernel(x_ptr, out_ptr, n, scale=2.0, shift=1, BLOCK: tl.constexpr = 64, ACT: tl.constexpr = "none"):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = x * scale + shift
    if ACT == "relu":
        y = tl.maximum(y, 0.0)
    tl.store(out_ptr + offs, y, mask=m)


def _prune(configs, named_args, **kwargs):
    n = named_args["n"]
    return [c for c in configs if c.kwargs["BLOCK"] <= max(64, triton.next_power_of_2(n))]


@triton.autotune(configs=[triton.Config({"BLOCK": 32}), triton.Config({"BLOCK": 128}, num_stages=2),
                          triton.Config({"BLOCK": 1024}, num_warps=8)],
                 key=["n"], prune_configs_by={"early_config_prune": _prune}, restore_value=["x_ptr"])
@triton.jit
def inplace_scale_kernel(x_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(x_ptr + offs, x * factor, mask=m)


@triton.jit
def target_utils_kernel(x_ptr, y_ptr, out_ptr, info_ptr, seed, n, BLOCK: tl.constexpr):
    # hints with lists, ieee fdiv, the triton.language.random module by
    # attribute and by import, triton.language.extra.cuda's num_threads/num_warps
    pid = tl.program_id(0)
    offs = tl.multiple_of(pid * BLOCK, BLOCK) + tl.arange(0, BLOCK)
    offs2 = tl.max_contiguous(tl.multiple_of(tl.reshape(offs, [BLOCK // 16, 16]), [16, 16]), [1, 16])
    m = offs2 < n
    x = tl.load(x_ptr + offs2, mask=m, other=1.0)
    y = tl.load(y_ptr + offs2, mask=m, other=1.0)
    q = tl.math.fdiv(x, y, ieee_rounding=True) + tl.math.div_rn(y, x)
    r = libdevice.llrint(q * 4.0).to(tl.float32) * 0.25
    u = tl.random.uint_to_uniform_float(tl.random.randint(seed, offs2))
    a, b = tl.random.pair_uniform_to_normal(u, 1.0 - u)
    c0, c1, c2, c3 = philox_rounds(seed, offs2, offs2 * 0, offs2 * 0, offs2 * 0, tl.random.N_ROUNDS_DEFAULT)
    tl.store(out_ptr + offs2, r, mask=m)
    tl.store(out_ptr + n + offs2, a * a + b * b, mask=m)
    tl.store(out_ptr + 2 * n + offs2, (c0 == tl.randint(seed, offs2)).to(tl.float32), mask=m)
    bits: tl.constexpr = x.dtype.primitive_bitwidth + tl.float16.fp_mantissa_width + tl.int16.int_bitwidth
    if pid == 0:
        tl.store(info_ptr + 0, bits)
        tl.store(info_ptr + 1, tlcuda.num_threads())
        tl.store(info_ptr + 2, tlcuda.num_warps())


@triton.jit
def _dif_stage(xr, xi, N: tl.constexpr, h: tl.constexpr):
    # one radix-2 stage: the row as [groups, 2, h], halves split apart and
    # the butterflies joined back
    G: tl.constexpr = N // (2 * h)
    ar, br = tl.split(tl.permute(tl.reshape(xr, [G, 2, h]), 0, 2, 1))
    ai, bi = tl.split(tl.permute(tl.reshape(xi, [G, 2, h]), (0, 2, 1)))
    j = tl.arange(0, h)[None, :].to(tl.float32)
    ang = j * (-3.141592653589793 / h)
    wr = tl.cos(ang)
    wi = tl.sin(ang)
    dr = ar - br
    di = ai - bi
    bot_r = dr * wr - di * wi
    bot_i = dr * wi + di * wr
    xr = tl.reshape(tl.permute(tl.join(ar + br, bot_r), 0, 2, 1), [N])
    xi = tl.reshape(tl.permute(tl.join(ai + bi, bot_i), 0, 2, 1), [N])
    return xr, xi


@triton.jit
def fft_dif_kernel(re_ptr, im_ptr, ore_ptr, oim_ptr, N: tl.constexpr, LOG2N: tl.constexpr):
    # radix-2 decimation in frequency, natural order in, bit-reversed out
    row = tl.program_id(0)
    offs = tl.arange(0, N)
    xr = tl.load(re_ptr + row * N + offs)
    xi = tl.load(im_ptr + row * N + offs)
    for s in tl.static_range(LOG2N):
        xr, xi = _dif_stage(xr, xi, N, N >> (s + 1))
    rev = tl.zeros([N], tl.int32)
    for b in tl.static_range(LOG2N):
        rev |= ((offs >> b) & 1) << (LOG2N - 1 - b)
    tl.store(ore_ptr + row * N + rev, xr)
    tl.store(oim_ptr + row * N + rev, xi)


@triton.jit
def block_sparse_mm_kernel(a_ptr, b_ptr, c_ptr, lut_ptr, offsets_ptr, K, N, BLOCK: tl.constexpr):
    # C[m-block, :] = sum over the nonzero blocks k of A[m, k] @ B[k, :]; A is
    # stored as dense blocks, listed per block row in lut (the k index)
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    start = tl.load(offsets_ptr + pid_m)
    end = tl.load(offsets_ptr + pid_m + 1)
    r = tl.arange(0, BLOCK)
    rn = pid_n * BLOCK + r
    acc = tl.zeros([BLOCK, BLOCK], tl.float32)
    for i in range(start, end):
        kb = tl.load(lut_ptr + i)
        a = tl.load(a_ptr + i * BLOCK * BLOCK + r[:, None] * BLOCK + r[None, :])
        b = tl.load(b_ptr + (kb * BLOCK + r)[:, None] * N + rn[None, :], mask=rn[None, :] < N, other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + (pid_m * BLOCK + r)[:, None] * N + rn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=rn[None, :] < N)


@triton.jit
def csr_spmv_kernel(indptr_ptr, indices_ptr, data_ptr, x_ptr, y_ptr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    start = tl.load(indptr_ptr + row)
    end = tl.load(indptr_ptr + row + 1)
    acc = tl.zeros([BLOCK], tl.float32)
    for j0 in tl.range(start, end, BLOCK):
        j = j0 + tl.arange(0, BLOCK)
        m = j < end
        col = tl.load(indices_ptr + j, mask=m, other=0)
        v = tl.load(data_ptr + j, mask=m, other=0.0)
        acc += v * tl.load(x_ptr + col, mask=m, other=0.0)
    tl.store(y_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def _lse_combine(m1, s1, m2, s2):
    m = tl.maximum(m1, m2)
    m_safe = tl.where(m == float("-inf"), 0.0, m)
    return m, s1 * tl.exp(m1 - m_safe) + s2 * tl.exp(m2 - m_safe)


@triton.jit
def lse_median_kernel(x_ptr, lse_ptr, med_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + row * n + offs, mask=m, other=float("-inf"))
    mx, s = tl.reduce((x, tl.where(m, 1.0, 0.0)), 0, _lse_combine)
    tl.store(lse_ptr + row, mx + tl.log(s))
    # the lower median: sort with the padding at the top, pick element (n-1)//2
    srt = tl.sort(tl.where(m, x, float("inf")))
    med = tl.sum(tl.where(offs == (n - 1) // 2, srt, 0.0), axis=0)
    tl.store(med_ptr + row, med)


@triton.jit
def conv2d_direct_kernel(x_ptr, w_ptr, b_ptr, y_ptr, C, H, W, OC, OH, OW,
                         KH: tl.constexpr, KW: tl.constexpr, STRIDE: tl.constexpr, PAD: tl.constexpr,
                         BLOCK_OC: tl.constexpr, BLOCK_P: tl.constexpr):
    n = tl.program_id(0)
    pid_p = tl.program_id(1)
    oc = tl.arange(0, BLOCK_OC)
    p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    oh = p // OW
    ow = p % OW
    acc = tl.zeros([BLOCK_OC, BLOCK_P], tl.float32)
    for c in range(0, C):
        for kh in tl.static_range(KH):
            for kw in tl.static_range(KW):
                ih = oh * STRIDE - PAD + kh
                iw = ow * STRIDE - PAD + kw
                inb = (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W) & (p < OH * OW)
                xv = tl.load(x_ptr + ((n * C + c) * H + ih) * W + iw, mask=inb, other=0.0)
                wv = tl.load(w_ptr + ((oc * C + c) * KH + kh) * KW + kw, mask=oc < OC, other=0.0)
                acc += wv[:, None].to(tl.float32) * xv[None, :].to(tl.float32)
    acc += tl.load(b_ptr + oc, mask=oc < OC, other=0.0)[:, None]
    ymask = (oc[:, None] < OC) & (p[None, :] < OH * OW)
    tl.store(y_ptr + (n * OC + oc[:, None]) * (OH * OW) + p[None, :], acc.to(y_ptr.dtype.element_ty), mask=ymask)


@triton.jit
def dtype_sweep_kernel(x_ptr, idx_ptr, sort_ptr, csum_ptr, flip_ptr, gat_ptr, inter_ptr, red_ptr,
                       R: tl.constexpr, C: tl.constexpr):
    # sort / cumsum / flip / gather / interleave / argmax / min over one
    # [R, C] tile of any dtype (the same kernel text for each)
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + r * C + c)
    idx = tl.load(idx_ptr + r * C + c)
    tl.store(sort_ptr + r * C + c, tl.sort(x, dim=1, descending=True))
    tl.store(csum_ptr + r * C + c, tl.cumsum(x, axis=1, reverse=True).to(x.dtype))
    tl.store(flip_ptr + r * C + c, tl.flip(x, 1))
    tl.store(gat_ptr + r * C + c, tl.gather(x, idx, axis=1))
    tl.store(inter_ptr + r * (2 * C) + tl.arange(0, 2 * C)[None, :], tl.interleave(x, tl.flip(x, 0)))
    am = tl.argmax(x, axis=1, tie_break_left=True)
    mn = tl.min(x, axis=1)
    tl.store(red_ptr + tl.arange(0, R) * 2, am.to(x.dtype))
    tl.store(red_ptr + tl.arange(0, R) * 2 + 1, mn)


@triton.jit
def loop_bounds_kernel(x_ptr, out_ptr, lo, hi, step, BLOCK: tl.constexpr):
    # runtime bounds that may be empty (hi <= lo), a constexpr negative step
    # over runtime bounds, a runtime step, and a while that may not run
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    cnt = 0
    for i in range(lo, hi):
        acc += tl.load(x_ptr + i * BLOCK + offs)
        cnt += 1
    for i in range(hi - 1, lo - 1, -1):
        acc = acc * 0.5 + tl.load(x_ptr + i * BLOCK + offs)
    for i in tl.range(lo, hi, step):
        cnt += 10
    j = hi
    while j < lo:
        acc -= 1.0
        j += 1
    tl.store(out_ptr + offs, acc)
    tl.store(out_ptr + BLOCK, cnt.to(tl.float32))


@triton.jit
def split_flip_join_kernel(b_ptr, o_ptr, R: tl.constexpr, C: tl.constexpr):
    # an integer tile split in halves and joined back, flipped, joined with
    # itself and reduced (the GPU layout pass asked the halves' axis facts)
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    idx = r * C + c
    b = tl.load(b_ptr + idx).to(o_ptr.dtype.element_ty)
    lo, hi = tl.split(tl.reshape(b, [R, C // 2, 2]))
    t1 = tl.reshape(tl.join(hi, lo), [R, C])
    t2 = tl.flip(t1, 0)
    t3 = tl.reshape(tl.join(t2, t2 * 2), [R, C, 2]).max(2)
    tl.store(o_ptr + idx, t3)


@triton.jit
def carried_views_kernel(x_ptr, out_ptr, n, R: tl.constexpr, C: tl.constexpr):
    # loop-carried tiles yielded as views of themselves: reshaped and
    # transposed, transposed and swapped with another, through for and while
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + r * C + c)
    v = x
    for i in range(n):
        v = tl.reshape(tl.trans(tl.reshape(v, [C, R])), [R, C])
    a = tl.reshape(x, [R * C // 4, 4])
    b = tl.reshape(x * 2, [R * C // 4, 4])
    for i in range(n):
        a, b = tl.reshape(tl.trans(tl.reshape(b, [4, R * C // 4])), [R * C // 4, 4]), a
    w = tl.reshape(x, [C, R])
    j = 0
    while j < n:
        w = tl.reshape(tl.permute(tl.reshape(w, [2, C // 2, R]), 1, 0, 2), [C, R])
        j += 1
    tl.store(out_ptr + r * C + c, v)
    tl.store(out_ptr + R * C + r * C + c, tl.reshape(a - b, [R, C]))
    tl.store(out_ptr + 2 * R * C + r * C + c, tl.reshape(w, [R, C]))
