"""tritonc.runtime.errors - Triton's `triton.runtime.errors` names."""
from ..errors import OutOfResources  # noqa: F401

__all__ = ["OutOfResources"]
