#!/usr/bin/env python3
"""vs_triton.py cases launched the way triton.testing.do_bench times them
(the L2 flushed by a 256 MB zero_ before every launch, CUDA events around
the launch), tritonc's kernel and Triton's in turns, for a system profiler
to show each kernel's in-situ duration apart from the gap before it: where
do_bench's figures differ by more than the kernels' own durations (under
Nsight Compute) do.

    nsys profile -o OUT --stats=true python3 bench/gpu/insitu_cases.py "casts,bit ops" [REPS]

Also prints each one's event-timed median, as do_bench would."""
import os
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))
import vs_triton as vt  # noqa: E402


def main():
    import torch
    want = set(sys.argv[1].split(","))
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    tmp = tempfile.mkdtemp(prefix="insitu_cases_")
    cache = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    for mod, kname, label, maker, sizes in vt.CASES:
        if label not in want:
            continue
        runs = []
        for who, m in (("tritonc", vt.load_tritonc_module(mod, tmp)), ("triton", vt.load_triton_module(mod))):
            r = maker(sizes[0], 1)
            k = getattr(m, kname)
            k[r.grid](*r.args, **r.kw)  # compile and load
            runs.append((who, k, r))
        times = {who: [] for who, _, _ in runs}
        for _ in range(reps):
            for who, k, r in runs:
                cache.zero_()
                a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                a.record()
                k[r.grid](*r.args, **r.kw)
                b.record()
                torch.cuda.synchronize()
                times[who].append(a.elapsed_time(b) * 1e3)
        for who in times:
            print("%-8s %-14s %-10s event-timed median %.2f us" % (who, label, sizes[0],
                                                                   statistics.median(times[who])), flush=True)


if __name__ == "__main__":
    main()
