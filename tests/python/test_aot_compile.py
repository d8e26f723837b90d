# RUN: %python %s
# RUN: env TRITONC_LAUNCHER=python %python %s
# REQUIRES: torch
"""Ahead-of-time compiles (`triton.compile(ASTSource(...), target, options)`)
and the launch hooks (triton.knobs.runtime.launch_enter_hook / exit_hook,
and CompiledKernel's older class attributes).

A CUDA target compiles here without a GPU: TTIR, TTGIR, PTX (accepted by
ptxas when it is installed) and the cubin. A CPU target compiles for the
CPU backend, and `ck[grid](...)` runs it, checked against torch. Bad
signatures, missing constexprs and unknown names raise errors naming the
parameter. Hooks are called once per launch, with the kernel's name, on
every launch path (the C Entry, the Python path, ck[grid]), and no longer
once removed.
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))

import torch  # noqa: E402

import tritonc as triton  # noqa: E402
import tritonc.language as tl  # noqa: E402
from tritonc.backends.compiler import GPUTarget  # noqa: E402
from tritonc.compiler import ASTSource, CompiledKernel  # noqa: E402
import tritonc.compiler.compiler as cc  # noqa: E402

fails = []


def check(cond, msg):
    if not cond:
        fails.append(msg)
        print("FAIL:", msg)


@triton.jit
def axpy(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    o = pid * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m)
    y = tl.load(y_ptr + o, mask=m)
    tl.store(out_ptr + o, alpha * x + y, mask=m)


SIG = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "alpha": "fp32",
       "BLOCK": "constexpr"}
ATTRS = {(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]],
         (2,): [["tt.divisibility", 16]]}

check(cc.ASTSource is ASTSource and triton.compiler.compiler.compile is triton.compile,
      "triton.compiler.compiler.ASTSource / triton.compile")

# -- a CUDA target, without a GPU --------------------------------------------
src = ASTSource(fn=axpy, signature=SIG, constexprs={"BLOCK": 256}, attrs=ATTRS)
ck = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 8})
check(isinstance(ck, CompiledKernel), "compile returns a CompiledKernel")
ttir, ttgir, ptx = ck.asm["ttir"], ck.asm["ttgir"], ck.asm["ptx"]
check("tt.func public @axpy" in ttir and "tt.divisibility = 16" in ttir, "ttir: " + ttir[:200])
check("ttg." in ttgir and "#blocked" in ttgir, "ttgir: " + ttgir[:200])
check('"ttg.num-warps" = 8' in ttgir, "ttgir num-warps 8")
check(".entry axpy" in ptx and ".target sm_90" in ptx, "ptx: " + ptx[:300])
check(ck.metadata.name == "axpy" and ck.name == "axpy", "metadata.name")
check(ck.metadata.num_warps == 8, "metadata.num_warps %r" % ck.metadata.num_warps)
check(isinstance(ck.metadata.shared, int) and ck.metadata.shared >= 0, "metadata.shared")
check(ck.metadata.target == GPUTarget("cuda", 90, 32), "metadata.target %r" % (ck.metadata.target,))
ptxas = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas"
                                  if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    cubin = ck.asm["cubin"]
    check(isinstance(cubin, bytes) and cubin[:4] == b"\x7fELF", "cubin is an ELF")
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "k.ptx")
        with open(p, "w") as f:
            f.write(ptx)
        r = subprocess.run([ptxas, "-arch=sm_90a", p, "-o", os.path.join(d, "k.cubin")],
                           capture_output=True, text=True)
        check(r.returncode == 0, "ptxas -arch=sm_90a: " + r.stderr[-500:])
if not torch.cuda.is_available():
    try:
        ck[(1,)](torch.zeros(4), torch.zeros(4), torch.zeros(4), 4, 1.0)
        check(False, "launching a CUDA kernel without a GPU did not raise")
    except RuntimeError as e:
        check("GPU" in str(e), "CUDA launch without GPU: %s" % e)

# an older arch, and a signature as a string with constexprs by tuple path
ck80 = triton.compile(ASTSource(axpy, "*fp32,*fp32,*fp32,i32,fp32,constexpr", {(5,): 128}),
                      target=GPUTarget("cuda", 80, 32))
check(".target sm_80" in ck80.asm["ptx"], "sm_80 ptx")
# (on a GPU of another architecture the sm_80 cubin is built and not loaded,
# as Triton loads a kernel when it first runs; launching it says why)
if torch.cuda.is_available() and torch.cuda.get_device_capability() != (8, 0):
    try:
        z = torch.zeros(4, device="cuda")
        ck80[(1,)](z, z, z, 4, 1.0)
        check(False, "an sm_80 kernel launched on sm_%d%d" % torch.cuda.get_device_capability())
    except RuntimeError as e:
        check("compiled for sm_80 and cannot run on this device" in str(e), "foreign-arch launch: %s" % e)

# -- a CPU target: compile, then launch ---------------------------------------
n = 1000
x, y = torch.randn(n, device="cpu"), torch.randn(n, device="cpu")
for target in (GPUTarget("cpu", "cpu", 1), None if not torch.cuda.is_available() else GPUTarget("cpu", "cpu", 1)):
    kc = triton.compile(ASTSource(axpy, SIG, {"BLOCK": 128}, ATTRS), target=target)
    check("ttir" in kc.asm and "ptx" not in kc.asm, "cpu asm keys %r" % list(kc.asm.keys()))
    out = torch.empty(n, device="cpu")
    kc[(triton.cdiv(n, 128),)](x, y, out, n, 2.5)
    check(torch.allclose(out, 2.5 * x + y), "cpu launch (runtime args)")
    out.zero_()
    kc[(triton.cdiv(n, 128), 1, 1)](x, y, out, n, 0.5, 128)  # every parameter, as Triton's
    check(torch.allclose(out, 0.5 * x + y), "cpu launch (all args)")

# a tensor on another device than the kernel's is an error, not a read at
# an address of another device (this crashed with CUDA tensors)
for bad in [torch.empty(n, device="meta")] + ([torch.empty(n, device="cuda")] if torch.cuda.is_available() else []):
    try:
        kc[(1,)](x, bad, out, n, 1.0)
        check(False, "a CPU kernel launched with a %s tensor" % bad.device.type)
    except Exception as e:
        check("argument #1 is on" in str(e) and "compiled for the CPU" in str(e), "device check: %s" % e)

# a constexpr with a default needs no value
@triton.jit
def fill(out_ptr, v, BLOCK: tl.constexpr = 64):
    o = tl.arange(0, BLOCK)
    tl.store(out_ptr + o, tl.zeros((BLOCK,), tl.float32) + v)


kf = triton.compile(ASTSource(fill, {"out_ptr": "*fp32", "v": "fp32", "BLOCK": "constexpr"}),
                    target=GPUTarget("cpu", "cpu", 1))
o = torch.zeros(64, device="cpu")
kf[(1,)](o, 3.0)
check(bool((o == 3.0).all()), "constexpr default")


# -- errors ---------------------------------------------------------------------
def err(call, *words):
    try:
        call()
    except Exception as e:
        text = str(e)
        check(all(w in text for w in words), "error %r lacks %r" % (text, words))
        return
    check(False, "no error; expected one naming %r" % (words,))


cpu = GPUTarget("cpu", "cpu", 1)
err(lambda: triton.compile(ASTSource(axpy, dict(SIG, alpha="fp33"), {"BLOCK": 4}), target=cpu),
    "alpha", "fp33")
err(lambda: triton.compile(ASTSource(axpy, SIG), target=cpu), "BLOCK", "constexpr")
err(lambda: ASTSource(axpy, dict(SIG, xx="i32"), {"BLOCK": 4}), "xx", "not a parameter")
err(lambda: ASTSource(axpy, SIG, {"BLK": 4}), "BLK")
err(lambda: triton.compile(ASTSource(axpy, {k: v for k, v in SIG.items() if k != "n"}, {"BLOCK": 4}),
                           target=cpu), "'n'", "signature")
err(lambda: triton.compile(ASTSource(axpy, SIG, {"BLOCK": 4}), target=GPUTarget("hip", "gfx942", 64)),
    "hip")
err(lambda: ASTSource(lambda a: a, SIG), "jit")

# -- launch hooks -------------------------------------------------------------
calls = []


def enter(md):
    calls.append(("enter", md.data["name"], md.get()["name"]))


def leave(md):
    calls.append(("exit", md.data["name"]))


out = torch.empty(n, device="cpu")
axpy[(8,)](x, y, out, n, 1.0, BLOCK=128)  # compiled and served in C before any hook
runtime = triton.knobs.runtime
runtime.launch_enter_hook.add(enter)
runtime.launch_exit_hook.add(leave)
for i in range(3):
    axpy[(8,)](x, y, out, n, float(i), BLOCK=128)
    check(torch.allclose(out, i * x + y), "hooked launch result %d" % i)
check(calls == [("enter", "axpy", "axpy"), ("exit", "axpy")] * 3, "hooks per launch: %r" % calls)
del calls[:]
axpy[(4,)](x, y, out, n, 1.0, BLOCK=256)  # a new specialisation, first launch
check(calls == [("enter", "axpy", "axpy"), ("exit", "axpy")], "hooks on a first launch: %r" % calls)
del calls[:]
kc[(8,)](x, y, out, n, 1.0)
check(calls == [("enter", "axpy", "axpy"), ("exit", "axpy")], "hooks on ck[grid]: %r" % calls)
runtime.launch_enter_hook.remove(enter)
runtime.launch_exit_hook.remove(leave)
del calls[:]
axpy[(8,)](x, y, out, n, 2.0, BLOCK=128)
kc[(8,)](x, y, out, n, 2.0)
check(calls == [] and torch.allclose(out, 2 * x + y), "hooks removed: %r" % calls)

# assigned (as Triton's proton does), and launch_metadata=
seen = []


@triton.jit(launch_metadata=lambda grid, meta, args: {"grid": grid, "n": args["n"]})
def copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + o, tl.load(x_ptr + o, mask=o < n), mask=o < n)


runtime.launch_enter_hook = lambda md: seen.append(md.get())
copy[(8,)](x, out, n, BLOCK=128)
check(len(seen) == 1 and seen[0]["name"] == "copy" and seen[0]["n"] == n and
      seen[0]["grid"] == (8, 1, 1), "assigned hook with launch_metadata: %r" % seen)
check(torch.equal(out, x), "copy result")
runtime.launch_enter_hook = None
copy[(8,)](x, out, n, BLOCK=128)
check(len(seen) == 1, "assigned hook removed")
runtime.launch_enter_hook = triton.knobs.HookChain()  # back to Triton's default

# CompiledKernel's older class attributes
CompiledKernel.launch_enter_hook = enter
copy[(8,)](x, out, n, BLOCK=128)
check(calls == [("enter", "copy", "copy")], "CompiledKernel.launch_enter_hook: %r" % calls)
CompiledKernel.launch_enter_hook = None
copy[(8,)](x, out, n, BLOCK=128)
check(len(calls) == 1, "CompiledKernel.launch_enter_hook removed")

# knobs.runtime.scope() restores the hooks
with runtime.scope():
    runtime.launch_enter_hook = enter
    copy[(8,)](x, out, n, BLOCK=128)
copy[(8,)](x, out, n, BLOCK=128)
check(len(calls) == 2, "scope(): %r" % calls)

if fails:
    print("%d FAILED" % len(fails))
    sys.exit(1)
print("ok")
