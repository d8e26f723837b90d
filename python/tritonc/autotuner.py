"""tritonc.autotuner - `triton.autotune`, `triton.heuristics`, `triton.Config`.

Same contract as Triton's: `@triton.autotune(configs, key)` over a @jit (or
@heuristics) kernel benchmarks every config the first time it sees a new value
of the `key` arguments (plus the dtypes of tensor arguments), keeps the
fastest per key in `cache`, and launches with it from then on.
`prune_configs_by` (`early_config_prune`, `perf_model`, `top_k`) shrinks the
list before benchmarking; `reset_to_zero` zeroes the named arguments before
each benchmarked run and `restore_value` puts the named arguments back after
(both so that kernels that accumulate see the caller's data); `warmup` and
`rep` are do_bench's times in ms. A config whose compile fails with
`OutOfResources` is skipped, as Triton does.
"""
import builtins
import time

from . import knobs
from .errors import OutOfResources
from .jit import KernelInterface


class Config:
    """A point of the tuning space: meta-parameter values (`kwargs`) and the
    compile options that go with them."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None,
                 pre_hook=None, ir_override=None, num_buffers_warp_spec=0, num_consumer_groups=0,
                 reg_dec_producer=0, reg_inc_consumer=0):
        # ir_override and the warp-specialisation knobs of newer Triton are
        # accepted and have no effect here
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook

    def all_kwargs(self):
        opts = {"num_warps": self.num_warps, "num_ctas": self.num_ctas,
                "num_stages": self.num_stages, "maxnreg": self.maxnreg}
        return {**self.kwargs, **{k: v for k, v in opts.items() if v is not None}}

    def __str__(self):
        parts = ["%s: %s" % (k, v) for k, v in self.kwargs.items()]
        parts += ["num_warps: %s" % self.num_warps, "num_ctas: %s" % self.num_ctas,
                  "num_stages: %s" % self.num_stages, "maxnreg: %s" % self.maxnreg]
        return ", ".join(parts)

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, Config) and self.all_kwargs() == other.all_kwargs()

    def __hash__(self):
        return hash(tuple(sorted((k, repr(v)) for k, v in self.all_kwargs().items())))


class Autotuner(KernelInterface):
    def __init__(self, fn, arg_names, configs, key, reset_to_zero=None, restore_value=None,
                 pre_hook=None, post_hook=None, prune_configs_by=None, warmup=None, rep=None,
                 use_cuda_graph=False, do_bench=None, cache_results=False):
        self.fn = fn
        self.arg_names = list(arg_names)
        self.configs = list(configs) if configs else [Config({}, num_warps=4, num_stages=3)]
        self.keys = list(key)
        self.cache = {}
        self.configs_timings = None
        self.best_config = None
        self.bench_time = 0.0
        self.num_warmups = warmup if warmup is not None else 25
        self.num_reps = rep if rep is not None else 100
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self.user_pre_hook, self.user_post_hook = pre_hook, post_hook
        prune_configs_by = prune_configs_by or {}
        self.perf_model = prune_configs_by.get("perf_model")
        self.configs_top_k = prune_configs_by.get("top_k", 1.0)
        self.early_config_prune = prune_configs_by.get("early_config_prune")
        for name in self.reset_to_zero + self.restore_value + self.keys:
            if name not in self.arg_names:
                raise ValueError("autotune: '%s' is not an argument of %s (arguments: %s)"
                                 % (name, getattr(fn, "__name__", fn), ", ".join(arg_names)))
        self._do_bench = do_bench
        self.__name__ = getattr(fn, "__name__", "kernel")
        self.__doc__ = getattr(fn, "__doc__", None)
        self.nargs = None

    # Triton's JITFunction surface, forwarded
    @property
    def src(self):
        return self.fn.src

    def _bench_fn(self):
        if self._do_bench is not None:
            return self._do_bench
        from .testing import do_bench
        return lambda f, quantiles: do_bench(f, warmup=self.num_warmups, rep=self.num_reps,
                                             quantiles=quantiles)

    def _pre_hook(self, nargs, reset_only=False):
        for name in self.reset_to_zero:
            _zero(nargs[name])
        if not reset_only:
            self.restore_copies = {n: _copy(nargs[n]) for n in self.restore_value}

    def _post_hook(self, nargs):
        for name in self.restore_value:
            _restore(nargs[name], self.restore_copies[name])
        self.restore_copies = {}

    def _bench(self, *args, config, **meta):
        conflicts = meta.keys() & config.kwargs.keys()
        if conflicts:
            raise ValueError("Conflicting meta-parameters: %s. Make sure that you don't "
                             "re-define auto-tuned symbols." % ", ".join(sorted(conflicts)))
        current = dict(meta, **config.all_kwargs())
        full_nargs = {**self.nargs, **current}

        def kernel_call():
            if config.pre_hook:
                config.pre_hook(full_nargs)
            self._pre_hook(full_nargs)
            try:
                self.fn.run(*args, **current)
            finally:
                self._post_hook(full_nargs)

        try:
            return self._bench_fn()(kernel_call, quantiles=(0.5, 0.2, 0.8))
        except OutOfResources:
            return [float("inf")] * 3

    def _key(self, args, kwargs):
        all_args = {**self.nargs, **kwargs}
        key = [all_args[k] for k in self.keys if k in all_args]
        for a in all_args.values():  # (keyword tensors too, as Triton's key)
            dt = getattr(a, "dtype", None)
            if dt is not None and hasattr(a, "shape"):
                key.append(str(dt))
        return tuple(key)

    def run(self, *args, **kwargs):
        self.nargs = dict(zip(self.arg_names, args))
        if len(self.configs) > 1:
            key = self._key(args, kwargs)
            if key not in self.cache:
                pruned = self.prune_configs(kwargs)
                t0 = time.perf_counter()
                timings = {c: self._bench(*args, config=c, **kwargs) for c in pruned}
                self.bench_time = time.perf_counter() - t0
                self.cache[key] = builtins.min(timings, key=lambda c: _first(timings[c]))
                # the benchmarked runs wrote into the reset_to_zero arguments:
                # zero them again for the real run, as Triton does
                self._pre_hook({**self.nargs, **kwargs, **self.cache[key].all_kwargs()}, reset_only=True)
                self.configs_timings = timings
                if knobs.autotuning.print:  # TRITON_PRINT_AUTOTUNING=1, as Triton reports it
                    print("Triton autotuning for function %s,\nwith key as %s,\nfinished after "
                          "%.2fs,\nbest config selected: %s;"
                          % (self.__name__, key, self.bench_time, self.cache[key]))
            config = self.cache[key]
        else:
            config = self.configs[0]
        self.best_config = config
        full_nargs = {**self.nargs, **kwargs, **config.all_kwargs()}
        if config.pre_hook is not None:
            config.pre_hook(full_nargs)
        ret = self.fn.run(*args, **kwargs, **config.all_kwargs())
        self.nargs = None
        return ret

    def prune_configs(self, kwargs):
        pruned = self.configs
        if self.early_config_prune:
            pruned = self.early_config_prune(self.configs, self.nargs, **kwargs)
            if not pruned:
                raise ValueError("autotune: early_config_prune left no config")
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(pruned) * top_k)
            top_k = builtins.max(1, top_k)
            if len(pruned) > top_k:
                est = {c: self.perf_model(**self.nargs, **kwargs, **c.all_kwargs())
                       for c in pruned}
                pruned = sorted(est, key=est.get)[:top_k]
        return pruned

    def warmup(self, *args, **kwargs):
        self.nargs = dict(zip(self.arg_names, args))
        ret = []
        for config in self.prune_configs(kwargs):
            ret.append(self.fn.warmup(*args, **kwargs, **config.all_kwargs()))
        self.nargs = None
        return ret


def _first(t):
    return t[0] if isinstance(t, (list, tuple)) else t


def _zero(a):
    if hasattr(a, "zero_"):
        a.zero_()
    elif hasattr(a, "fill"):
        a.fill(0)
    else:
        raise TypeError("reset_to_zero: cannot zero a %s" % type(a).__name__)


def _copy(a):
    return a.clone() if hasattr(a, "clone") else a.copy()


def _restore(a, saved):
    if hasattr(a, "copy_"):
        a.copy_(saved)
    else:
        a[...] = saved


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None,
             pre_hook=None, post_hook=None, warmup=None, rep=None, use_cuda_graph=False,
             do_bench=None, cache_results=False):
    """`@triton.autotune(configs=[triton.Config(...), ...], key=['n'])`."""

    def decorator(fn):
        return Autotuner(fn, fn.arg_names, configs, key, reset_to_zero, restore_value,
                         pre_hook=pre_hook, post_hook=post_hook,
                         prune_configs_by=prune_configs_by, warmup=warmup, rep=rep,
                         use_cuda_graph=use_cuda_graph, do_bench=do_bench,
                         cache_results=cache_results)

    return decorator


class Heuristics(KernelInterface):
    """Meta-parameters computed from the arguments: `values` maps a name to
    a function of the dict of all arguments."""

    def __init__(self, fn, arg_names, values):
        self.fn = fn
        self.values = values
        self.arg_names = list(arg_names)
        self.__name__ = getattr(fn, "__name__", "kernel")

    @property
    def src(self):
        return self.fn.src

    def run(self, *args, **kwargs):
        for v, heur in self.values.items():
            kwargs[v] = heur({**dict(zip(self.arg_names, args)), **kwargs})
        return self.fn.run(*args, **kwargs)

    def warmup(self, *args, **kwargs):
        for v, heur in self.values.items():
            kwargs[v] = heur({**dict(zip(self.arg_names, args)), **kwargs})
        return self.fn.warmup(*args, **kwargs)


def heuristics(values):
    """`@triton.heuristics({'EVEN_N': lambda args: args['n'] % args['BLOCK'] == 0})`."""

    def decorator(fn):
        return Heuristics(fn, fn.arg_names, values)

    return decorator
