"""tritonc.knobs - Triton 3.6's `triton.knobs`: the configuration object
whose attributes stand for environment variables.

    triton.knobs.cache.dir              TRITON_CACHE_DIR
    triton.knobs.runtime.interpret      TRITON_INTERPRET
    triton.knobs.runtime.debug          TRITON_DEBUG
    triton.knobs.autotuning.print       TRITON_PRINT_AUTOTUNING
    ...

As in Triton, reading a knob that was not assigned reads its variable (so a
change of os.environ is seen); assigning a bool, int or str also sets the
variable (so the C library, which reads the environment, sees it too);
assigning `triton.knobs.env` or deleting the attribute goes back to the
variable. Each group has `knobs` (a dict of its values), `reset()`, `copy()`
and `scope()` (a context manager that restores the group and its variables).

What tritonc does with them: `cache.dir` is where compiled kernels are kept
(TRITONC_CACHE_DIR, when set, comes first; unassigned and without either
variable it reads tritonc's default folder, not Triton's ~/.triton/cache);
`runtime.debug` is the default of @jit(debug=...); `autotuning.print` prints
the autotuner's choice. `runtime.interpret` is reported only: tritonc has no
interpreter, and kernels on CPU tensors run compiled on the CPU.
`runtime.launch_enter_hook` / `launch_exit_hook` (HookChains: `.add(f)`,
`.remove(f)`; or a callable assigned) are called around every launch with
its LazyDict (`md.data["name"]`, `md.get()`) while one is set: launches then
take the Python path (jit._hooks_changed tells the C launcher). The other
knobs are there so that scripts that set them run; they change nothing.
"""
import contextlib
import os


class Env:
    """Assigning `knobs.env` to a knob makes it read its variable again."""


env = Env()
propagate_env = True
_UNSET = object()


def _to_env(v):
    if v is None:
        return None, True
    if type(v) is bool:
        return ("1" if v else "0"), True
    if type(v) in (int, str):
        return str(v), True
    return None, False  # (a value the environment cannot hold: kept in Python only)


def _setenv(key, value):
    if not propagate_env:
        return
    if value is not None:
        os.environ[key] = value
    else:
        os.environ.pop(key, None)


class _knob:
    """A data descriptor: an assigned value, else the variable `key`."""

    def __init__(self, key, default=None, kind="str"):
        self.key, self.default, self.kind = key, default, kind

    def __set_name__(self, owner, name):
        self.name = name

    def read_env(self):
        v = os.environ.get(self.key)
        if v is None:
            return self.default() if callable(self.default) else self.default
        if self.kind == "bool":
            return v.strip().lower() in ("1", "true", "on", "yes", "y")
        if self.kind == "int":
            try:
                return int(v)
            except ValueError:
                raise RuntimeError("Unable to use %s=%s: expected int" % (self.key, v)) from None
        return v

    def __get__(self, obj, owner):
        if obj is None:
            return self
        v = obj.__dict__.get(self.name, _UNSET)
        return self.read_env() if v is _UNSET else v

    def __set__(self, obj, value):
        if isinstance(value, Env):
            obj.__dict__.pop(self.name, None)
            return
        obj.__dict__[self.name] = value
        text, ok = _to_env(value)
        if ok:
            _setenv(self.key, text)

    def __delete__(self, obj):
        obj.__dict__.pop(self.name, None)


class HookChain:
    """Triton's chain of hooks (launch_enter_hook, ...): calling it calls
    every hook added. The launch hooks are called around every launch
    while one is set (launches then take the Python path; see
    jit._hooks_changed); an empty chain is false."""

    def __init__(self, reversed=False):
        self.calls, self.reversed = [], reversed

    def __bool__(self):
        return bool(self.calls)

    def add(self, func):
        if func not in self.calls:
            self.calls.append(func)
            _hooks_changed()

    def remove(self, func):
        if func in self.calls:
            self.calls.remove(func)
            _hooks_changed()

    def __call__(self, *args, **kwargs):
        for f in (self.calls[::-1] if self.reversed else self.calls):
            f(*args, **kwargs)


_HOOK_NAMES = ("launch_enter_hook", "launch_exit_hook")


def _hooks_changed():
    """Tells the launchers whether a launch hook is set."""
    from .jit import _hooks_changed as changed  # (tritonc.jit the module, not the decorator)
    changed()


class base_knobs:
    @property
    def knob_descriptors(self):
        return {k: v for k, v in type(self).__dict__.items() if isinstance(v, _knob)}

    @property
    def knobs(self):
        return {k: getattr(self, k) for k in self.knob_descriptors}

    def copy(self):
        c = type(self)()
        c.__dict__.update(self.__dict__)
        return c

    def reset(self):
        for k in self.knob_descriptors:
            delattr(self, k)
        return self

    @contextlib.contextmanager
    def scope(self):
        saved_env = {d.key: os.environ.get(d.key) for d in self.knob_descriptors.values()}
        saved = dict(self.__dict__)
        try:
            yield
        finally:
            self.__dict__.clear()
            self.__dict__.update(saved)
            if isinstance(self, runtime_knobs):
                _hooks_changed()
            for k, v in saved_env.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


def _home():
    return os.environ.get("TRITON_HOME") or os.path.expanduser("~/")


def _cache_dir():
    from . import _lib
    return _lib.cache_dir()


class cache_knobs(base_knobs):
    home_dir = _knob("TRITON_HOME", lambda: os.path.expanduser("~/"))
    dir = _knob("TRITON_CACHE_DIR", _cache_dir)
    dump_dir = _knob("TRITON_DUMP_DIR", lambda: os.path.join(_home(), ".triton", "dump"))
    override_dir = _knob("TRITON_OVERRIDE_DIR", lambda: os.path.join(_home(), ".triton", "override"))
    manager_class = _knob("TRITON_CACHE_MANAGER")
    remote_manager_class = _knob("TRITON_REMOTE_CACHE_BACKEND")

    def get_triton_dir(self, dirname):
        return os.path.join(self.home_dir, ".triton", dirname)


class compilation_knobs(base_knobs):
    override = _knob("TRITON_KERNEL_OVERRIDE", False, "bool")
    dump_ir = _knob("TRITON_KERNEL_DUMP", False, "bool")
    store_binary_only = _knob("TRITON_STORE_BINARY_ONLY", False, "bool")
    always_compile = _knob("TRITON_ALWAYS_COMPILE", False, "bool")
    use_ir_loc = _knob("USE_IR_LOC")
    enable_asan = _knob("TRITON_ENABLE_ASAN", False, "bool")
    disable_line_info = _knob("TRITON_DISABLE_LINE_INFO", False, "bool")
    front_end_debugging = _knob("TRITON_FRONT_END_DEBUGGING", False, "bool")
    allow_non_constexpr_globals = _knob("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS", False, "bool")
    listener = None


class autotuning_knobs(base_knobs):
    cache = _knob("TRITON_CACHE_AUTOTUNING", False, "bool")
    print = _knob("TRITON_PRINT_AUTOTUNING", False, "bool")


class runtime_knobs(base_knobs):
    interpret = _knob("TRITON_INTERPRET", False, "bool")
    debug = _knob("TRITON_DEBUG", False, "bool")
    override_arch = _knob("TRITON_OVERRIDE_ARCH")
    launch_enter_hook = HookChain()
    launch_exit_hook = HookChain(reversed=True)
    kernel_load_start_hook = HookChain()
    kernel_load_end_hook = HookChain(reversed=True)
    jit_cache_hook = None
    jit_post_compile_hook = None
    add_stages_inspection_hook = None

    # assigning a launch hook (a callable or None, as Triton's proton does)
    # tells the launchers too
    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if name in _HOOK_NAMES:
            _hooks_changed()

    def __delattr__(self, name):
        object.__delattr__(self, name)
        if name in _HOOK_NAMES:
            _hooks_changed()


class language_knobs(base_knobs):
    fp32_default = _knob("TRITON_F32_DEFAULT")
    default_fp_fusion = _knob("TRITON_DEFAULT_FP_FUSION", True, "bool")


class build_knobs(base_knobs):
    cc = _knob("CC")
    cudacrt_path = _knob("TRITON_CUDACRT_PATH")
    cudart_path = _knob("TRITON_CUDART_PATH")
    impl = None


class nvidia_knobs(base_knobs):
    dump_nvptx = _knob("NVPTX_ENABLE_DUMP", False, "bool")
    disable_ptxas_opt = _knob("DISABLE_PTXAS_OPT", False, "bool")
    ptxas_options = _knob("PTXAS_OPTIONS")
    mock_ptx_version = _knob("TRITON_MOCK_PTX_VERSION")
    dump_ptxas_log = _knob("TRITON_DUMP_PTXAS_LOG", False, "bool")
    libdevice_path = _knob("TRITON_LIBDEVICE_PATH")
    libcuda_path = _knob("TRITON_LIBCUDA_PATH")


class amd_knobs(base_knobs):
    use_buffer_ops = _knob("AMDGCN_USE_BUFFER_OPS", True, "bool")
    dump_amdgcn = _knob("AMDGCN_ENABLE_DUMP", False, "bool")


build = build_knobs()
cache = cache_knobs()
compilation = compilation_knobs()
autotuning = autotuning_knobs()
runtime = runtime_knobs()
language = language_knobs()
nvidia = nvidia_knobs()
amd = amd_knobs()
