"""Put on PYTHONPATH by bench/gpu/python_tests_on_cuda.sh: every tensor a
test makes without naming a device is made on CUDA (torch >= 2.0), so the
CPU test scripts of tests/python run their kernels on the GPU unchanged."""
import os

if os.environ.get("TRITONC_TEST_DEVICE", "cuda") == "cuda":
    try:
        import torch
        if torch.cuda.is_available():
            torch.set_default_device("cuda")
            # a generator made without a device draws for the default one
            _Generator = torch.Generator

            def _cuda_generator(device=None):
                return _Generator(device=device if device is not None else "cuda")
            torch.Generator = _cuda_generator
    except Exception as e:  # noqa: BLE001  (no torch: the test says so itself)
        print("cuda_default: %s" % e)
