#!/usr/bin/env python3
"""C and Python agree bit for bit on packing and quantization.

    python3 tests/tri/test_pack_agreement.py DIR

test_tri_torch (a unit test) writes DIR/c_cases.json with what the C
library (src/support/ternary.c) computed: random trit vectors of every
length from 0 to 260 (and some longer ones) with their packed bytes,
packed data containing the invalid code 0b11, and float tensors (random,
with ties, zeros, NaN, infinities, huge values) with the outputs of the four
quantizers, floats given as their IEEE bit patterns. This script checks that
the generated code's runtime (tritonc_tri_runtime.py in DIR) produces the
same bytes, trits, codes, scales and zero points, then writes
DIR/py_cases.txt, random trits and the runtime's packing of them, which the
unit test checks against the C library: the other direction.
"""
import json
import random
import struct
import sys

import torch


def f32_bits(t):
    return list(struct.unpack("<%dI" % t.numel(), struct.pack("<%df" % t.numel(), *t.tolist())))


def from_bits(bits):
    return torch.tensor(struct.unpack("<%df" % len(bits), struct.pack("<%dI" % len(bits), *bits)),
                        dtype=torch.float32)


def check_pack(rt, cases):
    for c in cases:
        trits, want = c["trits"], c["bytes"]
        got = rt.pack_ternary(torch.tensor(trits, dtype=torch.int8)).tolist()
        assert got == want, ("pack", len(trits), got[:8], want[:8])
        back = rt.unpack_ternary(torch.tensor(want, dtype=torch.uint8), len(trits)).tolist()
        assert back == trits, ("unpack", len(trits))
    return len(cases)


def check_bad(rt, cases):
    for c in cases:
        try:
            rt.unpack_ternary(torch.tensor(c["bytes"], dtype=torch.uint8), c["n"])
        except ValueError:
            continue
        raise AssertionError("unpack accepted code 0b11: %r" % c)
    return len(cases)


def same(what, got, want):
    if got != want:
        raise AssertionError("%s: python %r, C %r" % (what, got[:12], want[:12]))


def check_quant(rt, cases):
    for i, c in enumerate(cases):
        x = from_bits(c["x"]).reshape(c["shape"])
        t = rt.quantize_ternary(x, struct.unpack("<f", struct.pack("<I", c["ratio"]))[0])
        same("%d ternary values" % i, t.values.reshape(-1).tolist(), c["ternary"]["values"])
        same("%d ternary scale" % i, f32_bits(t.scale.reshape(1)), [c["ternary"]["scale"]])
        for scheme, fn in (("int8", rt.quantize_int8), ("int4", rt.quantize_int4)):
            q = fn(x)
            same("%d %s values" % (i, scheme), q.values.reshape(-1).tolist(), c[scheme]["values"])
            same("%d %s scale" % (i, scheme), f32_bits(q.scale.reshape(1)), [c[scheme]["scale"]])
            same("%d %s zero point" % (i, scheme), [int(q.zero_point)], [c[scheme]["zp"]])
            deq = rt.dequantize(q).reshape(-1)
            same("%d %s dequantize" % (i, scheme), f32_bits(deq), c[scheme]["deq"])
        pc = c["per_channel"]
        q = rt.quantize_per_channel(x, pc["axis"])
        same("%d per-channel values" % i, q.values.reshape(-1).tolist(), pc["values"])
        same("%d per-channel scales" % i, f32_bits(q.scale.reshape(-1)), pc["scale"])
        same("%d per-channel zero points" % i, q.zero_point.reshape(-1).tolist(), pc["zp"])
    return len(cases)


def write_python_cases(rt, path):
    rng = random.Random(7)
    lengths = list(range(0, 261)) + [1000, 1001, 1002, 1003, 4096, 4099]
    with open(path, "w") as f:
        f.write("%d\n" % len(lengths))
        for n in lengths:
            trits = [rng.choice((-1, 0, 1)) for _ in range(n)]
            packed = rt.pack_ternary(torch.tensor(trits, dtype=torch.int8)).tolist()
            f.write("%d %s\n" % (n, " ".join(map(str, trits))))
            f.write("%d %s\n" % (len(packed), " ".join(map(str, packed))))


def main():
    d = sys.argv[1]
    sys.path.insert(0, d)
    import tritonc_tri_runtime as rt
    with open(d + "/c_cases.json") as f:
        cases = json.load(f)
    n_pack = check_pack(rt, cases["pack"])
    n_bad = check_bad(rt, cases["bad"])
    n_quant = check_quant(rt, cases["quant"])
    write_python_cases(rt, d + "/py_cases.txt")
    print("test_pack_agreement: %d pack, %d invalid, %d quantizer cases agree with C"
          % (n_pack, n_bad, n_quant))


if __name__ == "__main__":
    main()
