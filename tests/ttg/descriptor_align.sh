# A host TensorDescriptor's base is 16-byte aligned and its row stride a
# multiple of 16 bytes (TensorDescriptor asserts both, as TMA requires), so
# its rows start aligned; with `:16` (the binding's mark for a last
# dimension whose size is a multiple of 16) the bounds check along the row
# is constant over 16 elements too, and the load and store move 8 fp16 per
# access. Without it the size of the last dimension may end inside a vector:
# one element per access.
# RUN: %tritonc compile %S/Inputs/descriptor_tile.py --kernel desc_copy_kernel --signature 'tensordesc<fp16[32, 64]>:16,tensordesc<fp16[32, 64]>:16' -D BLOCK_M=32 -D BLOCK_N=64 --emit ttgir --target cuda:90 | FileCheck %s --check-prefix=DIV16
# DIV16-DAG: [[B:#blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8],
# DIV16: tt.load {{.*}}tensor<32x64x!tt.ptr<f16>, [[B]]>
# DIV16: tt.store {{.*}}tensor<32x64x!tt.ptr<f16>, [[B]]>
# RUN: %tritonc compile %S/Inputs/descriptor_tile.py --kernel desc_copy_kernel --signature 'tensordesc<fp16[32, 64]>,tensordesc<fp16[32, 64]>' -D BLOCK_M=32 -D BLOCK_N=64 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=ANY
# ANY: ld.global{{.*}}.b16
# ANY-NOT: ld.global{{.*}}.v4
# ANY: st.global{{.*}}.b16
# ANY-NOT: st.global{{.*}}.v4
# The PTX of the :16 form assembles and uses 16-byte accesses.
# RUN: %tritonc compile %S/Inputs/descriptor_tile.py --kernel desc_copy_kernel --signature 'tensordesc<fp16[32, 64]>:16,tensordesc<fp16[32, 64]>:16' -D BLOCK_M=32 -D BLOCK_N=64 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=PTX
# PTX: ld.global{{.*}}.v4.b32
# PTX: st.global{{.*}}.v4.b32
