# RUN: %python %s %tritonc
"""Every name of the binding's libdevice module (Triton 3.6's list, so that
`from triton.language.extra.libdevice import NAME` works as it does there)
is known to the C front end: a kernel calling it with an fp32 operand
compiles, or fails with an error about its operands or with "not supported
yet" (the Bessel functions, rcp64h), never "has no attribute". And
fast_tanhf, added with this test, computes tanh on the CPU."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))

from tritonc.language.extra import libdevice  # noqa: E402
from tritonc.language.extra.cuda import libdevice as cuda_libdevice  # noqa: E402

KERNEL = """import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(x_ptr, y_ptr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, libdevice.{name}(x).to(tl.float32))
"""

# (a few of Triton 3.6's names, spelled out: the list must keep them)
TRITON_NAMES = ("double2float_rd", "fast_tanhf", "fma_rz", "int2float_rn", "ll2double_rz", "sub_ru",
                "ull2float_ru", "uint_as_float", "rsqrt_rn", "hiloint2double", "cyl_bessel_i1", "yn")


def main():
    tritonc = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "tritonc")
    fails = []
    names = libdevice.NAMES.split()
    for n in TRITON_NAMES:
        if n not in names or not hasattr(libdevice, n) or not hasattr(cuda_libdevice, n):
            fails.append("%s: not in the libdevice module" % n)
    d = tempfile.mkdtemp(prefix="tc_ld_names_")
    for n in names:
        path = os.path.join(d, "k_%s.py" % n)
        with open(path, "w") as f:
            f.write(KERNEL.format(name=n))
        r = subprocess.run([tritonc, "compile", path, "--kernel", "k", "--signature", "*fp32:16,*fp32:16",
                            "--emit", "ttir"], capture_output=True, text=True)
        if "has no attribute" in r.stderr or "error" not in r.stderr and r.returncode != 0:
            fails.append("%s: %s" % (n, (r.stderr.strip().splitlines() or ["rc %d" % r.returncode])[0]))
    # fast_tanhf on the CPU, against math.tanh
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        import tritonc as triton
        import tritonc.language as tl

        @triton.jit
        def fast_tanh_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            m = offs < n
            tl.store(y_ptr + offs, libdevice.fast_tanhf(tl.load(x_ptr + offs, mask=m)), mask=m)

        x = torch.linspace(-12, 12, 999)
        y = torch.full_like(x, float("nan"))
        fast_tanh_kernel[(8,)](x, y, x.numel(), BLOCK=128)
        err = (y.double() - torch.tanh(x.double())).abs().max().item()
        if not err < 1e-5:
            fails.append("fast_tanhf: max error %g" % err)
    for f in fails:
        print("FAIL:", f)
    print("libdevice names: %d checked, %d failures" % (len(names), len(fails)))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
