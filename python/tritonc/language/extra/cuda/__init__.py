"""tritonc.language.extra.cuda - `libdevice` and the CUDA-only builtins."""
from . import libdevice  # noqa: F401
from ...core import _builtins

__all__ = ["libdevice"] + _builtins(globals(), "tritonc.language.extra.cuda", """
    globaltimer smid num_threads num_warps convert_custom_float8_sm70
    convert_custom_float8_sm80 gdc_wait gdc_launch_dependents
""")
