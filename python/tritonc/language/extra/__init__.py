"""tritonc.language.extra - vendor libraries (`extra.cuda.libdevice`) and the
portable `extra.libdevice`."""
from . import cuda, libdevice  # noqa: F401
