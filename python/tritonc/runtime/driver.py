"""tritonc.runtime.driver - `driver.active`: the device kernels run on.

CUDA when torch sees a GPU (kernels then run through tritonc's PTX backend),
else the CPU. Scripts written for Triton ask it for the torch device to
allocate on (`get_active_torch_device()`), for the target
(`get_current_target().backend`) and for the device's properties, which the
fused-softmax tutorial turns into an occupancy (see CompiledKernel.n_regs and
metadata.shared in jit.py for what the CPU reports).

`active` decides on first use, so importing tritonc does not import torch.
"""
import os


class GPUTarget:
    def __init__(self, backend, arch, warp_size):
        self.backend, self.arch, self.warp_size = backend, arch, warp_size

    def __eq__(self, other):
        return (isinstance(other, GPUTarget) and
                (self.backend, self.arch, self.warp_size) == (other.backend, other.arch, other.warp_size))

    def __hash__(self):
        return hash((self.backend, self.arch, self.warp_size))

    def __repr__(self):
        return "GPUTarget(%r, %r, %r)" % (self.backend, self.arch, self.warp_size)


_Target = GPUTarget  # the old name

# What the CPU reports: one "SM" per core, a "shared memory" that a kernel
# reports using whole (metadata.shared), so an occupancy computed as in the
# fused-softmax tutorial comes out as one program per core.
CPU_MAX_SHARED_MEM = 1 << 20


class _CpuUtils:
    @staticmethod
    def get_device_properties(device=0):
        return {"max_shared_mem": CPU_MAX_SHARED_MEM, "multiprocessor_count": os.cpu_count() or 1,
                "max_num_regs": 65536, "warpSize": 1, "sm_clock_rate": 0,
                "mem_clock_rate": 0, "mem_bus_width": 0}


class _CpuDriver:
    backend = "cpu"
    utils = _CpuUtils()

    def get_current_target(self):
        return GPUTarget("cpu", "cpu", 1)

    def get_active_torch_device(self):
        import torch
        return torch.device("cpu")

    def get_current_device(self):
        return 0

    def set_current_device(self, device):
        pass

    def get_current_stream(self, device=None):
        return 0

    def get_device_interface(self):
        return None

    def get_benchmarker(self):
        from ..testing import do_bench
        return do_bench

    def get_empty_cache_for_benchmark(self):
        import torch
        return torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32)

    def clear_cache(self, cache):
        cache.zero_()

    def is_active(self):
        return True


class _CudaUtils:
    @staticmethod
    def get_device_properties(device=0):
        import torch
        p = torch.cuda.get_device_properties(device if device is not None else torch.cuda.current_device())
        return {"max_shared_mem": getattr(p, "shared_memory_per_block_optin", 232448),
                "multiprocessor_count": p.multi_processor_count,
                "max_num_regs": getattr(p, "regs_per_multiprocessor", 65536),
                "warpSize": getattr(p, "warp_size", 32),
                "sm_clock_rate": getattr(p, "clock_rate", 0),
                "mem_clock_rate": getattr(p, "memory_clock_rate", 0),
                "mem_bus_width": getattr(p, "memory_bus_width", 0)}


class _CudaDriver(_CpuDriver):
    backend = "cuda"
    utils = _CudaUtils()

    def get_current_target(self):
        import torch
        major, minor = torch.cuda.get_device_capability()
        return GPUTarget("cuda", 10 * major + minor, 32)

    def get_active_torch_device(self):
        import torch
        return torch.device("cuda", torch.cuda.current_device())

    def get_current_device(self):
        import torch
        return torch.cuda.current_device()

    def set_current_device(self, device):
        import torch
        torch.cuda.set_device(device)

    def get_current_stream(self, device=None):
        import torch
        return torch.cuda.current_stream(device).cuda_stream

    def get_device_interface(self):
        import torch
        return torch.cuda


def _cuda_usable():
    if os.environ.get("TRITONC_DEVICE", "").lower() == "cpu":
        return False
    try:
        import torch
        return bool(torch.cuda.is_available())
    except Exception:
        return False


class _Active:
    """driver.active: the CUDA driver when torch has a GPU, else the CPU's."""

    def __init__(self):
        self._d = None

    def _driver(self):
        if self._d is None:
            self._d = _CudaDriver() if _cuda_usable() else _CpuDriver()
        return self._d

    def __getattr__(self, name):
        return getattr(self._driver(), name)

    def __repr__(self):
        return "<tritonc driver: %s>" % self._driver().backend


active = _Active()
