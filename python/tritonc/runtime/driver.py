"""tritonc.runtime.driver - `driver.active`: which device kernels run on.

The CPU until the CUDA backend lands; scripts that ask for the active torch
device get `torch.device("cpu")`."""


class _Target:
    def __init__(self, backend, arch, warp_size):
        self.backend, self.arch, self.warp_size = backend, arch, warp_size

    def __repr__(self):
        return "GPUTarget(%r, %r, %r)" % (self.backend, self.arch, self.warp_size)


class _CpuUtils:
    @staticmethod
    def get_device_properties(device=0):
        import os
        return {"max_shared_mem": 1 << 20, "multiprocessor_count": os.cpu_count() or 1,
                "max_num_regs": 65536, "warpSize": 1, "sm_clock_rate": 0,
                "mem_clock_rate": 0, "mem_bus_width": 0}


class _CpuDriver:
    utils = _CpuUtils()

    def get_current_target(self):
        return _Target("cpu", "cpu", 1)

    def get_active_torch_device(self):
        import torch
        return torch.device("cpu")

    def get_current_device(self):
        return 0

    def get_current_stream(self, device=None):
        return 0

    def get_device_interface(self):
        return None





active = _CpuDriver()
