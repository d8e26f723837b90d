"""tritonc.tools - Triton's `triton.tools` names that kernels' host code uses."""
