"""tritonc.tools.tensor_descriptor - `TensorDescriptor`, a tensor descriptor
made on the host and passed to a kernel, as Triton's
`triton.tools.tensor_descriptor` (Hopper's TMA descriptors).

A kernel parameter given one is spelled `tensordesc<fp16[64, 64]>` in the
signature: the element type and the block shape are part of the
specialisation (an autotuner's pre_hook may change `block_shape` before each
launch). At launch the kernel gets the address of 1 + 2 * rank int64 values,
{base address, shape..., strides...}, kept in a small tensor on the base's
device that lives as long as this object; the kernel reads them once and
builds the descriptor `tl.make_tensor_descriptor` would (src/sema:
sem_host_descriptor). Triton's checks on the arguments are kept.
"""
from dataclasses import dataclass
from typing import Any, List


@dataclass
class TensorDescriptor:
    base: Any
    shape: List[int]
    strides: List[int]
    block_shape: List[int]
    padding: str = "zero"

    _tritonc_descriptor = True  # how the launcher recognises one without importing this module

    def __post_init__(self):
        rank = len(self.shape)
        assert len(self.strides) == rank, f"rank mismatch: {self}"
        assert len(self.block_shape) == rank, f"rank mismatch: {self}"
        assert 0 < rank <= 5, "rank must be between 1 and 5"
        assert self.base.data_ptr() % 16 == 0, "base must be 16-byte aligned"
        elem_bytes = self.base.element_size() if hasattr(self.base, "element_size") else self.base.itemsize
        for stride in list(self.strides)[:-1]:
            assert (int(stride) * elem_bytes) % 16 == 0, "strides must be 16-byte aligned"
        assert int(self.strides[-1]) == 1, "Last dimension must be contiguous"
        assert self.padding in ("zero", "nan"), "Illegal value for padding"
        self._meta = None
        self._meta_key = None

    @staticmethod
    def from_tensor(tensor: Any, block_shape: List[int], padding="zero"):
        return TensorDescriptor(tensor, list(tensor.shape), list(tensor.stride()), block_shape, padding)

    # -- what the launcher uses ------------------------------------------------
    def _fields(self):
        return [self.base.data_ptr()] + [int(s) for s in self.shape] + [int(s) for s in self.strides]

    def _meta_pointer(self):
        """The device address of {base, shape, strides} as int64s."""
        fields = self._fields()
        key = (tuple(fields), str(getattr(self.base, "device", "cpu")))
        if self._meta_key != key:
            torch_mod = type(self.base).__module__.split(".")[0] == "torch"
            if torch_mod:
                import torch
                self._meta = torch.tensor(fields, dtype=torch.int64, device=self.base.device)
            else:
                import numpy as np
                self._meta = np.array(fields, dtype=np.int64)
            self._meta_key = key
        m = self._meta
        return m.data_ptr() if hasattr(m, "data_ptr") else m.ctypes.data

    def _signature(self, elem_sig):
        block = ",".join(str(int(b)) for b in self.block_shape)
        pad = ",nan" if self.padding == "nan" else ""
        return "tensordesc<%s[%s]%s>" % (elem_sig, block, pad)
