#!/usr/bin/env python3
"""Launches vs_triton.py cases once with tritonc and once with Triton, for a
profiler to compare the two kernels (the case labels of vs_triton.CASES,
comma-separated, or `all`; each case's first size). With Nsight Compute:

    ncu --target-processes all -k regex:"int_divmod|scan_kernel" \\
        --metrics gpu__time_duration.sum,smsp__inst_executed.sum,\\
launch__registers_per_thread,smsp__sass_inst_executed_op_shared_ld.sum,\\
smsp__sass_inst_executed_op_global_atom.sum \\
        python3 bench/gpu/ncu_cases.py "int div/mod,scans"

tritonc's kernel of each case comes first, then Triton's."""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))
import vs_triton as vt  # noqa: E402


def main():
    import torch
    want = set(sys.argv[1].split(","))
    tmp = tempfile.mkdtemp(prefix="ncu_cases_")
    for mod, kname, label, maker, sizes in vt.CASES:
        if label not in want and "all" not in want:
            continue
        for who, m in (("tritonc", vt.load_tritonc_module(mod, tmp)), ("triton", vt.load_triton_module(mod))):
            r = maker(sizes[0], 1)
            try:
                getattr(m, kname)[r.grid](*r.args, **r.kw)
            except Exception as e:  # (a case Triton does not compile: the other is still profiled)
                print(who, label, "failed:", str(e).splitlines()[0] if str(e) else type(e).__name__, flush=True)
                continue
            torch.cuda.synchronize()
            print(who, label, sizes[0], flush=True)


if __name__ == "__main__":
    main()
