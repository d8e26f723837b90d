# A kernel that does not compile (the fake library rejects the token below),
# test_binding_units.py.
import tritonc as triton


@triton.jit
def broken(x_ptr):
    y = FAKE_ERROR + 1  # noqa: F821
    return y
