# RUN: not %tritonc compile %s --kernel k --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s
# A block pointer or tensor descriptor given a block of another element
# type to store is rejected at the value, as Triton asserts ("Block element
# type(...) and value element type(...) mismatch"); it was converted,
# silently. A number is still converted. Arithmetic on a block pointer
# names tl.advance (it was rewrite-tensor-pointer's "block pointers produced
# by 'tt.addptr' are not supported").
# CHECK: {{.*}}block_ptr_store_types.py:22:17: error: Block element type(fp32) and value element type(int32) mismatch
# CHECK: {{.*}}block_ptr_store_types.py:23:21: error: Block element type(fp32) and value element type(fp16) mismatch
# CHECK: {{.*}}block_ptr_store_types.py:26:9: error: a block pointer (pointer<<[16, 16], fp32>>) cannot be offset with + or -: use tl.advance(ptr, offsets)
# CHECK-NOT: error:
import triton
import triton.language as tl


@triton.jit
def k(x, n):
    p = tl.make_block_ptr(x, shape=(n, n), strides=(n, 1), offsets=(0, 0), block_shape=(16, 16), order=(1, 0))
    d = tl.make_tensor_descriptor(x, shape=[n, n], strides=[n, 1], block_shape=[16, 16])
    v = tl.load(p)
    tl.store(p, v + 1.0)
    tl.store(p, tl.zeros((16, 16), tl.int32))
    d.store([0, 0], v.to(tl.float16))
    d.store([16, 0], v)
    tl.store(p, 2.0)
    q = p + 1
