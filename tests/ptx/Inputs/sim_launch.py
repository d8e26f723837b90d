"""sim_launch.py - checks tritonc's PTX against tritonc's CPU backend on a real
launch, without a GPU.

    from sim_launch import check
    check(kernel, grid, *args, num_warps=4, BLOCK=128)   # like kernel[grid](*args, ...)

`kernel` is a tritonc JITFunction (a corpus kernel loaded by importlib, as
tests/python/*.py do), the arguments torch CPU tensors and scalars. The
launch is compiled for CUDA (cuda:90 unless `target=`) through the binding,
its PTX run by ptx_sim on copies of the arguments' storages (tensors that
share a storage share it in the simulator too), the same launch run by
the CPU backend on the tensors themselves, and then every tensor argument
compared: integers and booleans bit for bit, floats within a tolerance
(by dtype, or `tol={dtype: (rtol, atol)}`; NaNs must match NaNs).
Returns the simulated Kernel (its `stats`, `prints`). Raises Mismatch
with the first differing elements, or ptx_sim.SimError. With
`extra=[tensor, ...]`: tensors the kernel reaches through pointers held in
memory (pointer arrays), mapped and compared too (every storage sits at
its host address in the simulator, so stored pointers resolve). With
`sim_only=True` there is no CPU launch: the simulator's results are left in
the arguments (for kernels the CPU backend cannot run: inline PTX).
"""
import ctypes
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ptx_sim import Kernel, Ptr, SimError  # noqa: E402,F401

import tritonc._lib as _lib  # noqa: E402
import tritonc._spec as _spec  # noqa: E402
from tritonc.jit import _grid_eval  # noqa: E402

TOL = {torch.float32: (1e-4, 1e-5), torch.float64: (1e-9, 1e-12), torch.float16: (4e-3, 1e-3),
       torch.bfloat16: (2e-2, 1e-2)}
LAUNCH_OPTS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "debug", "enable_fp_fusion")


class Mismatch(AssertionError):
    pass


class CpuLaunchError(Exception):
    """The CPU launch itself raised (its exception is the __cause__)."""


CPU_DONE = False  # whether check's last call made its CPU launch


def CPU_LAUNCH(kernel, grid, args, kwargs):
    return kernel[grid](*args, **kwargs)


def _leaves(infos, values):
    """(ArgInfo, value) of every runtime leaf, tuples flattened, Nones dropped."""
    out = []
    for i, v in zip(infos, values):
        if i is None:
            continue
        if i.kind == "tuple":
            out += _leaves(i.value, v)
        elif i.kind != "none":
            out.append((i, v))
    return out


def compile_ptx(kernel, args, opts, target):
    kernel._add_fn_roots(args)  # (@jit function arguments: their sources join the kernel's)
    infos = kernel.classify_args(args)
    sig = _spec.signature_string([i for i in infos if i is not None])
    cx = kernel.constexpr_pairs(args, infos)
    src = kernel.source()
    handle, err = _lib.compile(src.encoded, src.filename, kernel.__name__, sig, cx, _lib.TC_DEVICE_CUDA,
                               opts.get("num_warps"), opts.get("num_stages"), target=target,
                               cache_dir=os.environ.get("TRITONC_CACHE_DIR"), debug=bool(opts.get("debug")))
    if err is not None:
        raise RuntimeError("%s: PTX compile failed: %s" % (kernel.__name__, err[0]))
    L = _lib.lib()
    ptx = L.tc_kernel_ir(handle, b"ptx").decode()
    shared = L.tc_kernel_attribute(handle, b"shared") if hasattr(L, "tc_kernel_attribute") else 1 << 16
    return ptx, shared, infos, sig


def _storage_key(t):
    s = t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()
    return s.data_ptr(), s.nbytes() if hasattr(s, "nbytes") else s.size() * t.element_size()


def check(kernel, grid, *args, target="cuda:90", tol=None, compare=None, cta_batch=None, cpu_on_error=False,
          sim_only=False, extra=(), **kwargs):
    global CPU_DONE
    CPU_DONE = False
    opts = {k: kwargs[k] for k in LAUNCH_OPTS if k in kwargs}
    bound = kernel._bind(args, kwargs)
    ptx, shared, infos, sig = compile_ptx(kernel, bound, opts, target)
    sim = Kernel(ptx)
    # the storages of every array argument, copied before the CPU launch
    views = {}    # id(argument) -> _View
    order = []

    def collect(v):
        if isinstance(v, tuple):
            for x in v:
                collect(x)
        elif getattr(type(v), "_tritonc_descriptor", False):  # a host TensorDescriptor: its fields, its tensor
            v._meta_pointer()
            collect(v._meta)
            collect(v.base)
        elif _is_array(v) and id(v) not in views:
            views[id(v)] = _View(v)
            order.append(views[id(v)])
    for v in tuple(bound) + tuple(extra):
        collect(v)
    storages = {}
    for vw in order:
        if vw.key not in storages:
            storages[vw.key] = np.frombuffer(bytearray(ctypes.string_at(vw.key[0], vw.key[1])), np.uint8) \
                if vw.key[1] else np.zeros(16, np.uint8)
    sim_args = []
    for info, v in _leaves(infos, bound):
        if info.kind == "int" and info.hint == 1:
            continue  # specialised on 1: no parameter
        if getattr(type(v), "_tritonc_descriptor", False):
            v = v._meta
        if _is_array(v):
            vw = views[id(v)]
            sim_args.append(Ptr(storages[vw.key], vw.offset, vw.key[0]))
        elif info.sig in ("fp32", "fp64", "fp16", "bf16"):
            sim_args.append(float(v))
        elif isinstance(v, (bool, np.bool_)):
            sim_args.append(int(v))
        elif isinstance(v, (int, np.integer)):
            sim_args.append(int(v))
        elif isinstance(v, float):
            sim_args.append(v)
        else:
            raise Unsupported("%s: argument of type %s" % (kernel.__name__, type(v).__name__))
    if len(sim_args) != len(sim.params):
        raise RuntimeError("%s: %d simulator arguments for %d PTX parameters (signature %s)" %
                           (kernel.__name__, len(sim_args), len(sim.params), sig))
    meta = {p.name: a for p, a in zip(kernel.params, bound)}
    meta.update(kwargs)
    g = _grid_eval(grid, meta)
    smem = max(16, -(-shared // 16) * 16)
    if cta_batch is None and "atom." in ptx:
        cta_batch = 1  # the CPU backend's order of CTAs, for the values atomics return
    # the simulator first: an access out of bounds is reported before the
    # CPU backend could scribble over the heap
    try:
        sim.run(g, sim_args, smem_bytes=smem, cta_batch=cta_batch,
                memory=[(key[0], buf) for key, buf in storages.items()])
    except Exception as e:
        if cpu_on_error:
            CPU_DONE = True
            try:
                CPU_LAUNCH(kernel, grid, args, kwargs)
            except Exception as e2:
                raise CpuLaunchError() from e2
        if isinstance(e, SimError):
            raise SimError("%s (signature %s, grid %s): %s" % (kernel.__name__, sig, tuple(g), e)) from None
        raise
    if sim_only:  # the simulator's results into the arguments' memory
        for key, buf in storages.items():
            ctypes.memmove(key[0], buf.ctypes.data, key[1])
        return sim
    # the CPU backend, on the arguments themselves
    try:
        CPU_DONE = True
        sim.cpu_result = CPU_LAUNCH(kernel, grid, args, kwargs)
    except Exception as e:
        raise CpuLaunchError() from e
    if os.environ.get("SIM_OPCODES"):  # the opcodes executed, appended to that file
        with open(os.environ["SIM_OPCODES"], "a") as f:
            f.write("".join(o + "\n" for o in sim.stats))
    # compare every array argument
    for n, vw in enumerate(order):
        if compare is not None and n not in compare:
            continue
        got = vw.sim_view(storages[vw.key])
        want = vw.cpu_view()
        t = (tol or {}).get(vw.kind, TOL.get(vw.kind))
        _compare(kernel.__name__, n, vw, got, want, t)
    return sim


class Unsupported(Exception):
    pass


def _is_array(v):
    return isinstance(v, (torch.Tensor, np.ndarray)) or type(v).__name__ == "TensorWrapper"


class _View:
    """An array argument: its storage (address, bytes), byte offset, and how
    to read it back as numpy (bf16 as its bits, kind "bf16")."""

    def __init__(self, v):
        if type(v).__name__ == "TensorWrapper":  # triton.reinterpret: compared as bits
            v = v.base
            raw = True
        else:
            raw = False
        self.obj = v
        if isinstance(v, torch.Tensor):
            if v.device.type != "cpu":
                raise Unsupported("CPU tensors only")
            self.key = _storage_key(v)
            self.offset = v.data_ptr() - self.key[0]
            es = v.element_size()
            self.kind = "bf16" if v.dtype == torch.bfloat16 else str(v.dtype).replace("torch.", "")
            self.np_dtype = np.dtype(UINT_BY_SIZE[es]) if v.dtype == torch.bfloat16 else \
                torch.empty(0, dtype=v.dtype).numpy().dtype
            self.shape, self.strides = tuple(v.shape), tuple(x * es for x in v.stride())
        else:
            if not (v.flags.c_contiguous or v.flags.f_contiguous):
                raise Unsupported("a non-contiguous numpy array")
            self.key = (v.ctypes.data, v.nbytes)
            self.offset = 0
            self.kind = v.dtype.name
            self.np_dtype = v.dtype
            self.shape, self.strides = v.shape, v.strides
        if raw:
            self.np_dtype = np.dtype(UINT_BY_SIZE[self.np_dtype.itemsize])
            self.kind = "raw"

    def sim_view(self, buf):
        return np.ndarray(self.shape, self.np_dtype, buffer=buf, offset=self.offset, strides=self.strides)

    def cpu_view(self):
        v = self.obj
        if isinstance(v, torch.Tensor):
            v = v.detach()
            if self.kind in ("bf16", "raw") or v.dtype == torch.bfloat16:
                v = v.view({1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[v.element_size()])
            return v.numpy().view(self.np_dtype)
        return v.view(self.np_dtype)


UINT_BY_SIZE = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
TOL.update({"float32": TOL.pop(torch.float32), "float64": TOL.pop(torch.float64),
            "float16": TOL.pop(torch.float16), "bf16": TOL.pop(torch.bfloat16)})


def _compare(name, n, vw, got, want, tol):
    kind = vw.kind
    if kind == "bf16":
        got, want = (np.ascontiguousarray(got).astype(np.uint32) << 16).view(np.float32), \
            (np.ascontiguousarray(want).astype(np.uint32) << 16).view(np.float32)
    what = "%s: array argument %d (%s %s)" % (name, n, kind, vw.shape)
    if got.dtype.kind != "f":
        bad = got != want
        if bad.any():
            idx = np.argwhere(bad)[:5].tolist()
            raise Mismatch("%s: %d of %d elements differ; first at %s: ptx %s, cpu %s" %
                           (what, int(bad.sum()), bad.size, idx, [got[tuple(i)].item() for i in idx],
                            [want[tuple(i)].item() for i in idx]))
        return
    rtol, atol = tol or (0.0, 0.0)
    g, w = got.astype(np.float64), want.astype(np.float64)
    with np.errstate(invalid="ignore"):
        nan_g, nan_w = np.isnan(g), np.isnan(w)
        close = (g == w) | (np.abs(g - w) <= atol + rtol * np.abs(w)) | (nan_g & nan_w)
    bad = ~close
    if bad.any():
        idx = np.argwhere(bad)[:5].tolist()
        err = np.abs(g - w)[bad & ~nan_g & ~nan_w]
        raise Mismatch("%s: %d of %d elements differ (max abs error %s); first at %s: ptx %s, cpu %s" %
                       (what, int(bad.sum()), bad.size, err.max() if err.size else "nan", idx,
                        [got[tuple(i)].item() for i in idx], [want[tuple(i)].item() for i in idx]))
