# RUN: %python %s
# REQUIRES: torch
"""Where a CUDA launch goes, as Triton's: to torch's current stream on the
current device.
- On a stream (`with torch.cuda.stream(s):`), a kernel queued behind a long
  sleep on s has not run when the default stream is idle.
- With two GPUs: a launch goes to torch's current device (set_device, `with
  torch.cuda.device(i):`) and its current stream there; a kernel compiled on
  one device is loaded into another's context when it is first launched
  there; and a process that uses only its second GPU (one rank of a
  data-parallel job) makes no context on the first.
Without a GPU it says so and checks nothing (CI has none: the GPU machine
runs it through bench/gpu/python_tests_on_cuda.sh)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))

import torch  # noqa: E402

if not torch.cuda.is_available():
    print("test_cuda_streams_devices: needs a CUDA device; nothing checked here")
    sys.exit(0)

import tritonc as triton  # noqa: E402
import tritonc.language as tl  # noqa: E402


@triton.jit
def axpy(x_ptr, y_ptr, out_ptr, n, a, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(out_ptr + o, a * tl.load(x_ptr + o, mask=m) + tl.load(y_ptr + o, mask=m), mask=m)


def run(dev, n, a):
    x = torch.randn(n, device=dev)
    y = torch.randn(n, device=dev)
    out = torch.full((n,), float("nan"), device=dev)
    with torch.cuda.device(dev):
        axpy[(triton.cdiv(n, 256),)](x, y, out, n, a, BLOCK=256)
    torch.cuda.synchronize(dev)
    assert torch.allclose(out, a * x + y), (dev, n, a)


# -- one GPU: the current stream ----------------------------------------------
run("cuda:0", 1000, 2.0)  # compiled and loaded
x = torch.randn(4096, device="cuda:0")
for path in ("jit", "compiled"):
    out = torch.zeros_like(x)
    torch.cuda.synchronize()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(200_000_000)  # ~0.1 s of the GPU's clock, on s
        if path == "jit":
            axpy[(16,)](x, x, out, 4096, 1.0, BLOCK=256)
        else:
            ck = axpy.warmup(x, x, out, 4096, 1.0, BLOCK=256, grid=(16,))
            ck[(16,)](x, x, out, 4096, 1.0)
    early = out.cpu()  # a copy on the default stream, which has nothing queued
    s.synchronize()
    assert not early.any(), "%s: the launch did not wait for its stream's sleep" % path
    assert torch.allclose(out, 2 * x), path

if torch.cuda.device_count() < 2:
    print("test_cuda_streams_devices: one GPU; the two-device checks need two")
    print("test_cuda_streams_devices: ok")
    sys.exit(0)

# -- two GPUs --------------------------------------------------------------------
# the binding asks torch for the stream of device -1: the current device's
raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
if raw is not None:
    with torch.cuda.device(1), torch.cuda.stream(torch.cuda.Stream()):
        assert raw(-1) == torch.cuda.current_stream().cuda_stream != raw(0)

# the same specialisation on both devices, in turns, then on a stream of the second
for i in range(6):
    run("cuda:%d" % (i % 2), 1000 + 37 * i, 0.5 + i)
with torch.cuda.device(1):
    s = torch.cuda.Stream()
    x = torch.randn(5000, device="cuda:1")
    out = torch.zeros_like(x)
    with torch.cuda.stream(s):
        axpy[(20,)](x, x, out, 5000, 2.0, BLOCK=256)
    s.synchronize()
    assert torch.allclose(out, 3 * x)
# set_device, as a data-parallel rank does
torch.cuda.set_device(1)
run("cuda:1", 777, 3.0)
torch.cuda.set_device(0)
run("cuda:0", 777, 3.0)

# a rank that uses only the second GPU makes no context on the first
child = r"""
import os, subprocess, sys, torch
sys.path.insert(0, %r)
torch.cuda.set_device(1)
import tritonc as triton, tritonc.language as tl
@triton.jit
def fill(p, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(p + o, o.to(tl.float32), mask=o < n)
t = torch.empty(300, device="cuda:1")
fill[(3,)](t, 300, BLOCK=128)
torch.cuda.synchronize()
assert torch.equal(t.cpu(), torch.arange(300, dtype=torch.float32))
q = subprocess.run(["nvidia-smi", "--query-compute-apps=pid,gpu_bus_id", "--format=csv,noheader"],
                   capture_output=True, text=True).stdout
bus0 = subprocess.run(["nvidia-smi", "-i", "0", "--query-gpu=pci.bus_id", "--format=csv,noheader"],
                      capture_output=True, text=True).stdout.strip()
mine = [l for l in q.splitlines() if l.split(",")[0].strip() == str(os.getpid())]
print("contexts:", mine, "gpu0:", bus0)
assert mine and not any(l.split(",")[1].strip() == bus0 for l in mine), (mine, bus0)
""" % os.path.join(os.path.dirname(os.path.dirname(HERE)), "python")
r = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True)
assert r.returncode == 0, r.stdout + r.stderr
print(r.stdout.strip())
print("test_cuda_streams_devices: ok")
