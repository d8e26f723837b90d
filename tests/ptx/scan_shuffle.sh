# tt.scan in Triton's steps (ptx_shared.c): in-thread, then shfl.sync.up
# across the lanes along the axis (.down when reversed), then, with several
# warps along the axis, one round through shared memory: a store of the
# warp totals by the last lane, one bar.sync, a load per earlier warp; no
# shared memory at all with one warp along the axis, where the repetitions
# of the layout are chained with shfl.sync.idx.
#
# (ONE) 256 elements in one warp, two repetitions of a [4]x[32] layout.
# RUN: %tritonc compile %S/../kernels/scan_layouts.py --kernel cumsum_1d_kernel --signature '*i32:16,*i32:16,i32' -D BLOCK=256 -D REVERSE=False --num-warps 1 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=ONE
# ONE-NOT: bar.sync
# ONE-NOT: {{ld|st}}.shared
# ONE: shfl.sync.up.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 1, 0, -1;
# ONE: shfl.sync.up.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 16, 0, -1;
# ONE: shfl.sync.idx.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, 31, -1;
# ONE-NOT: bar.sync
# ONE-NOT: {{ld|st}}.shared
# ONE: ret;
#
# (WARPS) 1024 elements over 4 warps: one store of each chunk's warp total,
# one barrier, the earlier warps' totals loaded once each.
# RUN: %tritonc compile %S/../kernels/scan_layouts.py --kernel cumsum_1d_kernel --signature '*fp32:16,*fp32:16,i32' -D BLOCK=1024 -D REVERSE=False --emit ptx --target cuda:90 > %t.warps.ptx
# RUN: FileCheck %s --check-prefix=WARPS < %t.warps.ptx
# RUN: grep -c 'bar.sync' %t.warps.ptx | FileCheck %s --check-prefix=ONEBAR
# WARPS: shfl.sync.up.b32 {{%f[0-9]+}}, {{%f[0-9]+}}, 1, 0, -1;
# WARPS: shfl.sync.up.b32 {{%f[0-9]+}}, {{%f[0-9]+}}, 16, 0, -1;
# WARPS-NOT: ld.shared
# WARPS: @%p{{[0-9]+}} st.shared.b32
# WARPS-NOT: ld.shared
# WARPS: bar.sync 0;
# WARPS-NOT: st.shared
# WARPS-NOT: bar.sync
# WARPS: ld.shared.b32
# WARPS-NOT: st.shared
# WARPS-NOT: bar.sync
# WARPS: ret;
# ONEBAR: {{^1$}}
#
# (REV) a reversed scan shuffles down, clamped at lane 31.
# RUN: %tritonc compile %S/../kernels/scan_layouts.py --kernel scan_2d_kernel --signature '*fp32:16,*fp32:16,i32,i32' -D BM=32 -D BN=64 -D AXIS=1 -D REVERSE=True --emit ptx --target cuda:90 | FileCheck %s --check-prefix=REV
# REV-NOT: shfl.sync.up
# REV: shfl.sync.down.b32 {{%f[0-9]+}}, {{%f[0-9]+}}, 1, 31, -1;
# REV-NOT: shfl.sync.up
#
# The corpus scan: four scans, one of them across warps (a store, a barrier).
# RUN: %tritonc compile %S/../kernels/scans.py --kernel scan_kernel --signature '*fp32:16,*fp32:16,*fp32:16,*fp32:16,*i32:16,i32,i32,i32:16' -D BLOCK_M=8 -D BLOCK_N=64 --emit ptx --target cuda:90 > %t.corpus.ptx
# RUN: grep -c 'bar.sync' %t.corpus.ptx | FileCheck %s --check-prefix=ONEBAR
# RUN: grep -c 'st.shared' %t.corpus.ptx | FileCheck %s --check-prefix=CORPUS_ST
# CORPUS_ST: {{^4$}}
