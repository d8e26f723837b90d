# RUN: not %tritonc compile %s --kernel k --signature '*fp32,(scale=fp32,n=i32)' --emit ttir 2>&1 | FileCheck %s
# RUN: not %tritonc compile %s --kernel k --signature '*fp32,(scale=fp32,i32)' --emit ttir 2>&1 | FileCheck %s --check-prefix=MIXED
# RUN: not %tritonc compile %s --kernel ok --signature '*fp32,(n=fp32,n=i32)' --emit ttir 2>&1 | FileCheck %s --check-prefix=TWICE
# RUN: %tritonc compile %s --kernel ok --signature '*fp32,(scale=fp32,n=i32:16)' --emit ttir | FileCheck %s --check-prefix=OK
# CHECK: {{.*}}namedtuple_fields.py:16:21: error: this named tuple has no field 'bias'
# MIXED: error: the tuple entry '(scale=fp32,i32)' for parameter 'cfg' names some of its elements and not others
# TWICE: error: the tuple entry '(n=fp32,n=i32)' for parameter 'cfg' names 'n' twice
# OK: tt.func public @ok(%arg0: !tt.ptr<f32>, %arg1: f32, %arg2: i32 {tt.divisibility = 16 : i32})
# OK: arith.mulf
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, cfg):
    tl.store(x_ptr, cfg.bias)


@triton.jit
def ok(x_ptr, cfg):
    tl.store(x_ptr + cfg.n, cfg.scale * 2.0)
