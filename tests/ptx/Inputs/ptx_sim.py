#!/usr/bin/env python3
"""ptx_sim.py - runs the PTX tritonc emits for straight-line kernels on the
CPU, so that code which moves data between threads (warp shuffles, shared
memory) can be checked without a GPU.

The threads of a CTA run in lockstep: each instruction is executed for all
of them at once, every register a numpy array with one entry per thread.
That is a faithful model of straight-line code (only unconditional
branches are taken: `bra.uni`; a predicated branch is refused), with one
exception that is checked instead of modelled: lockstep would hide a
missing bar.sync, so shared memory records, per byte, which thread wrote
it and which read it since the last barrier, and a read of another
thread's write, or a write over another thread's read or over its
different value, in the same barrier interval, is reported as a race.

Tensor-core dots: ldmatrix and mma.sync (m16n8k16 f16/bf16, m16n8k8
tf32) by the PTX ISA's fragment definitions, per warp; cp.async copies
global memory at issue, but its shared-memory bytes are only written at
the cp.async.wait_group that completes its group: until then a read of
them is reported (a missing wait), and the write is race-checked like a
store by the issuing thread (a missing barrier before overwriting a stage
other threads read).

Only the instructions the scan, reduction, element-wise and dot lowerings emit
are known; an unknown one is an error (extend OPS). Float arithmetic is
IEEE single/double in numpy, without the fused multiply-adds ptxas may
form, so compare floats with a tolerance.

    from ptx_sim import Kernel
    k = Kernel(ptx_text)
    k.run(grid=(1,), args=[np_array_or_scalar, ...])  # arrays are updated in place
"""
import re
import struct

import numpy as np

DT = {"s8": np.int8, "u8": np.uint8, "b8": np.uint8, "s16": np.int16, "u16": np.uint16, "b16": np.uint16,
      "f16": np.float16, "bf16": np.uint16, "s32": np.int32, "u32": np.uint32, "b32": np.uint32,
      "f32": np.float32, "s64": np.int64, "u64": np.uint64, "b64": np.uint64, "f64": np.float64,
      "pred": np.bool_}
TYPES = set(DT)


class SimError(Exception):
    pass


def split_operands(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def bf16_to_f32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16(x):
    b = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


class Kernel:
    def __init__(self, text):
        self.text = text
        m = re.search(r"\.entry\s+(\w+)\s*\((.*?)\)", text, re.S)
        if not m:
            raise SimError("no .entry")
        self.name = m.group(1)
        self.params = [(p.split()[1], p.split()[2].strip()) for p in
                       (x.strip() for x in m.group(2).split(",")) if p]
        m = re.search(r"\.reqntid\s+(\d+)", text)
        self.nthreads = int(m.group(1)) if m else 128
        body = text[text.index("{", m.end() if m else 0) + 1:text.rindex("}")]
        self.regtype = {}
        self.code, self.labels = [], {}
        for line in body.splitlines():
            line = line.split("//")[0].strip()
            if not line:
                continue
            rm = re.match(r"\.reg\s+\.(\w+)\s+%(\w+?)<\d+>;", line)
            if rm:
                self.regtype[rm.group(2)] = rm.group(1)
                continue
            if line.endswith(":"):
                self.labels[line[:-1]] = len(self.code)
                continue
            if line.startswith("."):
                continue
            self.code.append(self.parse(line.rstrip(";")))

    @staticmethod
    def parse(line):
        pred = None
        if line.startswith("@"):
            p, line = line.split(None, 1)
            pred = (p[1:].lstrip("!"), p.startswith("@!"))
        parts = line.split(None, 1)
        return (pred, parts[0], split_operands(parts[1]) if len(parts) > 1 else [])

    # ---- registers and operands ------------------------------------------

    def storage(self, name):
        m = re.match(r"%([a-z]+)\d+$", name)
        if not m or m.group(1) not in self.regtype:
            raise SimError("unknown register " + name)
        t = self.regtype[m.group(1)]
        return {"pred": "pred", "b16": "b16", "b32": "b32", "b64": "b64", "f32": "f32", "f64": "f64",
                "u32": "b32", "s32": "b32", "u64": "b64", "s64": "b64", "u16": "b16", "s16": "b16"}[t]

    def read(self, op, ty):
        """Operand `op` as an array of type ty (bits reinterpreted, or
        converted between integer widths as PTX's operand rules allow)."""
        n = self.nthreads
        want = DT[ty]
        if op.startswith("%") and op[1:] in self.specials:
            return self.specials[op[1:]].astype(want)
        if op.startswith("%"):
            if op not in self.regs:
                raise SimError("read of undefined register " + op)
            v = self.regs[op]
            return self.convert(v, want, ty)
        if op == "global_smem":
            return np.zeros(n, want)
        if re.match(r"^0[fF][0-9a-fA-F]{8}$", op):
            v = np.full(n, int(op[2:], 16), np.uint32).view(np.float32)
            return self.convert(v, want, ty)
        if re.match(r"^0[dD][0-9a-fA-F]{16}$", op):
            v = np.full(n, int(op[2:], 16), np.uint64).view(np.float64)
            return self.convert(v, want, ty)
        if op in self.param_values:  # a scalar parameter's bits
            iv = self.param_values[op]
            if np.dtype(want).kind == "f":
                size = np.dtype(want).itemsize
                return np.full(n, iv & ((1 << 8 * size) - 1), np.uint64).astype("u%d" % size).view(want)
        else:
            try:
                iv = int(op, 0)
            except ValueError:
                raise SimError("operand " + op) from None
        if want == np.bool_:
            return np.full(n, bool(iv))
        if np.dtype(want).kind == "f":
            return np.full(n, iv, want)
        bits = np.dtype(want).itemsize * 8
        iv &= (1 << bits) - 1
        return np.full(n, iv, np.uint64).astype(np.dtype("u%d" % (bits // 8))).view(want)

    @staticmethod
    def convert(v, want, ty):
        if v.dtype == want:
            return v
        if v.dtype == np.bool_ or want == np.bool_:
            return v.astype(want)
        a, b = v.dtype.itemsize, np.dtype(want).itemsize
        if a == b:
            return v.view(want)
        # integer widths: truncate or extend by the instruction's type
        u = v.view("u%d" % a)
        if b < a:
            return u.astype("u%d" % b).view(want)
        if ty.startswith("s"):
            return v.view("i%d" % a).astype(want)
        return u.astype("u%d" % b).view(want)

    def write(self, op, val, active):
        st = DT[self.storage(op)]
        val = np.asarray(val)
        if val.dtype != st:
            a, b = val.dtype.itemsize, np.dtype(st).itemsize
            if val.dtype == np.bool_ or st == np.bool_:
                val = val.astype(st)
            elif a == b:
                val = val.view(st)
            elif b > a:  # a narrow load into a wide register: extended by its signedness
                val = val.astype("i%d" % b if val.dtype.kind == "i" else "u%d" % b).view(st)
            else:
                val = val.view("u%d" % a).astype("u%d" % b).view(st)
        old = self.regs.get(op)
        if active is not None:
            if old is None:
                old = np.zeros(self.nthreads, st)
            val = np.where(active, val, old)
        self.regs[op] = val.astype(st, copy=True)

    # ---- memory -------------------------------------------------------------

    def address(self, op):
        m = re.match(r"^\[([^\]+]+)(?:\+(-?\d+))?\]$", op.replace(" ", ""))
        if not m:
            raise SimError("address " + op)
        base, off = m.group(1), int(m.group(2) or 0)
        if base == "global_smem":
            return np.full(self.nthreads, off, np.int64), None
        if base in self.param_values:
            return base, "param"
        bits = 64 if self.storage(base) == "b64" else 32
        a = self.read(base, "u%d" % bits).astype(np.int64)
        return a + off, None

    def gmem_loc(self, addr, size):
        for (lo, arr) in self.buffers:
            if lo <= addr and addr + size <= lo + arr.nbytes:
                return arr.view(np.uint8).reshape(-1), addr - lo
        raise SimError("global access out of every buffer at %#x" % addr)

    def mem_access(self, space, opc, ops, active, store):
        parts = opc.split(".")
        ty = parts[-1]
        vec = 1
        for p in parts:
            if p in ("v2", "v4"):
                vec = int(p[1])
        size = np.dtype(DT[ty]).itemsize
        if store:
            addr_op, vals = ops[0], ops[1]
        else:
            vals, addr_op = ops[0], ops[1]
        names = [x.strip() for x in vals.strip("{}").split(",")] if vec > 1 else [vals]
        addr, kind = self.address(addr_op)
        if kind == "param":
            self.write(names[0], self.read(addr, ty), active)
            return
        act = np.ones(self.nthreads, bool) if active is None else active
        for k, name in enumerate(names):
            if store:
                v = self.read(name, ty)
                raw = v.view(np.uint8).reshape(self.nthreads, size)
            out = np.zeros(self.nthreads, DT[ty])
            outb = out.view(np.uint8).reshape(self.nthreads, size)
            for t in np.nonzero(act)[0]:
                a = int(addr[t]) + k * size
                if a % size:
                    raise SimError("misaligned %s at %#x" % (opc, a))
                if space == "shared":
                    self.smem_check(a, size, t, store, raw[t] if store else None)
                    mem, off = self.smem, a
                    if a + size > len(mem):
                        raise SimError("shared access beyond %d bytes at %d" % (len(mem), a))
                else:
                    mem, off = self.gmem_loc(a, size)
                if store:
                    mem[off:off + size] = raw[t]
                else:
                    outb[t] = mem[off:off + size]
            if not store:
                self.write(name, out, active)

    def smem_check(self, a, size, t, store, raw):
        if not store and self.s_pending[a:a + size].any():
            raise SimError("thread %d reads shared bytes %d..%d before the cp.async.wait_group of their copy" %
                           (t, a, a + size - 1))
        for b in range(a, a + size):
            if store:
                if self.s_repoch[b] == self.epoch and self.s_reader[b] not in (t, -1):
                    raise SimError("race: thread %d writes shared byte %d read by thread %d since the barrier" %
                                   (t, b, self.s_reader[b]))
                if self.s_wepoch[b] == self.epoch and self.s_writer[b] != t and self.smem[b] != raw[b - a]:
                    raise SimError("race: threads %d and %d write different values to shared byte %d" %
                                   (t, self.s_writer[b], b))
                self.s_wepoch[b], self.s_writer[b] = self.epoch, t
            else:
                if self.s_wepoch[b] == self.epoch and self.s_writer[b] != t:
                    raise SimError("race: thread %d reads shared byte %d written by thread %d since the barrier" %
                                   (t, b, self.s_writer[b]))
                if self.s_repoch[b] == self.epoch and self.s_reader[b] != t:
                    self.s_reader[b] = -2  # several readers: any write by anyone is a race
                else:
                    self.s_repoch[b], self.s_reader[b] = self.epoch, t

    # ---- running --------------------------------------------------------------

    def run(self, grid, args, smem_bytes=1 << 16):
        if len(args) != len(self.params):
            raise SimError("%d arguments for %d parameters" % (len(args), len(self.params)))
        grid = tuple(grid) + (1,) * (3 - len(grid))
        self.buffers, self.param_values = [], {}
        base = 1 << 32
        for (ty, name), a in zip(self.params, args):
            if isinstance(a, np.ndarray):
                self.buffers.append((base, a))
                self.param_values[name] = base
                base += ((a.nbytes + 4095) // 4096 + 1) * 4096
            else:
                self.param_values[name] = int(a) if not isinstance(a, float) else \
                    struct.unpack("<I", struct.pack("<f", a))[0]
        for z in range(grid[2]):
            for y in range(grid[1]):
                for x in range(grid[0]):
                    self.run_cta((x, y, z), grid, smem_bytes)

    def run_cta(self, ctaid, grid, smem_bytes):
        n = self.nthreads
        tid = np.arange(n, dtype=np.uint32)
        self.specials = {"tid.x": tid, "tid.y": np.zeros(n, np.uint32), "tid.z": np.zeros(n, np.uint32),
                         "ctaid.x": np.full(n, ctaid[0], np.uint32), "ctaid.y": np.full(n, ctaid[1], np.uint32),
                         "ctaid.z": np.full(n, ctaid[2], np.uint32), "nctaid.x": np.full(n, grid[0], np.uint32),
                         "nctaid.y": np.full(n, grid[1], np.uint32), "nctaid.z": np.full(n, grid[2], np.uint32),
                         "laneid": tid % 32}
        self.regs = {}
        self.smem = np.zeros(smem_bytes, np.uint8)
        self.s_wepoch = np.full(smem_bytes, -1, np.int64)
        self.s_repoch = np.full(smem_bytes, -1, np.int64)
        self.s_writer = np.full(smem_bytes, -1, np.int64)
        self.s_reader = np.full(smem_bytes, -1, np.int64)
        self.epoch = 0
        self.s_pending = np.zeros(smem_bytes, np.int64)
        self.cp_open, self.cp_groups = [], []
        self.stats = {}
        pc = 0
        while pc < len(self.code):
            pred, opc, ops = self.code[pc]
            pc += 1
            self.stats[opc] = self.stats.get(opc, 0) + 1
            active = None
            if pred:
                active = self.read("%" + pred[0].lstrip("%"), "pred")
                if pred[1]:
                    active = ~active
            if opc in ("ret", "exit"):
                if active is not None and not active.all():
                    raise SimError("divergent return")
                return
            if opc.startswith("bra"):
                if active is not None and active.any() != active.all():
                    raise SimError("divergent branch")
                if active is None or active.all():
                    pc = self.labels[ops[0]]
                continue
            self.step(opc, ops, active)

    def step(self, opc, ops, active):
        parts = opc.split(".")
        base = parts[0]
        tys = [p for p in parts[1:] if p in TYPES]
        ty = tys[-1] if tys else None
        n = self.nthreads
        if base == "mov":
            d, a = ops
            if d.startswith("{"):
                names = [x.strip() for x in d.strip("{}").split(",")]
                v = self.read(a, ty)
                half = {"b64": np.uint32, "b32": np.uint16}[ty]
                pieces = v.view(half).reshape(n, 2)
                for k, nm in enumerate(names):
                    self.write(nm, pieces[:, k].copy(), active)
                return
            if a.startswith("{"):
                names = [x.strip() for x in a.strip("{}").split(",")]
                half = {"b64": "b32", "b32": "b16"}[ty]
                pieces = np.stack([self.read(nm, half) for nm in names], 1)
                self.write(d, pieces.reshape(-1).view(DT[ty]), active)
                return
            return self.write(d, self.read(a, ty), active)
        if base in ("ld", "st"):
            space = parts[1]
            if space not in ("global", "shared", "param"):
                raise SimError("space " + opc)
            if space == "param":
                return self.write(ops[0], self.read(ops[1].strip("[]"), ty), active)
            return self.mem_access(space, opc, ops, active, base == "st")
        if base == "cp":
            return self.cp_async(parts, ops, active)
        if base == "ldmatrix":
            return self.ldmatrix(parts, ops, active)
        if base == "mma":
            return self.mma(parts, ops, active)
        if base == "bar":
            if active is not None:
                raise SimError("predicated bar.sync")
            self.epoch += 1
            return
        if base == "shfl":
            return self.shfl(parts[2], ops, active)
        if base == "cvt":
            dt, st = tys[0], tys[1]
            a = self.read(ops[1], st)
            if st == "bf16":
                a = bf16_to_f32(a)
            elif st == "f16":
                a = a.astype(np.float32)
            if dt == "bf16":
                r = f32_to_bf16(a.astype(np.float32))
            elif dt == "f16":
                r = a.astype(np.float32).astype(np.float16)
            elif np.dtype(DT[dt]).kind in "iu" and a.dtype.kind == "f":
                rz = "rzi" in parts or "rni" not in parts
                r = (np.trunc(a) if rz else np.rint(a)).astype(DT[dt])
            else:
                r = a.astype(DT[dt])
            return self.write(ops[0], r, active)
        if base == "setp":
            cmp_ = parts[1]
            a, b = self.read(ops[1], ty), self.read(ops[2], ty)
            if ty == "f16":
                a, b = a.astype(np.float32), b.astype(np.float32)
            if ty == "bf16":
                a, b = bf16_to_f32(a), bf16_to_f32(b)
            f = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
                 "ge": np.greater_equal, "lo": np.less, "ls": np.less_equal, "hi": np.greater,
                 "hs": np.greater_equal}[cmp_.rstrip("u") if cmp_ not in ("nan", "num") else cmp_]
            r = f(a, b)
            if len(ops) > 3:
                r = r & self.read(ops[3], "pred") if "and" in parts else r | self.read(ops[3], "pred")
            return self.write(ops[0].split("|")[0], r, active)
        if base == "selp":
            r = np.where(self.read(ops[3], "pred"), self.read(ops[1], ty), self.read(ops[2], ty))
            return self.write(ops[0], r.astype(DT[ty]), active)
        if base == "bfe":
            a = self.read(ops[1], ty).astype(np.int64)
            pos, ln = self.read(ops[2], "u32").astype(np.int64), self.read(ops[3], "u32").astype(np.int64)
            r = (a >> pos) & ((1 << ln) - 1)
            return self.write(ops[0], r.astype(np.uint64).astype(DT[ty]), active)
        return self.arith(base, parts, ty, ops, active)

    def arith(self, base, parts, ty, ops, active):
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            if ty == "pred":
                a = [self.read(o, "pred") for o in ops[1:]]
                r = {"and": lambda: a[0] & a[1], "or": lambda: a[0] | a[1], "xor": lambda: a[0] ^ a[1],
                     "not": lambda: ~a[0]}[base]()
                return self.write(ops[0], r, active)
            if base == "mul" and "wide" in parts:
                wide = {"s32": "s64", "u32": "u64", "s16": "s32", "u16": "u32"}[ty]
                a, b = self.read(ops[1], ty).astype(DT[wide]), self.read(ops[2], ty).astype(DT[wide])
                return self.write(ops[0], a * b, active)
            if base in ("shl", "shr"):
                a = self.read(ops[1], ty)
                s = self.read(ops[2], "u32").astype(np.int64)
                bits = a.dtype.itemsize * 8
                if base == "shl":
                    r = np.where(s >= bits, 0, a.view("u%d" % (bits // 8)).astype(np.uint64) << np.minimum(s, 63).astype(np.uint64))
                    r = r.astype("u%d" % (bits // 8)).view(a.dtype)
                else:
                    r = a >> np.minimum(s, bits - 1).astype(a.dtype) if a.dtype.kind == "i" else \
                        np.where(s >= bits, 0, a >> np.minimum(s, bits - 1).astype(a.dtype))
                return self.write(ops[0], r.astype(a.dtype), active)
            vals = [self.read(o, ty) for o in ops[1:]]
            if ty in ("f16", "bf16"):
                return self.arith16(base, parts, ty, ops, vals, active)
            f = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "min": np.minimum, "max": np.maximum,
                 "and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
                 "not": lambda a: ~a, "neg": lambda a: -a, "abs": np.abs,
                 "mad": lambda a, b, c: a * b + c, "fma": lambda a, b, c: (a.astype(np.float64) * b + c).astype(a.dtype)
                 if a.dtype == np.float32 else a * b + c,
                 "mul": lambda a, b: a * b, "div": lambda a, b: a / b if a.dtype.kind == "f" else
                 (np.trunc(a.astype(np.float64) / b)).astype(a.dtype),
                 "rem": lambda a, b: np.fmod(a, b), "ex2": np.exp2, "lg2": np.log2}.get(base)
            if f is None:
                raise SimError("unknown instruction %s" % ".".join(parts))
            if base in ("mul", "mad") and "hi" in parts:
                raise SimError("mul.hi")
            return self.write(ops[0], np.asarray(f(*vals)).astype(DT[ty]), active)

    def arith16(self, base, parts, ty, ops, vals, active):
        """f16 and bf16 add, sub, mul, fma, min, max, neg, abs: computed in
        double, rounded once to the type (bf16 through fp32)."""
        wide = [v.astype(np.float64) if ty == "f16" else bf16_to_f32(v).astype(np.float64) for v in vals]
        nan = "NaN" in parts
        f = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
             "fma": lambda a, b, c: a * b + c, "neg": lambda a: -a, "abs": np.abs,
             "min": np.minimum if nan else np.fmin, "max": np.maximum if nan else np.fmax}.get(base)
        if f is None:
            raise SimError("unknown instruction %s" % ".".join(parts))
        r = np.asarray(f(*wide))
        r = r.astype(np.float16) if ty == "f16" else f32_to_bf16(r.astype(np.float32))
        return self.write(ops[0], r, active)

    def shfl(self, mode, ops, active):
        d, a, b, c, mask = ops
        if active is not None or self.read(mask, "b32")[0] != 0xFFFFFFFF:
            raise SimError("shfl.sync: partial warp")
        v = self.read(a, "b32")
        bv = self.read(b, "u32").astype(np.int64) & 31
        cv = self.read(c, "u32").astype(np.int64)
        lane = np.arange(self.nthreads) % 32
        seg = (cv >> 8) & 31
        clamp = cv & 31
        max_lane = (lane & seg) | (clamp & ~seg)
        min_lane = lane & seg
        if mode == "up":
            j = lane - bv
            ok = j >= max_lane
        elif mode == "down":
            j = lane + bv
            ok = j <= max_lane
        elif mode == "bfly":
            j = lane ^ bv
            ok = j <= max_lane
        elif mode == "idx":
            j = min_lane | (bv & ~seg)
            ok = j <= max_lane
        else:
            raise SimError("shfl mode " + mode)
        j = np.where(ok, j, lane)
        src = np.arange(self.nthreads) - lane + j
        self.write(d, v[src], None)

    # ---- tensor cores and cp.async ------------------------------------------

    def regs_of(self, op):
        return [x.strip() for x in op.strip("{}").split(",")]

    def cp_async(self, parts, ops, active):
        parts = parts[1:]  # cp.async.*
        if parts[1] == "commit_group":
            self.cp_groups.append(self.cp_open)
            self.cp_open = []
            return
        if parts[1] == "wait_group" or parts[1] == "wait_all":
            keep = int(ops[0]) if parts[1] == "wait_group" else 0
            while len(self.cp_groups) > keep:
                for (t, a, raw) in self.cp_groups.pop(0):
                    self.s_pending[a:a + len(raw)] -= 1
                    self.smem_check(a, len(raw), t, True, raw)
                    self.smem[a:a + len(raw)] = raw
            return
        if parts[1] not in ("ca", "cg") or parts[2:] != ["shared", "global"]:
            raise SimError("cp." + ".".join(parts[1:]))
        dst, _ = self.address(ops[0])
        src, _ = self.address(ops[1])
        size = int(ops[2])
        if size not in (4, 8, 16) or (parts[1] == "cg" and size != 16):
            raise SimError("cp.async of %d bytes" % size)
        srcsize = self.read(ops[3], "u32") if len(ops) > 3 else np.full(self.nthreads, size, np.uint32)
        act = np.ones(self.nthreads, bool) if active is None else active
        for t in np.nonzero(act)[0]:
            a, n = int(dst[t]), int(srcsize[t])
            if a % size or int(src[t]) % size:
                raise SimError("misaligned cp.async")
            if a + size > len(self.smem):
                raise SimError("cp.async beyond %d bytes of shared memory" % len(self.smem))
            raw = np.zeros(size, np.uint8)
            if n:
                mem, off = self.gmem_loc(int(src[t]), n)
                raw[:n] = mem[off:off + n]
            self.s_pending[a:a + size] += 1
            self.cp_open.append((t, a, raw))

    def ldmatrix(self, parts, ops, active):
        if active is not None:
            raise SimError("predicated ldmatrix")
        nmat = int([p for p in parts if p.startswith("x")][0][1:])
        trans = "trans" in parts
        names = self.regs_of(ops[0])
        addr, _ = self.address(ops[1])
        out = np.zeros((len(names), self.nthreads), np.uint32)
        for w in range(self.nthreads // 32):
            for i in range(nmat):
                m = np.zeros((8, 8), np.uint16)
                for r in range(8):
                    t = 32 * w + 8 * i + r
                    a = int(addr[t])
                    if a % 16:
                        raise SimError("misaligned ldmatrix row")
                    self.smem_check(a, 16, t, False, None)
                    m[r] = self.smem[a:a + 16].view(np.uint16)
                if trans:
                    m = m.T
                for lane in range(32):
                    g, q = lane >> 2, lane & 3
                    out[i, 32 * w + lane] = int(m[g, 2 * q]) | (int(m[g, 2 * q + 1]) << 16)
        for i, nm in enumerate(names):
            self.write(nm, out[i], None)

    def mma(self, parts, ops, active):
        if active is not None:
            raise SimError("predicated mma")
        shape, ta = parts[3], parts[7]
        d, a, b, c = (self.regs_of(o) for o in ops)
        A = np.stack([self.read(x, "b32") for x in a])
        B = np.stack([self.read(x, "b32") for x in b])
        C = np.stack([self.read(x, "f32") for x in c])
        D = np.zeros_like(C)

        def halves(v):
            lo, hi = (v & 0xFFFF).astype(np.uint16), (v >> 16).astype(np.uint16)
            if ta == "f16":
                return lo.view(np.float16).astype(np.float64), hi.view(np.float16).astype(np.float64)
            return bf16_to_f32(lo).astype(np.float64), bf16_to_f32(hi).astype(np.float64)
        for w in range(self.nthreads // 32):
            ln = slice(32 * w, 32 * w + 32)
            g, q = np.arange(32) >> 2, np.arange(32) & 3
            if shape == "m16n8k16":
                Am, Bm = np.zeros((16, 16)), np.zeros((16, 8))
                for k, (ro, co) in enumerate([(0, 0), (8, 0), (0, 8), (8, 8)]):
                    lo, hi = halves(A[k, ln])
                    Am[g + ro, 2 * q + co], Am[g + ro, 2 * q + co + 1] = lo, hi
                for k in range(2):
                    lo, hi = halves(B[k, ln])
                    Bm[2 * q + 8 * k, g], Bm[2 * q + 8 * k + 1, g] = lo, hi
            elif shape == "m16n8k8" and ta == "tf32":
                Am, Bm = np.zeros((16, 8)), np.zeros((8, 8))
                f = lambda v: v.view(np.float32).astype(np.float64)  # noqa: E731
                for k, (ro, co) in enumerate([(0, 0), (8, 0), (0, 4), (8, 4)]):
                    Am[g + ro, q + co] = f(A[k, ln])
                for k in range(2):
                    Bm[q + 4 * k, g] = f(B[k, ln])
            else:
                raise SimError("mma " + ".".join(parts))
            Cm = np.zeros((16, 8))
            Cm[g, 2 * q], Cm[g, 2 * q + 1] = C[0, ln], C[1, ln]
            Cm[g + 8, 2 * q], Cm[g + 8, 2 * q + 1] = C[2, ln], C[3, ln]
            Dm = Am @ Bm + Cm
            D[0, ln], D[1, ln] = Dm[g, 2 * q], Dm[g, 2 * q + 1]
            D[2, ln], D[3, ln] = Dm[g + 8, 2 * q], Dm[g + 8, 2 * q + 1]
        for i, nm in enumerate(d):
            self.write(nm, D[i].astype(np.float32), None)
