import triton
import triton.language as tl


@triton.jit
def k_cuda_extra(out_ptr, t_ptr):
    tl.store(out_ptr, tl.extra.cuda.num_threads())
    tl.store(out_ptr + 1, tl.extra.cuda.num_warps())
    tl.store(out_ptr + 2, tl.extra.cuda.smid())
    t0 = tl.extra.cuda.globaltimer()
    tl.store(t_ptr, tl.extra.cuda.globaltimer() - t0)
