# A deformable convolution (vision_ops.py, fp16, 16 x 16 tiles): its x
# loads gather at pixel offsets computed from loaded (dy, dx), and the
# ranges of its pixels and its output channels are one `tl.arange(0, 16)`
# after CSE. The only conversion left is the result's, before its store
# (Triton's kernel has the same one): no pointer, mask or index tile is
# converted (the shared range is recomputed in each layout, the gathered
# offsets are made in the layout of the loads they address), the nine
# taps' 16-element loads of (dy, dx, mask) take the pixel layout of their
# users, and the gathered tiles feed the dot where they are.
# RUN: %tritonc compile %S/../kernels/vision_ops.py --kernel deform_conv2d_kernel --signature '*fp16:16,*fp32:16,*fp32:16,*fp16:16,*fp16:16,i32,i32,i32,i32:16,i32,i32,i32,i32' --target cuda:90 --emit ttgir -D KSIZE=3 -D BLOCK_P=16 -D BLOCK_OC=16 -D BLOCK_C=16 | grep convert_layout | FileCheck %s
# CHECK-NOT: xi32
# CHECK-NOT: xi1,
# CHECK-NOT: !tt.ptr
# CHECK-NOT: xf32
# CHECK: ttg.convert_layout %{{[0-9#]+}} : tensor<16x16xf16, #blocked{{[0-9]*}}> -> tensor<16x16xf16, #blocked{{[0-9]*}}>
# CHECK-NOT: convert_layout
