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
            # numpy round trips: an array's tensor goes to CUDA too, and a
            # CUDA tensor's .numpy() reads a host copy (the CPU scripts
            # compare with numpy this way)
            _from_numpy, _numpy = torch.from_numpy, torch.Tensor.numpy
            torch.from_numpy = lambda a: _from_numpy(a).to("cuda")

            def _numpy_of(self, *args, **kw):
                return _numpy(self.cpu() if self.is_cuda else self, *args, **kw)
            torch.Tensor.numpy = _numpy_of
    except Exception as e:  # noqa: BLE001  (no torch: the test says so itself)
        print("cuda_default: %s" % e)
