#!/usr/bin/env python3
"""Summarises an Nsight Systems GPU trace of insitu_cases.py (`nsys stats
--report cuda_gpu_trace --format csv`): for each kernel name, the median
in-situ duration and the median gap between the end of the kernel before it
(the flush) and its start.

    python3 bench/gpu/insitu_trace.py TRACE.csv"""
import csv
import statistics
import sys


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    key = {k.lower(): k for k in rows[0]} if rows else {}
    start, dur, name = key.get("start (ns)"), key.get("duration (ns)"), key.get("name")
    rows.sort(key=lambda r: int(r[start]))
    stats, prev_end = {}, None
    for r in rows:
        s, d, n = int(r[start]), int(r[dur]), r[name]
        if prev_end is not None and "fill" not in n.lower() and "zero" not in n.lower():
            stats.setdefault(n[:60], []).append((d, s - prev_end))
        prev_end = s + d
    for n, v in sorted(stats.items()):
        print("%-60s n=%4d duration median %.2f us, gap after the previous kernel median %.2f us" % (
            n, len(v), statistics.median(x[0] for x in v) / 1e3, statistics.median(x[1] for x in v) / 1e3))


if __name__ == "__main__":
    main()
