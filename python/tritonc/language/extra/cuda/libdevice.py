"""tritonc.language.extra.cuda.libdevice - the same names as extra.libdevice."""
from ...core import _builtins
from ..libdevice import NAMES

__all__ = _builtins(globals(), "tritonc.language.extra.cuda.libdevice", NAMES)
