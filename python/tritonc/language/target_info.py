"""tritonc.language.target_info - Triton's constexpr functions on the target
a kernel is compiled for (`tl.target_info.cuda_capability_geq(9, 0)`), as
kernel-only builtins: the front end answers them for the CPU (neither CUDA
nor HIP) or the CUDA sm it builds for."""
from .core import _builtins

__all__ = _builtins(globals(), "tritonc.language.target_info", """
    current_target is_cuda cuda_capability_geq is_hip is_hip_cdna3 is_hip_cdna4
""")
