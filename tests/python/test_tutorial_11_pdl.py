# RUN: %python %s
# REQUIRES: torch
"""Triton's programmatic-dependent-launch tutorial on the CPU: vector add
with a USE_GDC constexpr guarding tl.extra.cuda.gdc_wait() and
gdc_launch_dependents(), launched with launch_pdl=True/False (the CPU runs
the programs of one launch before the next launch starts, so both are plain
adds); the tutorial's is_cuda()/supports_pdl() probes; its perf_report
benchmark at tiny sizes through do_bench_cudagraph; and the same kernel
compiled for sm_90 with the griddepcontrol instructions in its PTX."""
import os
import shutil
import subprocess
import sys
import tempfile

import torch

import tritonc as triton
import tritonc.language as tl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def is_cuda():
    return triton.runtime.driver.active.get_current_target().backend == "cuda"


def supports_pdl():
    return is_cuda() and torch.cuda.get_device_capability()[0] >= 9


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr, USE_GDC: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    m = offs < n_elements
    if USE_GDC:
        tl.extra.cuda.gdc_wait()
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    if USE_GDC:
        tl.extra.cuda.gdc_launch_dependents()
    tl.store(output_ptr + offs, x + y, mask=m)


def add(x, y, launch_pdl=True):
    out = torch.empty_like(x)
    n = out.numel()
    grid = lambda meta: (triton.cdiv(n, meta['BLOCK_SIZE']), )
    add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024, USE_GDC=launch_pdl, launch_pdl=launch_pdl)
    return out


@triton.testing.perf_report(
    triton.testing.Benchmark(x_names=["size"], x_vals=[2**i for i in range(10, 12)], x_log=False, line_arg="provider",
                             line_vals=["pdl-fp32", "fp32"], line_names=["PDL", "No PDL"],
                             styles=[("red", "-"), ("blue", "-")], ylabel='GB/s', plot_name="pdl-performance",
                             args={}))
def benchmark(size, provider):
    x = torch.rand(size, dtype=torch.float32)
    y = torch.rand(size, dtype=torch.float32)
    fn = lambda: add(x, y, "pdl" in provider)
    ms, lo, hi = triton.testing.do_bench_cudagraph(fn, quantiles=[0.5, 0.2, 0.8], rep=5)
    gbps = lambda ms: 3 * x.numel() * x.element_size() * 1e-9 / (ms * 1e-3)
    return gbps(ms), gbps(hi), gbps(lo)


def main():
    torch.manual_seed(0)
    # (the probe is the tutorial's: true on a Hopper GPU, false on the CPU)
    assert supports_pdl() == (torch.cuda.is_available() and torch.cuda.get_device_capability()[0] >= 9)
    for n in (1024, 3001):
        x = torch.rand(n)
        y = torch.rand(n)
        for pdl in (True, False):
            assert torch.equal(add(x, y, pdl), x + y)
    benchmark.run(print_data=False, show_plots=False)
    # on sm_90 the guarded calls become griddepcontrol instructions (ptxas checks them where it is installed)
    tc = os.path.join(ROOT, "build", "tritonc")
    if os.path.exists(tc):
        d = tempfile.mkdtemp(prefix="tc_tut11_")
        ptx = os.path.join(d, "k.ptx")
        r = subprocess.run([tc, "compile", os.path.abspath(__file__), "--kernel", "add_kernel", "--signature",
                            "*fp32:16,*fp32:16,*fp32:16,i32", "-D", "BLOCK_SIZE=1024", "-D", "USE_GDC=True",
                            "--emit", "ptx", "--target", "cuda:90", "-o", ptx], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        text = open(ptx).read()
        assert "griddepcontrol.wait" in text and "griddepcontrol.launch_dependents" in text, text[:2000]
        if shutil.which("ptxas"):
            r = subprocess.run(["ptxas", "-arch=sm_90a", ptx, "-o", os.path.join(d, "k.cubin")], capture_output=True,
                               text=True)
            assert r.returncode == 0, r.stderr
    print("tutorial 11 programmatic dependent launch: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
