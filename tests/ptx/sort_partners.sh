# tl.sort's and tl.flip's partners (ptx_shared.c gather_xor): a tt.gather
# of `position ^ c` (flip: `n - 1 - position`) takes each element's partner
# from a register of its own thread when c's bits are the layout's register
# bits, by shfl.sync.bfly when they are lane bits, and goes through shared
# memory only for bits that cross warps. The directions' tests of position
# bits fold per slot: no and.b32 / setp.ne per element.
#
# (ONE) 256 elements in one warp (8 a thread): no shared memory at all; the
# lane strides 1..16 each a butterfly.
# RUN: %tritonc compile %S/Inputs/sort_only.py --kernel sort_kernel --signature '*fp32:16,*fp32:16' -D N=256 -D DESC=False --num-warps 1 --emit ptx --target cuda:90 > %t.one.ptx
# RUN: FileCheck %s --check-prefix=ONE < %t.one.ptx
# RUN: grep -c 'setp.ne' %t.one.ptx | FileCheck %s --check-prefix=FEWNE
# ONE-NOT: {{ld|st}}.shared
# ONE-NOT: bar.sync
# ONE: shfl.sync.bfly.b32 {{%f[0-9]+}}, {{%f[0-9]+}}, 1, 31, -1;
# ONE: shfl.sync.bfly.b32 {{%f[0-9]+}}, {{%f[0-9]+}}, 16, 31, -1;
# ONE-NOT: {{ld|st}}.shared
# ONE-NOT: bar.sync
# ONE: ret;
# (36 compare-exchange steps of 8 slots: fewer than 30 integer tests in all,
# where each slot's direction took one per step before)
# FEWNE: {{^([0-9]|[12][0-9])$}}
#
# (WARPS) 1024 elements over 4 warps: the strides that cross warps go through
# shared memory, the others do not.
# RUN: %tritonc compile %S/Inputs/sort_only.py --kernel sort_kernel --signature '*fp32:16,*fp32:16' -D N=1024 -D DESC=True --emit ptx --target cuda:90 > %t.warps.ptx
# RUN: FileCheck %s --check-prefix=WARPS < %t.warps.ptx
# WARPS: shfl.sync.bfly.b32
# WARPS: st.shared.b32
# WARPS: bar.sync
# WARPS: ld.shared.b32
#
# (FLIP) tl.flip of 64 in one warp: position ^ 63, lanes and registers.
# RUN: %tritonc compile %S/Inputs/sort_only.py --kernel flip_kernel --signature '*fp32:16,*fp32:16' -D N=64 --num-warps 1 --emit ptx --target cuda:90 | FileCheck %s --check-prefix=FLIP
# FLIP-NOT: {{ld|st}}.shared
# FLIP: shfl.sync.bfly.b32 {{%f[0-9]+}}, {{%f[0-9]+}}, 31, 31, -1;
# FLIP-NOT: {{ld|st}}.shared
# FLIP: ret;
