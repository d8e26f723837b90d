"""tritonc.testing - `do_bench`, `do_bench_cudagraph`, `assert_close`,
`Benchmark` and `perf_report` with Triton's signatures.

`do_bench` times `fn` with the wall clock (`time.perf_counter`) around each
call; when torch has initialised CUDA it synchronises before reading the
clock, so asynchronous GPU launches are timed to completion. Like Triton it
estimates one call's time from a few calls, then runs `warmup` ms of calls
untimed and `rep` ms timed, and returns the median (`return_mode`, or the
`quantiles` asked for) in milliseconds. Triton's default return_mode is
"mean" while its docstring promises the median; tritonc returns the median.
"""
import os
import math
import sys
import time


def _sync():
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized():
        torch.cuda.synchronize()


def _quantile(sorted_times, q):
    if not sorted_times:
        return float("nan")
    pos = q * (len(sorted_times) - 1)
    lo, hi = math.floor(pos), math.ceil(pos)
    return sorted_times[lo] + (sorted_times[hi] - sorted_times[lo]) * (pos - lo)


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="mean",
             fast_flush=True):
    """The run time of fn() in ms: the mean of the timed runs unless
    return_mode or quantiles say otherwise, as Triton's do_bench returns."""
    assert return_mode in ("min", "max", "mean", "median", "all")
    clock = time.perf_counter
    fn()
    _sync()
    t0 = clock()
    for _ in range(5):
        fn()
    _sync()
    estimate_ms = max((clock() - t0) * 1e3 / 5, 1e-6)
    n_warmup = max(1, int(warmup / estimate_ms))
    n_repeat = max(1, int(rep / estimate_ms))
    n_repeat = min(n_repeat, 1_000_000)
    for _ in range(min(n_warmup, 1_000_000)):
        fn()
    times = []
    for _ in range(n_repeat):
        if grad_to_none is not None:
            for x in grad_to_none:
                x.grad = None
        _sync()
        t = clock()
        fn()
        _sync()
        times.append((clock() - t) * 1e3)
    if quantiles is not None:
        s = sorted(times)
        ret = [_quantile(s, q) for q in quantiles]
        return ret[0] if len(ret) == 1 else ret
    if return_mode == "all":
        return times
    import statistics  # here, not at import: it pulls in fractions (~2 ms)
    if return_mode == "median":
        return statistics.median(times)
    return {"min": min, "max": max, "mean": statistics.fmean}[return_mode](times)


def do_bench_cudagraph(fn, rep=20, grad_to_none=None, quantiles=None, return_mode="mean"):
    """Triton's do_bench_cudagraph: the time of fn() in ms, replayed from a
    CUDA graph (no launch overhead) when torch has CUDA; elsewhere (the CPU
    backend) do_bench's wall-clock measurement. fn runs once before the
    capture, so that a first launch's compile happens outside it."""
    assert return_mode in ("min", "max", "mean", "median", "all")
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available():
        return do_bench(fn, rep=rep, grad_to_none=grad_to_none, quantiles=quantiles,
                        return_mode=return_mode)
    with torch.cuda.stream(torch.cuda.Stream()):
        fn()
        if grad_to_none is not None:
            for x in grad_to_none:
                x.detach_()
                x.requires_grad_(True)
                x.grad = None
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        # one call's time, from a graph of one call
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            fn()
        torch.cuda.synchronize()
        start.record()
        g.replay()
        end.record()
        torch.cuda.synchronize()
        estimate_ms = max(start.elapsed_time(end), 1e-4)
        n_repeat = max(1, int(rep / estimate_ms))
        # a graph of n_repeat calls, replayed ten times
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(n_repeat):
                if grad_to_none is not None:
                    for x in grad_to_none:
                        x.grad = None
                fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(10):
            start.record()
            g.replay()
            end.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(end) / n_repeat)
    if quantiles is not None:
        s = sorted(times)
        ret = [_quantile(s, q) for q in quantiles]
        return ret[0] if len(ret) == 1 else ret
    if return_mode == "all":
        return times
    import statistics
    if return_mode == "median":
        return statistics.median(times)
    return {"min": min, "max": max, "mean": statistics.fmean}[return_mode](times)


def _to_numpy(x):
    import numpy as np
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(x, torch.Tensor):
        x = x.detach().cpu()
        if x.dtype in (torch.bfloat16,) or str(x.dtype).startswith("torch.float8"):
            x = x.float()
        return x.numpy()
    return np.asarray(x)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """Triton's assert_close: numpy's assert_allclose with atol 1e-2 and rtol
    0 unless given (either may be a function of the dtype), NaNs equal."""
    import numpy as np
    if isinstance(x, (int, float)) and isinstance(y, (int, float)):
        x, y = np.asarray(x), np.asarray(y)
    dt = getattr(x, "dtype", None)
    if callable(atol):
        atol = atol(dt)
    if callable(rtol):
        rtol = rtol(dt)
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    xn, yn = _to_numpy(x), _to_numpy(y)
    if xn.size > 1 and yn.size > 1 and xn.shape != yn.shape:
        raise AssertionError("shapes differ: %s vs %s %s" % (xn.shape, yn.shape, err_msg))
    np.testing.assert_allclose(xn, yn, atol=atol, rtol=rtol, equal_nan=True, err_msg=err_msg)


class Benchmark:
    """One plot of perf_report: x values, the lines to measure, labels."""

    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names, plot_name, args,
                 xlabel="", ylabel="", x_log=False, y_log=False, styles=None, color=None):
        self.x_names, self.x_vals = list(x_names), list(x_vals)
        self.line_arg, self.line_vals, self.line_names = line_arg, list(line_vals), list(line_names)
        self.plot_name, self.args = plot_name, dict(args)
        self.xlabel, self.ylabel = xlabel, ylabel
        self.x_log, self.y_log, self.styles = x_log, y_log, styles


class Mark:
    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def _run(self, bench, print_data, save_path="", save_precision=6, **kwargs):
        rows = []
        for x in bench.x_vals:
            xs = x if isinstance(x, (list, tuple)) else [x] * len(bench.x_names)
            xa = dict(zip(bench.x_names, xs))
            row = list(xs)
            for lv in bench.line_vals:
                r = self.fn(**xa, **{bench.line_arg: lv}, **bench.args, **kwargs)
                row.append(r[0] if isinstance(r, (list, tuple)) else r)
            rows.append(row)
        if print_data:
            print(bench.plot_name + ":")
            print("\t".join(bench.x_names + bench.line_names))
            for row in rows:
                print("\t".join("%g" % v if isinstance(v, float) else str(v) for v in row))
        if save_path:
            # Triton's table: <plot_name>.csv, the x columns then one per line,
            # floats with `save_precision` decimals (no plot: no matplotlib here)
            import csv
            with open(os.path.join(save_path, bench.plot_name + ".csv"), "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(bench.x_names + bench.line_names)
                for row in rows:
                    w.writerow(["%.*f" % (save_precision, v) if isinstance(v, float) else v
                                for v in row])
        return rows

    def run(self, show_plots=False, print_data=False, save_path="", return_df=False,
            save_precision=6, diff_col=False, **kwargs):
        benches = self.benchmarks if isinstance(self.benchmarks, list) else [self.benchmarks]
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        out = [self._run(b, print_data, save_path, save_precision, **kwargs) for b in benches]
        if save_path:
            with open(os.path.join(save_path, "results.html"), "w") as f:
                f.write("<html><body>\n")
                for b in benches:
                    f.write('<image src="%s.png"/>\n' % b.plot_name)
                f.write("</body></html>\n")
        if return_df:
            return out if isinstance(self.benchmarks, list) else out[0]
        return None


def perf_report(benchmarks):
    """Decorator: `fn.run(print_data=True)` measures every point (tables
    only; no plotting library is needed)."""
    return lambda fn: Mark(fn, benchmarks)
