#!/usr/bin/env python3
"""ptx_sim.py - runs the PTX tritonc emits on the CPU, a CTA (or several)
at a time, so that code generation can be checked without a GPU.

Threads and control flow. Every register is a numpy array with one entry
per simulated thread; an instruction is executed for a set of threads at
once (a boolean mask). Each thread has its own program counter, and the
scheduler always runs the instruction at the smallest PC among the live
threads, for the threads at that PC (min-PC scheduling): a predicated
`@%p bra` splits them, and they join again where the fall-through path
reaches the branch target, so structured code (if/else, loops, early
exits) reconverges as on the hardware. Threads that `ret`/`exit` leave.
`bar.sync` blocks a thread until every live thread of its CTA has arrived
(threads that arrive at different bar.sync instructions are reported);
warp collectives (shfl.sync, ldmatrix, mma.sync) are executed by the
threads of a warp together, and a warp that reaches one with only part of
its member mask present is reported as divergent; wgmma.mma_async is
executed by a warpgroup (4 warps) together, at issue (its fence, commit
and wait are no-ops), B read from shared memory through its descriptor
by the PTX ISA's canonical layouts, swizzled. Several CTAs of the
grid run side by side in one thread array (`cta_batch`), each with its own
shared memory and barrier; kernels that take a lock (atom.cas/exch, or a
volatile/acquire load in a loop) run one CTA at a time, as min-PC
scheduling of a spinning CTA next to the lock holder would never end.

Shared memory is race-checked instead of modelled weakly: it records per
byte which thread wrote it and which read it since the last barrier, and
a read of another thread's write, or a write over another thread's read
or over its different value, in the same barrier interval, is a race.
cp.async copies global memory at issue, but its shared bytes are written
at the cp.async.wait_group that completes its group (a read before is a
missing wait). Global memory is one flat byte arena holding every buffer;
an access outside all buffers (or misaligned) is an error. Atomics are
executed one thread after another in thread order (the memory model
simplified to sequential execution).

Bank conflicts (Kernel.bank_conflicts = {} before run, off by default):
each warp-wide shared-memory access is counted as the hardware serves it,
32 banks of 4-byte words, in phases (32 lanes for accesses of up to 4
bytes, 16 for 8, 8 for 16; ldmatrix one 8x8 block, 8 rows of 16 bytes, a
phase), a phase taking as many wavefronts as the most distinct words any
one bank holds. By kind (st.shared, ld.shared, cp.async, ldmatrix): the
warp-wide accesses, their wavefronts and the conflicts (wavefronts beyond
one a phase); bank_lines gives the conflicts by PTX line.

Arithmetic follows the PTX ISA: integer ops wrap, shifts clamp, division
truncates; float ops round to nearest (the directed .rz/.rm/.rp modes are
exact, by error-free transformations), .approx functions (ex2, lg2,
rsqrt, sqrt, rcp, sin, cos, tanh) and div.full are computed in float32,
min/max return the non-NaN operand (.NaN: NaN), setp has the ordered and
unordered comparisons, cvt saturates float-to-int conversions (NaN -> 0)
and rounds float-to-float ones by its mode (f16, bf16, tf32, e4m3, e5m2
included). f16x2/bf16x2 and bf16 arithmetic is computed exactly and
rounded once. vprintf calls are recorded (`Kernel.prints`), not printed.
An instruction that is not modelled is an error (SimError) naming it.

    from ptx_sim import Kernel, Ptr
    k = Kernel(ptx_text)
    k.run(grid=(1,), args=[np_array_or_scalar, ...])  # arrays are updated in place

A pointer argument may also be `Ptr(array, byte_offset)`: several
pointers into one array (aliasing views) then share its bytes.
"""
import re
import struct
from fractions import Fraction

import numpy as np

DT = {"s8": np.int8, "u8": np.uint8, "b8": np.uint8, "s16": np.int16, "u16": np.uint16, "b16": np.uint16,
      "f16": np.float16, "bf16": np.uint16, "s32": np.int32, "u32": np.uint32, "b32": np.uint32,
      "f32": np.float32, "s64": np.int64, "u64": np.uint64, "b64": np.uint64, "f64": np.float64,
      "pred": np.bool_, "f16x2": np.uint32, "bf16x2": np.uint32, "tf32": np.uint32,
      "e4m3x2": np.uint16, "e5m2x2": np.uint16}
TYPES = set(DT)
STORAGE = {"pred": np.bool_, "b8": np.uint8, "u8": np.uint8, "s8": np.uint8, "b16": np.uint16,
           "u16": np.uint16, "s16": np.uint16, "f16": np.uint16, "b32": np.uint32, "u32": np.uint32,
           "s32": np.uint32, "f32": np.uint32, "b64": np.uint64, "u64": np.uint64, "s64": np.uint64,
           "f64": np.uint64}
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
SINT = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}
GBASE = 1 << 52          # where buffers without an address of their own go
LOCAL_GENERIC = 1 << 48  # generic addresses of the local window (cvta.local)
BIG = 1 << 60


# s_writer of a shared byte that atomics of several threads updated since the barrier
ATOMIC = -3

class SimError(Exception):
    pass


class Ptr:
    """A pointer argument into `array` at `offset` bytes; `base`: the address
    the array's first byte has in the simulated address space (by default one
    is chosen), so that pointers stored in memory (pointer arrays) work."""

    def __init__(self, array, offset=0, base=None):
        self.array, self.offset, self.base = array, offset, base


def split_operands(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


# ---- floating-point formats ---------------------------------------------------

def bf16_to_f32(bits):
    return (np.asarray(bits).astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16(x):
    return fmt_encode(round_fmt(np.asarray(x, np.float64), "bf16", "rn"), "bf16")


# precision (bits incl. the implicit one), minimum normal exponent, largest finite
FMT = {"f32": (24, -126, float(np.finfo(np.float32).max)), "f16": (11, -14, 65504.0),
       "bf16": (8, -126, float(np.uint32(0x7F7F0000).view(np.float32))),
       "tf32": (11, -126, float(np.uint32(0x7FFFE000).view(np.float32))),
       "e4m3": (4, -6, 448.0), "e5m2": (3, -14, 57344.0)}


def round_fmt(x, fmt, mode, satfinite=False):
    """float64 array x rounded to format `fmt` by `mode` (rn, rz, rm, rp, rna),
    as float64 values (exact: every input is a float64)."""
    p, emin, big = FMT[fmt]
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        _, e = np.frexp(x)
        q = np.maximum(e - 1, emin) - (p - 1)            # exponent of the ulp
        s = np.ldexp(x, -q)                              # exact: a power-of-two scale
        if mode == "rn":
            r = np.rint(s)
        elif mode == "rna":
            r = np.trunc(s + np.copysign(0.5, s))
        elif mode == "rz":
            r = np.trunc(s)
        elif mode == "rm":
            r = np.floor(s)
        elif mode == "rp":
            r = np.ceil(s)
        else:
            raise SimError("rounding mode " + mode)
        r = np.ldexp(r, q)
        r = np.where(np.isfinite(x), r, x)
        # overflow: past the largest finite value (by the rounding, or an infinite input)
        over = np.abs(r) > big
        if mode == "rn" or mode == "rna":
            # rounds to infinity at or beyond (big + half an ulp of big)
            ov = np.where(over & np.isfinite(x), np.copysign(np.inf, x), r)
        elif mode == "rz":
            ov = np.where(over & np.isfinite(x), np.copysign(big, x), r)
        elif mode == "rm":
            ov = np.where(over & np.isfinite(x), np.where(x > 0, big, -np.inf), r)
        else:
            ov = np.where(over & np.isfinite(x), np.where(x > 0, np.inf, -big), r)
        r = ov
        if satfinite:
            r = np.where(np.isnan(r), r, np.clip(r, -big, big))
    return np.where(x == 0, x, r)


def fmt_encode(v, fmt):
    """float64 values representable in `fmt` -> their bits (uint16 / uint8 / uint32)."""
    v = np.asarray(v, np.float64)
    if fmt == "f32":
        return v.astype(np.float32).view(np.uint32)
    if fmt == "f16":
        return v.astype(np.float16).view(np.uint16)
    if fmt == "bf16":
        b = (v.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
        return np.where(np.isnan(v), np.uint16(0x7FFF), b).astype(np.uint16)
    if fmt == "tf32":
        return v.astype(np.float32).view(np.uint32)
    p, emin, big = FMT[fmt]
    ebits = 4 if fmt == "e4m3" else 5
    bias = 7 if fmt == "e4m3" else 15
    mb = p - 1
    with np.errstate(all="ignore"):
        sign = (np.signbit(v)).astype(np.uint8) << 7
        a = np.abs(v)
        _, e = np.frexp(a)
        E = np.maximum(e - 1, emin)
        man = np.ldexp(a, -E) * (1 << mb)                # includes the implicit 1 when normal
        normal = a >= np.ldexp(1.0, emin)
        expf = np.where(normal, E + bias, 0)
        manf = np.where(normal, man - (1 << mb), man)
        bits = (expf.astype(np.int64) << mb) | np.nan_to_num(manf).astype(np.int64)
        if fmt == "e4m3":
            nan = np.uint8(0x7F)
            inf = nan
        else:
            nan, inf = np.uint8(0x7F), np.uint8(0x7C)
        bits = np.where(np.isnan(v), nan, np.where(np.isinf(v), inf, bits)).astype(np.uint8)
    return (bits | np.where(np.isnan(v), 0, sign)).astype(np.uint8)


def fmt_decode(bits, fmt):
    bits = np.asarray(bits).astype(np.int64)
    if fmt == "e4m3":
        mb, bias, ebits = 3, 7, 4
    else:
        mb, bias, ebits = 2, 15, 5
    s = (bits >> 7) & 1
    e = (bits >> mb) & ((1 << ebits) - 1)
    m = bits & ((1 << mb) - 1)
    v = np.where(e == 0, np.ldexp(m.astype(np.float64), 1 - bias - mb),
                 np.ldexp((m + (1 << mb)).astype(np.float64), e - bias - mb))
    if fmt == "e4m3":
        v = np.where((e == 15) & (m == 7), np.nan, v)
    else:
        v = np.where(e == 31, np.where(m == 0, np.inf, np.nan), v)
    return np.where(s == 1, -v, v)


def flush_f32(v):
    """f32 values with the subnormals made zeros of their sign (.ftz)."""
    v = np.asarray(v)
    if v.dtype != np.float32:
        return v
    tiny = (np.abs(v) < np.float32(1.1754944e-38)) & (v != 0)
    return np.where(tiny, np.copysign(np.float32(0), v), v).astype(np.float32)


def two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _split(a):
    c = a * 134217729.0
    hi = c - (c - a)
    return hi, a - hi


def two_prod(a, b):
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def nudge(r, res, mode):
    """r: a result rounded to nearest; res: the sign of (exact - r). The result
    rounded by `mode` (r's dtype)."""
    if mode == "rn":
        return r
    inf = np.array(np.inf, r.dtype)
    with np.errstate(all="ignore"):
        if mode == "rm":
            return np.where(res < 0, np.nextafter(r, -inf), r)
        if mode == "rp":
            return np.where(res > 0, np.nextafter(r, inf), r)
        if mode == "rz":
            down = ((r > 0) & (res < 0)) | ((r < 0) & (res > 0))
            return np.where(down, np.nextafter(r, np.zeros_like(r)), r)
    raise SimError("rounding mode " + mode)


def f64_op_rounded(op, a, b, c, mode):
    """f64 add/sub/mul/div/sqrt/fma/rcp in a directed rounding mode, exactly."""
    with np.errstate(all="ignore"):
        if op in ("add", "sub"):
            r, e = two_sum(a, b if op == "add" else -b)
            res = e
        elif op == "mul":
            r, e = two_prod(a, b)
            res = e
        elif op in ("div", "rcp"):
            if op == "rcp":
                a, b = np.ones_like(b), b
            r = a / b
            p, e = two_prod(r, b)
            res = ((a - p) - e) * np.sign(b)
        elif op == "sqrt":
            r = np.sqrt(a)
            p, e = two_prod(r, r)
            res = (a - p) - e
        elif op == "fma":
            out = np.empty_like(a)
            for i in range(len(a)):
                x, y, z = float(a[i]), float(b[i]), float(c[i])
                if not all(np.isfinite([x, y, z])):
                    out[i] = x * y + z
                    continue
                ex = Fraction(x) * Fraction(y) + Fraction(z)
                r0 = float(ex)  # rounds to nearest
                d = ex - Fraction(r0) if np.isfinite(r0) else 0
                out[i] = nudge(np.array([r0]), np.array([float(np.sign(d))]), mode)[0]
            return out
        else:
            raise SimError("f64 %s.%s" % (op, mode))
        bad = ~np.isfinite(r) | np.isnan(res)
        return nudge(r, np.where(bad, 0.0, res), mode)


# ---- the kernel -----------------------------------------------------------------

class Ins:
    __slots__ = ("pred", "neg", "opc", "parts", "base", "tys", "ty", "ops", "line", "fn")

    def __init__(self, pred, neg, opc, ops, line):
        self.pred, self.neg, self.opc, self.ops, self.line = pred, neg, opc, ops, line
        self.parts = opc.split(".")
        self.base = self.parts[0]
        self.tys = [p for p in self.parts[1:] if p in TYPES]
        self.ty = self.tys[-1] if self.tys else None
        self.fn = None


class Kernel:
    def __init__(self, text):
        self.text = text
        self.bank_conflicts = None  # {} to count them (see the module's doc)
        self.bank_lines = {}
        m = re.search(r"\.entry\s+(\w+)\s*\((.*?)\)", text, re.S)
        if not m:
            raise SimError("no .entry")
        self.name = m.group(1)
        self.params = []
        for p in (x.strip() for x in m.group(2).split(",")):
            if p:
                w = p.split()
                self.params.append((w[1].lstrip("."), w[-1].strip()))
        rq = re.search(r"\.reqntid\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?", text)
        self.ntid = (int(rq.group(1)), int(rq.group(2) or 1), int(rq.group(3) or 1)) if rq else (128, 1, 1)
        self.nthreads = self.ntid[0] * self.ntid[1] * self.ntid[2]
        if self.nthreads % 32:
            raise SimError("a CTA of %d threads (not whole warps)" % self.nthreads)
        # module-level variables: .global (with initialisers), .local
        self.gvars, self.lvars, self.local_size = {}, {}, 0
        head = text[:m.start()]
        for gm in re.finditer(r"^\s*\.global\s+(?:\.align\s+(\d+)\s+)?\.(\w+)\s+([\w$]+)\[(\d+)\]"
                              r"(?:\s*=\s*\{([^}]*)\})?\s*;", head, re.M):
            ty, name, n, init = gm.group(2), gm.group(3), int(gm.group(4)), gm.group(5)
            arr = np.zeros(n, DT[ty])
            if init:
                arr[:] = [int(v, 0) for v in init.split(",")]
            self.gvars[name] = arr
        body_start = text.index("{", m.end())
        body = text[body_start + 1:text.rindex("}")]
        self.regtype = {}
        self.scoped = {}  # a register declared inside { }, by its unique name: its type
        self.nscoped = 0  # declarations inside { } so far (their unique names' numbers)
        self.code, self.labels = [], {}
        self.param_decls = {}
        scopes = []  # per open { }: declared name -> (unique name, N of a %r<N> or None)
        for line in self.statements(body):
            if line == "{":
                scopes.append({})
                continue
            if line == "}":
                if scopes:
                    scopes.pop()
                continue
            if scopes:
                if self.declare_scoped(line, scopes):
                    continue
                line = self.rename_scoped(line, scopes)
            rm = re.match(r"\.reg\s+\.(\w+)\s+%(\w+?)<\d+>;", line)
            if rm:
                self.regtype[rm.group(2)] = rm.group(1)
                continue
            lm = re.match(r"\.local\s+(?:\.align\s+(\d+)\s+)?\.(\w+)\s+([\w$]+)\[(\d+)\]\s*;", line)
            if lm:
                al = int(lm.group(1) or 1)
                self.local_size = -(-self.local_size // al) * al
                self.lvars[lm.group(3)] = self.local_size
                self.local_size += int(lm.group(4)) * np.dtype(DT[lm.group(2)]).itemsize
                continue
            pm = re.match(r"\.param\s+\.(\w+)\s+(\w+)\s*;", line)
            if pm:
                self.param_decls[pm.group(2)] = pm.group(1)
                continue
            if line.endswith(":"):
                self.labels[line[:-1]] = len(self.code)
                continue
            if line.startswith("."):
                continue
            self.code.append(self.parse(line.rstrip(";")))
        self.spin = bool(re.search(r"atom\.[\w.]*\.(cas|exch)\.", text) or
                         re.search(r"ld\.[\w.]*(volatile|acquire)", text))

    @staticmethod
    def statements(body):
        """The body's statements, one a line as the loop above reads them
        (each with its `;`), and each `{` or `}` that opens or closes a
        block (at the start of a statement: braces inside one are a vector
        operand) alone: inline asm writes `{ .reg .b32 t; ...; }`, on one
        line or several."""
        for ln in body.splitlines():
            line = ln.split("//")[0].strip()
            while line:
                if line[0] in "{}":
                    yield line[0]
                    line = line[1:].lstrip()
                    continue
                end = line.find(";")
                if end < 0:
                    yield line
                    break
                yield line[:end + 1]
                line = line[end + 1:].lstrip()

    _reg_decl = re.compile(r"\.reg\s+\.(\w+)\s+(.+?)\s*;$")

    def declare_scoped(self, line, scopes):
        """A `.reg` inside { } (ptxas scopes it to the block, so the same
        name may be declared in each inlined asm): each name gets a unique
        one, `t` -> `%__4_t`, `%r<3>` -> `%__4_r` (its registers %__4_r0 to
        %__4_r2), that rename_scoped writes for it until the block closes."""
        m = self._reg_decl.match(line)
        if not m:
            return False
        for decl in m.group(2).split(","):
            dm = re.match(r"(%?[A-Za-z_$][\w$]*)(?:<(\d+)>)?$", decl.strip())
            if not dm:
                raise SimError("register declaration " + line)
            unique = "%%__%d_%s" % (self.nscoped, dm.group(1).lstrip("%"))
            self.nscoped += 1
            scopes[-1][dm.group(1)] = (unique, None if dm.group(2) is None else int(dm.group(2)))
            for r in range(int(dm.group(2))) if dm.group(2) is not None else (None,):
                self.scoped[unique if r is None else unique + str(r)] = m.group(1)
        return True

    @staticmethod
    def rename_scoped(line, scopes):
        names = {}
        for sc in scopes:  # (inner blocks shadow outer ones)
            names.update(sc)
        if not names:
            return line

        def sub(m):
            tok = m.group(0)
            hit = names.get(tok)
            if hit is not None and hit[1] is None:
                return hit[0]
            # a register of a `%r<3>` declaration: %r0, %r1, %r2 (%r3 is
            # the enclosing scope's)
            am = re.match(r"(.*?)(\d+)$", tok)
            hit = names.get(am.group(1)) if am else None
            if hit is not None and hit[1] is not None and int(am.group(2)) < hit[1]:
                return hit[0] + am.group(2)
            return tok

        return re.sub(r"(?<![\w$.%])%?[A-Za-z_$][\w$]*", sub, line)

    @staticmethod
    def parse(line):
        pred, neg = None, False
        if line.startswith("@"):
            p, line = line.split(None, 1)
            neg = p.startswith("@!")
            pred = p[2:] if neg else p[1:]
        parts = line.split(None, 1)
        return Ins(pred, neg, parts[0], split_operands(parts[1]) if len(parts) > 1 else [], line)

    # ---- registers and operands ------------------------------------------

    def storage(self, name):
        if name in self.scoped:
            return STORAGE[self.scoped[name]]
        m = re.match(r"%([a-z]+)\d+$", name)
        if not m or m.group(1) not in self.regtype:
            raise SimError("unknown register " + name)
        return STORAGE[self.regtype[m.group(1)]]

    def _const(self, op, ty):
        key = (op, ty)
        v = self._consts.get(key)
        if v is not None:
            return v
        want = DT[ty]
        if re.match(r"^0[fF][0-9a-fA-F]{8}$", op):
            v = np.array(int(op[2:], 16), np.uint32).view(np.float32)
            v = self.convert(v.reshape(1), want, ty)[0]
        elif re.match(r"^0[dD][0-9a-fA-F]{16}$", op):
            v = np.array(int(op[2:], 16), np.uint64).view(np.float64)
            v = self.convert(v.reshape(1), want, ty)[0]
        elif op in self.gvars:
            v = np.array(self.gaddr[op], np.uint64).astype(want)
        elif op in self.lvars:
            v = np.array(self.lvars[op], np.uint64).astype(want)
        elif op == "global_smem":
            v = np.zeros((), want)
        else:
            try:
                iv = int(op.rstrip("Uu"), 0)
            except ValueError:
                raise SimError("operand " + op) from None
            if want == np.bool_:
                v = np.array(bool(iv))
            elif np.dtype(want).kind == "f":
                v = np.array(iv, want)
            else:
                size = np.dtype(want).itemsize
                v = np.array(iv & ((1 << 8 * size) - 1), np.uint64).astype(UINT[size]).view(want)
        v = np.asarray(v, want)
        self._consts[key] = v
        return v

    def read(self, op, ty):
        """Operand `op` as an array (or a numpy scalar) of type ty (bits
        reinterpreted, or converted between integer widths as PTX's operand
        rules allow)."""
        if op[0] == "%":
            if op in self.wg_regs:
                raise SimError("%s is read while a wgmma in flight uses it (no wgmma.wait_group)" % op)
            v = self.regs.get(op)
            if v is None:
                s = self.specials.get(op[1:])
                if s is not None:
                    return s.astype(DT[ty])
                raise SimError("read of undefined register " + op)
            want = DT[ty]
            if v.dtype.itemsize == np.dtype(want).itemsize and v.dtype != np.bool_ and want != np.bool_:
                return v.view(want)
            return self.convert(v, want, ty)
        if op[0] == "-" and op[1:2] == "%":
            return -self.read(op[1:], ty)
        return self._const(op, ty)

    @staticmethod
    def convert(v, want, ty):
        if v.dtype == want:
            return v
        if v.dtype == np.bool_ or want == np.bool_:
            return v.astype(want)
        a, b = v.dtype.itemsize, np.dtype(want).itemsize
        if a == b:
            return v.view(want)
        u = v.view(UINT[a])
        if b < a:
            return u.astype(UINT[b]).view(want)
        if ty and ty[0] == "s":
            return v.view(SINT[a]).astype(want)
        if np.dtype(want).kind == "f":
            raise SimError("float read of a %d-byte register as %s" % (a, ty))
        return u.astype(UINT[b]).view(want)

    def write(self, op, val, signed=False):
        if op in self.wg_regs:
            raise SimError("%s is written while a wgmma in flight uses it (no wgmma.wait_group)" % op)
        st = self.storage(op)
        val = np.asarray(val)
        if val.dtype != st:
            a, b = val.dtype.itemsize, np.dtype(st).itemsize
            if val.dtype == np.bool_ or st == np.bool_:
                val = val.astype(st)
            elif a == b:
                val = val.view(st)
            elif b > a:  # a narrow value into a wide register: extended by its signedness
                if signed or val.dtype.kind == "i":
                    val = val.view(SINT[a]).astype(SINT[b]).view(st)
                else:
                    val = val.view(UINT[a]).astype(st)
            else:
                val = val.view(UINT[a]).astype(UINT[b]).view(st)
        if self.full:
            if val.shape != (self.T,):
                val = np.broadcast_to(val, (self.T,))
            self.regs[op] = np.array(val, st)
            return
        old = self.regs.get(op)
        if old is None:
            old = np.zeros(self.T, st)
        self.regs[op] = np.where(self.mask, val, old)

    # ---- memory -------------------------------------------------------------

    def address(self, op):
        m = re.match(r"^\[([^\]+]+)(?:\+(-?\d+))?\]$", op.replace(" ", ""))
        if not m:
            raise SimError("address " + op)
        base, off = m.group(1), int(m.group(2) or 0)
        if base == "global_smem":
            return np.full(self.T, off, np.int64)
        if base in self.gvars:
            return np.full(self.T, self.gaddr[base] + off, np.int64)
        if base in self.lvars:
            return np.full(self.T, self.lvars[base] + off, np.int64)
        if base[0] != "%":
            try:
                return np.full(self.T, int(base, 0) + off, np.int64)
            except ValueError:
                raise SimError("address " + op) from None
        v = self.regs.get(base)
        if v is None:
            raise SimError("read of undefined register " + base)
        a = v.astype(np.int64) if v.dtype != np.uint64 else v.view(np.int64)
        return a + off

    def gindex(self, addr, size, what):
        """Arena offsets of global accesses at addr (one per active thread)."""
        if len(addr) == 0:
            return addr
        i = np.searchsorted(self.buf_lo, addr, "right") - 1
        ok = (i >= 0) & (addr + size <= self.buf_hi[np.maximum(i, 0)])
        if not ok.all():
            bad = int(addr[~ok][0])
            raise SimError("%s: global access of %d bytes at %#x outside every buffer (%s)" %
                           (what, size, bad, self.describe_addr(bad)))
        if (addr % size).any():
            raise SimError("%s: misaligned global access of %d bytes at %#x" % (what, size, int(addr[addr % size != 0][0])))
        return addr - self.buf_lo[i] + self.buf_off[i]

    def describe_addr(self, a):
        best = None
        for k, (lo, hi) in enumerate(zip(self.buf_lo, self.buf_hi)):
            d = a - hi if a >= hi else lo - a if a < lo else 0
            if best is None or d < best[0]:
                best = (d, k, a - lo)
        if best is None:
            return "no buffers"
        return "buffer %d (%s) at byte offset %d" % (best[1], self.buf_names[best[1]], best[2])

    def vec_names(self, vals):
        return [x.strip() for x in vals.strip("{}").split(",")] if vals.startswith("{") else [vals]

    def count_banks(self, kind, ins, idx, addr, width):
        """Bank conflicts of the access of threads idx at shared addresses
        addr (one a thread), width bytes each (see the module's doc)."""
        per = 32 if width <= 4 else 16 if width == 8 else 8
        words = max(1, width // 4)
        acc = self.bank_conflicts.setdefault(kind, {"accesses": 0, "wavefronts": 0, "conflicts": 0})
        warp = idx // 32
        extra = 0
        for w in np.unique(warp):
            sel = warp == w
            lanes, a = idx[sel] % 32, addr[sel].astype(np.int64)
            acc["accesses"] += 1
            for ph in np.unique(lanes // per):
                aw = a[lanes // per == ph]
                wd = np.unique((aw[:, None] // 4 + np.arange(words)).reshape(-1))
                most = int(np.bincount(wd % 32, minlength=32).max())
                acc["wavefronts"] += most
                extra += most - 1
        acc["conflicts"] += extra
        if extra:
            self.bank_lines[ins.line] = self.bank_lines.get(ins.line, 0) + extra

    def ldst(self, ins, m):
        parts = ins.parts
        store = ins.base == "st"
        space = "generic"
        for p in parts[1:]:
            if p in ("global", "shared", "param", "local", "const"):
                space = p
        ty = ins.ty
        vec = 4 if "v4" in parts else 2 if "v2" in parts else 1
        size = np.dtype(DT[ty]).itemsize
        if store:
            addr_op, vals = ins.ops
        else:
            vals, addr_op = ins.ops
        names = self.vec_names(vals)
        if len(names) != vec:
            raise SimError("vector width of " + ins.line)
        if space == "param":
            name = addr_op.strip("[]").split("+")[0].strip()
            if store:
                self.call_params[name] = self.read(names[0], ty)
                return
            if name not in self.param_values:
                raise SimError("ld.param of " + name)
            iv = self.param_values[name]
            sz = np.dtype(DT[ty]).itemsize
            v = np.array(iv & ((1 << 8 * sz) - 1), np.uint64).astype(UINT[sz]).view(DT[ty])
            return self.write(names[0], v, signed=ty[0] == "s")
        addr = self.address(addr_op)
        idx = np.nonzero(m)[0]
        a = addr[idx]
        if space == "generic":
            raise SimError("generic-address " + ins.base + ": " + ins.line)
        if space == "shared" and self.bank_conflicts is not None:
            self.count_banks(ins.base + ".shared", ins, idx, a, vec * size)
        for k, name in enumerate(names):
            ak = a + k * size
            if store:
                v = np.broadcast_to(self.read(name, ty), (self.T,))[idx]
                raw = np.ascontiguousarray(v).view(np.uint8).reshape(-1, size)
                self.mem_write(space, ak, size, idx, raw, ins)
            else:
                raw = self.mem_read(space, ak, size, idx, ins)
                out = np.zeros(self.T, DT[ty])
                out[idx] = raw.reshape(-1).view(DT[ty]) if len(idx) else out[idx]
                self.write(name, out, signed=ty[0] == "s")

    def mem_read(self, space, a, size, idx, ins):
        if space == "global":
            off = self.gindex(a, size, ins.line)
            return self.arena[off[:, None] + np.arange(size)]
        if space == "local":
            if ((a < 0) | (a + size > self.local_size)).any():
                raise SimError("local access out of range: " + ins.line)
            return self.local[idx[:, None], a[:, None] + np.arange(size)]
        if space == "shared":
            b = self.smem_index(a, size, idx, ins)
            self.smem_check(b, size, idx, False, None)
            return self.smem[b[:, None] + np.arange(size)]
        raise SimError("space " + space)

    def mem_write(self, space, a, size, idx, raw, ins):
        if space == "global":
            off = self.gindex(a, size, ins.line)
            self.arena[off[:, None] + np.arange(size)] = raw
            return
        if space == "local":
            if ((a < 0) | (a + size > self.local_size)).any():
                raise SimError("local access out of range: " + ins.line)
            self.local[idx[:, None], a[:, None] + np.arange(size)] = raw
            return
        if space == "shared":
            b = self.smem_index(a, size, idx, ins)
            self.smem_check(b, size, idx, True, raw)
            self.smem[b[:, None] + np.arange(size)] = raw
            return
        raise SimError("space " + space)

    def smem_index(self, a, size, idx, ins):
        if ((a < 0) | (a + size > self.smem_bytes)).any():
            raise SimError("shared access beyond %d bytes: %s" % (self.smem_bytes, ins.line))
        if (a % size).any():
            raise SimError("misaligned shared access: " + ins.line)
        return (idx // self.nthreads) * self.smem_bytes + a

    def smem_atomic_check(self, off, size, t):
        """Race checks of an atomic on shared bytes off..off+size-1 by thread t:
        atomics of several threads on a byte in one barrier interval are no
        race among themselves (the byte's writer becomes ATOMIC), but one
        after another thread's plain read or write is, and so is a plain
        read of the byte after it (the writer check)."""
        if self.s_pending[off:off + size].any():
            raise SimError("thread %d's atomic on shared byte %d before the cp.async.wait_group of its copy" %
                           (t % self.nthreads, off % self.smem_bytes))
        ep = self.epoch[t // self.nthreads]
        w, r = self.s_writer[off:off + size], self.s_reader[off:off + size]
        wrote = (self.s_wepoch[off:off + size] == ep) & (w != t) & (w != ATOMIC)
        read = (self.s_repoch[off:off + size] == ep) & (r != t) & (r != -1)
        if wrote.any() or read.any():
            other = int(w[wrote][0] if wrote.any() else r[read][0])
            raise SimError("race: thread %d's atomic on shared byte %d after thread %d %s it since the barrier" %
                           (t % self.nthreads, off % self.smem_bytes, other % self.nthreads,
                            "wrote" if wrote.any() else "read"))
        if self.s_wgread[off:off + size].any():
            raise SimError("shared memory written while a wgmma in flight reads it")
        self.s_wepoch[off:off + size] = ep
        self.s_writer[off:off + size] = ATOMIC
        self.s_unfenced[off:off + size] = True

    def smem_check(self, b, size, idx, store, raw):
        """Race checks of the shared bytes b[i]..b[i]+size-1 accessed by threads idx[i]."""
        if len(b) == 0:
            return
        bytes_ = (b[:, None] + np.arange(size)).reshape(-1)
        t = np.repeat(idx, size)
        ep = self.epoch[t // self.nthreads]
        if not store and self.s_pending[bytes_].any():
            k = int(np.nonzero(self.s_pending[bytes_])[0][0])
            raise SimError("thread %d reads shared byte %d before the cp.async.wait_group of its copy" %
                           (t[k] % self.nthreads, bytes_[k] % self.smem_bytes))
        if store:
            rv = raw.reshape(-1)
            bad = (self.s_repoch[bytes_] == ep) & (self.s_reader[bytes_] != t) & (self.s_reader[bytes_] != -1)
            if bad.any():
                k = int(np.nonzero(bad)[0][0])
                raise SimError("race: thread %d writes shared byte %d read by thread %d since the barrier" %
                               (t[k] % self.nthreads, bytes_[k] % self.smem_bytes, self.s_reader[bytes_[k]]))
            bad = (self.s_wepoch[bytes_] == ep) & (self.s_writer[bytes_] != t) & (self.smem[bytes_] != rv)
            if bad.any():
                k = int(np.nonzero(bad)[0][0])
                raise SimError("race: threads %d and %d write different values to shared byte %d" %
                               (t[k] % self.nthreads, self.s_writer[bytes_[k]] % self.nthreads,
                                bytes_[k] % self.smem_bytes))
            # two threads of this instruction writing different values to one byte
            order = np.argsort(bytes_, kind="stable")
            sb, sv, st = bytes_[order], rv[order], t[order]
            same = (sb[1:] == sb[:-1]) & (st[1:] != st[:-1]) & (sv[1:] != sv[:-1])
            if same.any():
                k = int(np.nonzero(same)[0][0])
                raise SimError("race: threads %d and %d write different values to shared byte %d" %
                               (st[k] % self.nthreads, st[k + 1] % self.nthreads, sb[k] % self.smem_bytes))
            if self.s_wgread[bytes_].any():
                raise SimError("shared memory written while a wgmma in flight reads it")
            self.s_wepoch[bytes_] = ep
            self.s_writer[bytes_] = t
            self.s_unfenced[bytes_] = True
        else:
            bad = (self.s_wepoch[bytes_] == ep) & (self.s_writer[bytes_] != t)
            if bad.any():
                k = int(np.nonzero(bad)[0][0])
                raise SimError("race: thread %d reads shared byte %d written by thread %d since the barrier" %
                               (t[k] % self.nthreads, bytes_[k] % self.smem_bytes,
                                self.s_writer[bytes_[k]] % self.nthreads))
            cur = self.s_repoch[bytes_] == ep
            other = cur & (self.s_reader[bytes_] != t)
            self.s_reader[bytes_[other]] = -2  # several readers: any write by anyone is a race
            fresh = ~cur
            self.s_repoch[bytes_[fresh]] = ep[fresh]
            self.s_reader[bytes_[fresh]] = t[fresh]
            # several threads of this instruction reading one byte
            u, cnt = np.unique(bytes_, return_counts=True)
            if (cnt > 1).any():
                multi = u[cnt > 1]
                # (the same thread reading a byte twice in a vector is not two readers)
                order = np.argsort(bytes_, kind="stable")
                sb, st = bytes_[order], t[order]
                two = (sb[1:] == sb[:-1]) & (st[1:] != st[:-1])
                if two.any():
                    self.s_reader[np.unique(sb[1:][two])] = -2
                del multi

    # ---- running --------------------------------------------------------------

    def run(self, grid, args, smem_bytes=1 << 16, cta_batch=None, max_steps=2_000_000, memory=None):
        if len(args) != len(self.params):
            raise SimError("%d arguments for %d parameters" % (len(args), len(self.params)))
        grid = tuple(grid) + (1,) * (3 - len(grid))
        # the global arena: every distinct array once (arguments, then the
        # `memory` buffers: (address, array) pairs no parameter points to),
        # module globals after; each at its own address (Ptr.base), or at
        # one chosen from GBASE
        arrays, names, fixed = [], [], {}
        items = [(name, a) for (ty, name), a in zip(self.params, args)] + \
            [("memory %d" % i, Ptr(arr, 0, addr)) for i, (addr, arr) in enumerate(memory or ())]
        for name, a in items:
            arr = a.array if isinstance(a, Ptr) else a if isinstance(a, np.ndarray) else None
            if arr is None:
                continue
            if isinstance(a, Ptr) and a.base is not None:
                fixed[id(arr)] = a.base
            if not any(arr is x for x in arrays):
                if not arr.flags.c_contiguous:
                    raise SimError("argument %s is not contiguous" % name)
                arrays.append(arr)
                names.append(name)
        self.gaddr = {}
        bufs, base, nxt = [], 0, GBASE   # (virtual address, arena offset, array, name)
        for arr, name in list(zip(arrays, names)) + [(arr, name) for name, arr in self.gvars.items()]:
            va = fixed.get(id(arr))
            if va is None:
                va = nxt
                nxt += ((arr.nbytes + 4095) // 4096 + 1) * 4096
            if name in self.gvars and arr is self.gvars[name]:
                self.gaddr[name] = va
            bufs.append((va, base, arr, name))
            base += ((arr.nbytes + 15) // 16 + 1) * 16
        bufs.sort(key=lambda b: b[0])
        for (va, _, arr, name), nb in zip(bufs, bufs[1:]):
            if va + arr.nbytes > nb[0]:
                raise SimError("buffers %s and %s overlap" % (name, nb[3]))
        self.arena = np.zeros(base + 16, np.uint8)
        for va, off, arr, name in bufs:
            self.arena[off:off + arr.nbytes] = arr.reshape(-1).view(np.uint8)
        self.buf_lo = np.array([b[0] for b in bufs], np.int64)
        self.buf_hi = np.array([b[0] + b[2].nbytes for b in bufs], np.int64)
        self.buf_off = np.array([b[1] for b in bufs], np.int64)
        self.buf_names = [b[3] for b in bufs]
        va_of = {id(b[2]): b[0] for b in bufs}
        self.param_values = {}
        for (ty, name), a in zip(self.params, args):
            if isinstance(a, (np.ndarray, Ptr)):
                arr = a.array if isinstance(a, Ptr) else a
                off = a.offset if isinstance(a, Ptr) else 0
                self.param_values[name] = int(va_of[id(arr)]) + off
            elif isinstance(a, (float, np.floating)):
                if ty == "f64":
                    self.param_values[name] = struct.unpack("<Q", struct.pack("<d", float(a)))[0]
                else:
                    self.param_values[name] = struct.unpack("<I", struct.pack("<f", float(a)))[0]
            else:
                self.param_values[name] = int(a) & ((1 << 64) - 1)
        self._consts = {}
        self.stats = {}
        self.prints = []
        self.max_steps = max_steps
        ctas = [(x, y, z) for z in range(grid[2]) for y in range(grid[1]) for x in range(grid[0])]
        if cta_batch is None:
            cta_batch = 1 if self.spin else max(1, min(64, (1 << 22) // max(smem_bytes, 1),
                                                       8192 // self.nthreads))
        self.smem_bytes = smem_bytes
        for i in range(0, len(ctas), cta_batch):
            self.run_batch(ctas[i:i + cta_batch], grid)
        for va, off, arr, name in bufs:
            if name not in self.gvars:
                arr.reshape(-1).view(np.uint8)[:] = self.arena[off:off + arr.nbytes]

    def run_batch(self, ctas, grid):
        n, B = self.nthreads, len(ctas)
        T = self.T = n * B
        tid = np.tile(np.arange(n, dtype=np.uint32), B)
        cid = np.array(ctas, np.uint32).repeat(n, axis=0)
        nx, ny = self.ntid[0], self.ntid[1]
        self.specials = {"tid.x": tid % nx, "tid.y": (tid // nx) % ny, "tid.z": tid // (nx * ny),
                         "ntid.x": np.full(T, nx, np.uint32), "ntid.y": np.full(T, ny, np.uint32),
                         "ntid.z": np.full(T, self.ntid[2], np.uint32),
                         "ctaid.x": cid[:, 0].copy(), "ctaid.y": cid[:, 1].copy(), "ctaid.z": cid[:, 2].copy(),
                         "nctaid.x": np.full(T, grid[0], np.uint32), "nctaid.y": np.full(T, grid[1], np.uint32),
                         "nctaid.z": np.full(T, grid[2], np.uint32), "laneid": tid % 32,
                         "warpid": tid // 32}
        self.regs = {}
        S = self.smem_bytes
        self.smem = np.zeros(S * B, np.uint8)
        self.s_wepoch = np.full(S * B, -1, np.int64)
        self.s_repoch = np.full(S * B, -1, np.int64)
        self.s_writer = np.full(S * B, -1, np.int64)
        self.s_reader = np.full(S * B, -1, np.int64)
        self.s_pending = np.zeros(S * B, np.int32)
        self.s_unfenced = np.zeros(S * B, np.bool_)  # written, not yet fenced for the async proxy
        self.epoch_counter = getattr(self, "epoch_counter", 0) + B
        self.epoch = np.arange(self.epoch_counter - B, self.epoch_counter, dtype=np.int64)
        self.local = np.zeros((T, max(self.local_size, 1)), np.uint8)
        self.cp_open, self.cp_groups = [], []   # per batch (threads carry their CTA)
        # wgmma groups in flight: (registers, shared bytes) each; until its
        # wait_group, no other instruction may touch them
        self.wg_open, self.wg_groups = ([], []), []
        self.wg_regs = {}
        self.s_wgread = np.zeros(S * B, np.int32)
        self.call_params = {}
        code, labels, stats = self.code, self.labels, self.stats
        ncode = len(code)
        pc = np.zeros(T, np.int64)
        alive = np.ones(T, bool)
        blocked = np.zeros(T, bool)
        bar_at = np.full(T, -1, np.int64)
        steps = 0
        while True:
            runnable = alive & ~blocked
            if blocked.any():
                # release the CTAs whose live threads all wait at a barrier
                live = alive.reshape(B, n)
                waiting = (live & ~blocked.reshape(B, n)).any(1)
                rel = ~waiting & blocked.reshape(B, n).any(1)
                if rel.any():
                    for c in np.nonzero(rel)[0]:
                        sl = slice(c * n, (c + 1) * n)
                        at = np.unique(bar_at[sl][blocked[sl]])
                        if len(at) > 1:
                            raise SimError("CTA %s: threads wait at different bar.sync instructions (%s)" %
                                           (ctas[c], ", ".join(code[a].line for a in at[:3])))
                        # a warp part of which has exited: the hardware may wait for
                        # those threads forever (whole warps that exited are not waited for)
                        w_alive = alive[sl].reshape(-1, 32)
                        part = w_alive.any(1) & ~w_alive.all(1)
                        if part.any():
                            raise SimError("CTA %s: deadlock: bar.sync (%s) waits for threads of warp %d that "
                                           "have exited" % (ctas[c], code[at[0]].line, int(np.nonzero(part)[0][0])))
                        self.epoch_counter += 1
                        self.epoch[c] = self.epoch_counter
                        blocked[sl] = False
                    runnable = alive & ~blocked
            if not runnable.any():
                if blocked.any():
                    raise SimError("deadlock at bar.sync")
                return
            rp = np.where(runnable, pc, BIG)
            p = int(rp.min())
            m = rp == p
            others = int(np.where(m, BIG, rp).min())
            full_m = bool(m.all())
            self.mask, self.full = m, full_m
            while True:
                steps += 1
                if steps > self.max_steps:
                    raise SimError("more than %d steps (an endless loop? a lock never released?)" % self.max_steps)
                if p >= ncode:  # fell off the end: ret
                    alive[m] = False
                    break
                ins = code[p]
                stats[ins.opc] = stats.get(ins.opc, 0) + 1
                base = ins.base
                em = m
                if ins.pred is not None:
                    pv = self.read(ins.pred, "pred")
                    em = m & ~pv if ins.neg else m & pv
                    if (em == m).all():
                        em = m
                if base == "bra":
                    t = labels[ins.ops[0]]
                    if em is m:
                        p = t
                    elif not em.any():
                        p += 1
                    else:
                        pc[em] = t
                        pc[m & ~em] = p + 1
                        break
                elif base in ("ret", "exit"):
                    alive[em] = False
                    if em is m:
                        break
                    m = m & ~em
                    full_m = False
                    self.mask, self.full = m, False
                    p += 1
                elif base == "bar" or base == "barrier":
                    if em is not m:
                        raise SimError("predicated bar.sync executed by part of the threads: " + ins.line)
                    if (ins.ops and ins.ops[0] != "0") or len(ins.ops) > 1:
                        raise SimError("named or counted barrier: " + ins.line)
                    if "warp" in ins.parts:
                        p += 1
                    else:
                        pc[m] = p + 1
                        blocked[m] = True
                        bar_at[m] = p
                        break
                else:
                    if em is not m:
                        if not em.any():
                            p += 1
                            if p >= others:
                                pc[m] = p
                                break
                            continue
                        self.mask, self.full = em, False
                    try:
                        fn = ins.fn
                        if fn is None:
                            fn = ins.fn = self.handler(ins)
                        fn(ins, em)
                    except SimError as e:
                        raise SimError("CTA %s, line %d `%s`: %s" % (ctas[0] if B == 1 else "batch", p, ins.line, e)) \
                            from None
                    except (KeyError, IndexError, ValueError, TypeError) as e:
                        raise SimError("line %d `%s`: %s: %s" % (p, ins.line, type(e).__name__, e)) from None
                    if em is not m:
                        self.mask, self.full = m, full_m
                    p += 1
                if p >= others:
                    pc[m] = p
                    break

    # ---- instruction handlers ---------------------------------------------------

    def handler(self, ins):
        b = ins.base
        h = {"mov": self.h_mov, "ld": self.ldst, "st": self.ldst, "cp": self.h_cp, "ldmatrix": self.h_ldmatrix,
             "mma": self.h_mma, "wgmma": self.h_wgmma, "shfl": self.h_shfl, "cvt": self.h_cvt, "setp": self.h_setp, "selp": self.h_selp,
             "bfe": self.h_bfe, "bfi": self.h_bfi, "atom": self.h_atom, "red": self.h_atom, "cvta": self.h_cvta,
             "call": self.h_call, "griddepcontrol": self.h_nop, "membar": self.h_nop, "fence": self.h_fence,
             "prmt": self.h_prmt, "clz": self.h_bitcount, "popc": self.h_bitcount, "brev": self.h_brev,
             "testp": self.h_testp, "vote": self.h_vote, "copysign": self.h_copysign}.get(b)
        if h is not None:
            return h
        if ins.ty == "pred":
            return self.h_pred
        if ins.ty in ("f16x2", "bf16x2", "f16", "bf16"):
            return self.h_half
        if ins.ty in ("f32", "f64"):
            return self.h_float
        if ins.ty is not None:
            return self.h_int
        raise SimError("unknown instruction " + ins.opc)

    def h_nop(self, ins, m):
        pass

    def h_fence(self, ins, m):
        # fence.proxy.async: the executing threads' shared-memory writes
        # become visible to the async proxy (wgmma's descriptor reads)
        if "proxy" in ins.parts and "async" in ins.parts:
            done = np.isin(self.s_writer, np.nonzero(m)[0]) & self.s_unfenced
            self.s_unfenced[done] = False

    def h_mov(self, ins, m):
        d, a = ins.ops
        ty = ins.ty
        if d.startswith("{"):
            names = self.vec_names(d)
            v = np.broadcast_to(self.read(a, ty), (self.T,))
            half = UINT[np.dtype(DT[ty]).itemsize // len(names)]
            pieces = np.ascontiguousarray(v).view(half).reshape(self.T, len(names))
            for k, nm in enumerate(names):
                self.write(nm, pieces[:, k].copy())
            return
        if a.startswith("{"):
            names = self.vec_names(a)
            size = np.dtype(DT[ty]).itemsize // len(names)
            half = {1: "b8", 2: "b16", 4: "b32"}[size]
            pieces = np.stack([np.broadcast_to(self.read(nm, half), (self.T,)) for nm in names], 1)
            self.write(d, np.ascontiguousarray(pieces).reshape(-1).view(DT[ty]))
            return
        self.write(d, self.read(a, ty))

    def h_cvta(self, ins, m):
        d, a = ins.ops
        v = self.read(a, ins.ty).astype(np.uint64)
        if "local" in ins.parts:
            v = v + np.uint64(LOCAL_GENERIC)
        elif "shared" in ins.parts:
            raise SimError("cvta.shared")
        self.write(d, v)

    def h_call(self, ins, m):
        # call.uni (ret), func, (args)
        ops = ins.ops
        func = ops[1] if ops[0].startswith("(") else ops[0]
        args = [x.strip() for x in ops[-1].strip("()").split(",")]
        if func == "vprintf":
            fmt_addr = np.broadcast_to(self.call_params[args[0]], (self.T,))
            buf = np.broadcast_to(self.call_params[args[1]], (self.T,))
            for t in np.nonzero(m)[0]:
                a = int(fmt_addr[t])
                off = int(self.gindex(np.array([a]), 1, "vprintf format")[0])
                end = off
                while self.arena[end]:
                    end += 1
                fmt = bytes(self.arena[off:end]).decode("latin-1")
                b = int(buf[t])
                data = bytes(self.local[t, b - LOCAL_GENERIC:]) if b >= LOCAL_GENERIC else b""
                self.prints.append((int(t), fmt, data))
            return
        if func == "__assertfail":
            raise SimError("__assertfail called (device assert failed) by %d threads" % int(m.sum()))
        raise SimError("call of " + func)

    # -- predicates, integers --

    def h_pred(self, ins, m):
        a = [self.read(o, "pred") for o in ins.ops[1:]]
        b = ins.base
        if b == "and":
            r = a[0] & a[1]
        elif b == "or":
            r = a[0] | a[1]
        elif b == "xor":
            r = a[0] ^ a[1]
        elif b == "not":
            r = ~a[0]
        elif b == "mov":
            r = a[0]
        else:
            raise SimError("unknown instruction " + ins.opc)
        self.write(ins.ops[0], r)

    def h_setp(self, ins, m):
        cmp_, ty = ins.parts[1], ins.ty
        a, b = self.read(ins.ops[1], ty), self.read(ins.ops[2], ty)
        if ty == "f16":
            a, b = a.astype(np.float32), b.astype(np.float32)
        elif ty == "bf16":
            a, b = bf16_to_f32(a), bf16_to_f32(b)
        if ty[0] == "b":
            a, b = a.view(UINT[a.dtype.itemsize]) if a.ndim else a, b
        isf = ty in ("f16", "bf16", "f32", "f64")
        with np.errstate(invalid="ignore"):
            if isf:
                nan = np.isnan(a) | np.isnan(b)
                base = cmp_[:-1] if cmp_ in ("equ", "neu", "ltu", "leu", "gtu", "geu") else cmp_
                f = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
                     "ge": np.greater_equal}
                if base in f:
                    r = f[base](a, b) & ~nan
                    if base != cmp_:
                        r = r | nan
                elif cmp_ == "nan":
                    r = nan
                elif cmp_ == "num":
                    r = ~nan
                else:
                    raise SimError("setp." + cmp_)
            else:
                f = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
                     "ge": np.greater_equal, "lo": np.less, "ls": np.less_equal, "hi": np.greater,
                     "hs": np.greater_equal}[cmp_]
                if cmp_ in ("lo", "ls", "hi", "hs"):
                    a, b = a.view(UINT[a.dtype.itemsize]), b.view(UINT[b.dtype.itemsize])
                r = f(a, b)
        if len(ins.ops) > 3:
            c = self.read(ins.ops[3].lstrip("!"), "pred")
            if ins.ops[3].startswith("!"):
                c = ~c
            r = r & c if "and" in ins.parts else r | c if "or" in ins.parts else r ^ c
        d = ins.ops[0].split("|")
        self.write(d[0], r)
        if len(d) > 1:
            self.write(d[1], ~r)

    def h_selp(self, ins, m):
        ty = ins.ty
        r = np.where(self.read(ins.ops[3], "pred"), self.read(ins.ops[1], ty), self.read(ins.ops[2], ty))
        self.write(ins.ops[0], r.astype(DT[ty]))

    def h_bfe(self, ins, m):
        ty = ins.ty
        bits = np.dtype(DT[ty]).itemsize * 8
        a = self.read(ins.ops[1], ty)
        a = a.view(UINT[bits // 8]).astype(np.uint64) if np.ndim(a) else np.uint64(a.view(UINT[bits // 8]))
        pos = (self.read(ins.ops[2], "u32") & 0xFF).astype(np.int64)
        ln = (self.read(ins.ops[3], "u32") & 0xFF).astype(np.int64)
        pos_c = np.minimum(pos, bits - 1).astype(np.uint64)
        x = a >> pos_c
        x = np.where(pos >= bits, 0, x).astype(np.uint64)
        lnc = np.minimum(ln, 64)
        maskv = np.where(lnc >= 64, np.uint64(0xFFFFFFFFFFFFFFFF),
                         (np.uint64(1) << np.minimum(lnc, 63).astype(np.uint64)) - np.uint64(1))
        r = x & maskv
        if ty[0] == "s":
            # sign bit: bit min(pos+len-1, msb) of a (0 when len == 0)
            sb = np.minimum(pos + ln - 1, bits - 1).astype(np.uint64)
            sign = ((a >> sb) & np.uint64(1)).astype(bool) & (ln > 0)
            fill = ~maskv & np.uint64((1 << bits) - 1)
            r = np.where(sign & (ln < bits), r | fill, r)
        r = np.where(ln == 0, 0, r).astype(np.uint64)
        self.write(ins.ops[0], r.astype(UINT[bits // 8]).view(DT[ty]))

    def h_bfi(self, ins, m):
        ty = ins.ty
        bits = np.dtype(DT[ty]).itemsize * 8
        a = self.read(ins.ops[1], ty).view(UINT[bits // 8]).astype(np.uint64)
        b = self.read(ins.ops[2], ty).view(UINT[bits // 8]).astype(np.uint64)
        pos = (self.read(ins.ops[3], "u32") & 0xFF).astype(np.int64)
        ln = (self.read(ins.ops[4], "u32") & 0xFF).astype(np.int64)
        ln = np.minimum(ln, np.maximum(bits - pos, 0))
        mk = ((np.uint64(1) << np.minimum(ln, 63).astype(np.uint64)) - np.uint64(1))
        mk = np.where(ln >= 64, np.uint64(0xFFFFFFFFFFFFFFFF), mk)
        sh = np.minimum(pos, 63).astype(np.uint64)
        r = np.where(pos >= bits, b, (b & ~(mk << sh)) | ((a & mk) << sh))
        self.write(ins.ops[0], np.asarray(r, np.uint64).astype(UINT[bits // 8]).view(DT[ty]))

    def h_prmt(self, ins, m):
        if len(ins.parts) > 2:
            raise SimError("prmt mode " + ins.opc)
        a = self.read(ins.ops[1], "b32").astype(np.uint64)
        b = self.read(ins.ops[2], "b32").astype(np.uint64)
        c = self.read(ins.ops[3], "b32").astype(np.uint64)
        x = a | (b << np.uint64(32))
        r = np.zeros(np.broadcast(a, b, c).shape, np.uint64)
        for i in range(4):
            sel = (c >> np.uint64(4 * i)) & np.uint64(0xF)
            byte = (x >> ((sel & np.uint64(7)) * np.uint64(8))) & np.uint64(0xFF)
            byte = np.where(sel & np.uint64(8), np.where(byte & np.uint64(0x80), 0xFF, 0), byte).astype(np.uint64)
            r = r | (byte << np.uint64(8 * i))
        self.write(ins.ops[0], r.astype(np.uint32))

    def h_bitcount(self, ins, m):
        ty = ins.ty
        bits = np.dtype(DT[ty]).itemsize * 8
        a = np.broadcast_to(self.read(ins.ops[1], ty), (self.T,)).view(UINT[bits // 8]).astype(np.uint64)
        if ins.base == "popc":
            r = np.zeros(self.T, np.uint32)
            x = a.copy()
            for _ in range(bits):
                r += (x & np.uint64(1)).astype(np.uint32)
                x >>= np.uint64(1)
        else:
            r = np.full(self.T, bits, np.uint32)
            for k in range(bits):
                hit = ((a >> np.uint64(k)) & np.uint64(1)).astype(bool)
                r = np.where(hit, bits - 1 - k, r)
        self.write(ins.ops[0], r.astype(np.uint32))

    def h_brev(self, ins, m):
        ty = ins.ty
        bits = np.dtype(DT[ty]).itemsize * 8
        a = np.broadcast_to(self.read(ins.ops[1], ty), (self.T,)).view(UINT[bits // 8]).astype(np.uint64)
        r = np.zeros(self.T, np.uint64)
        for k in range(bits):
            r |= ((a >> np.uint64(k)) & np.uint64(1)) << np.uint64(bits - 1 - k)
        self.write(ins.ops[0], r.astype(UINT[bits // 8]))

    def h_testp(self, ins, m):
        ty = ins.ty
        a = self.read(ins.ops[1], ty)
        op = ins.parts[1]
        r = {"finite": np.isfinite, "infinite": np.isinf, "number": lambda x: ~np.isnan(x), "notanumber": np.isnan,
             "normal": lambda x: np.isfinite(x) & (np.abs(x) >= np.finfo(x.dtype).tiny),
             "subnormal": lambda x: (x != 0) & (np.abs(x) < np.finfo(x.dtype).tiny)}[op](a)
        self.write(ins.ops[0], r)

    def h_vote(self, ins, m):
        raise SimError("vote is not modelled")

    def h_int(self, ins, m):
        b, ty, parts = ins.base, ins.ty, ins.parts
        ops = ins.ops
        size = np.dtype(DT[ty]).itemsize
        bits = size * 8
        signed = ty[0] == "s"
        with np.errstate(all="ignore"):
            if b == "shf":  # the 64 bits {b, a} shifted, 32 of them kept
                lo, hi = (np.asarray(self.read(o, "u32")).astype(np.uint64) for o in ops[1:3])
                n = np.asarray(self.read(ops[3], "u32")).astype(np.uint64)
                n = n & np.uint64(31) if "wrap" in parts else np.minimum(n, np.uint64(32))
                v = (hi << np.uint64(32)) | lo
                r = (v << n) >> np.uint64(32) if "l" in parts else v >> n
                return self.write(ops[0], (r & np.uint64(0xFFFFFFFF)).astype(np.uint32))
            if b == "madc" or (b == "mad" and "cc" in parts):  # the carry chain, 32-bit
                if size != 4:
                    raise SimError(ins.opc)
                x, y, z = (np.asarray(self.read(o, "u32")).astype(np.uint64) for o in ops[1:4])
                prod = x * y
                part = prod >> np.uint64(32) if "hi" in parts else prod & np.uint64(0xFFFFFFFF)
                cc = getattr(self, "cc", None)
                if cc is None or cc.shape != (self.T,):
                    cc = self.cc = np.zeros(self.T, np.uint64)
                full = part + z + (cc if b == "madc" else np.uint64(0))
                if "cc" in parts:
                    self.cc = np.where(self.mask, full >> np.uint64(32), cc)
                return self.write(ops[0], (full & np.uint64(0xFFFFFFFF)).astype(np.uint32))
            if b in ("shl", "shr"):
                a = self.read(ops[1], ty)
                s = np.asarray(self.read(ops[2], "u32")).astype(np.int64)
                if b == "shl":
                    u = np.asarray(a).view(UINT[size]).astype(np.uint64)
                    r = np.where(s >= bits, 0, u << np.minimum(s, 63).astype(np.uint64)).astype(np.uint64)
                    r = r.astype(UINT[size])
                elif signed:
                    r = np.asarray(a) >> np.minimum(s, bits - 1).astype(DT[ty])
                else:
                    u = np.asarray(a).view(UINT[size])
                    r = np.where(s >= bits, 0, u >> np.minimum(s, bits - 1).astype(UINT[size])).astype(UINT[size])
                return self.write(ops[0], r)
            if b == "mul" and "wide" in parts:
                wide = {"s32": np.int64, "u32": np.uint64, "s16": np.int32, "u16": np.uint32}[ty]
                r = np.asarray(self.read(ops[1], ty)).astype(wide) * np.asarray(self.read(ops[2], ty)).astype(wide)
                return self.write(ops[0], r)
            if b in ("mul", "mad") and "hi" in parts:
                x, y = np.asarray(self.read(ops[1], ty)), np.asarray(self.read(ops[2], ty))
                r = mulhi(x, y, size, signed)
                if b == "mad":
                    r = (r + np.asarray(self.read(ops[3], ty))).astype(DT[ty])
                return self.write(ops[0], r)
            vals = [np.asarray(self.read(o, ty)) for o in ops[1:]]
            if b in ("add", "sub", "mul", "mad"):
                if "sat" in parts:
                    raise SimError("saturating integer " + ins.opc)
                u = [v.view(UINT[size]) if v.dtype != UINT[size] else v for v in vals]
                if b == "add":
                    r = u[0] + u[1]
                elif b == "sub":
                    r = u[0] - u[1]
                elif b == "mul":
                    r = u[0] * u[1]
                else:
                    r = u[0] * u[1] + u[2]
                return self.write(ops[0], np.asarray(r).astype(UINT[size]))
            if b in ("div", "rem"):
                x, y = np.broadcast_arrays(*vals[:2])
                if signed:
                    ux = np.abs(x.astype(np.int64)).astype(np.uint64) if size < 8 else \
                        np.where(x < 0, (~x.view(np.uint64)) + np.uint64(1), x.view(np.uint64))
                    uy = np.abs(y.astype(np.int64)).astype(np.uint64) if size < 8 else \
                        np.where(y < 0, (~y.view(np.uint64)) + np.uint64(1), y.view(np.uint64))
                else:
                    ux, uy = x.astype(np.uint64), y.astype(np.uint64)
                zero = uy == 0
                uy1 = np.where(zero, np.uint64(1), uy)
                if b == "div":
                    q = ux // uy1
                    if signed:
                        neg = (x < 0) ^ (y < 0)
                        q = np.where(neg, (~q) + np.uint64(1), q)
                    r = np.where(zero, np.uint64(0xFFFFFFFFFFFFFFFF), q)
                else:
                    rr = ux % uy1
                    if signed:
                        rr = np.where(x < 0, (~rr) + np.uint64(1), rr)
                    r = np.where(zero, x.astype(np.int64).view(np.uint64) if signed else x.astype(np.uint64), rr)
                return self.write(ops[0], r.astype(np.uint64).astype(UINT[size]))
            if b in ("and", "or", "xor", "not", "cnot"):
                u = [v.view(UINT[size]) if v.dtype != UINT[size] else v for v in vals]
                r = {"and": lambda: u[0] & u[1], "or": lambda: u[0] | u[1], "xor": lambda: u[0] ^ u[1],
                     "not": lambda: ~u[0], "cnot": lambda: (u[0] == 0).astype(UINT[size])}[b]()
                return self.write(ops[0], np.asarray(r, UINT[size]))
            if b in ("min", "max"):
                if len(vals) != 2 or "relu" in parts:
                    raise SimError(ins.opc)
                r = np.minimum(vals[0], vals[1]) if b == "min" else np.maximum(vals[0], vals[1])
                return self.write(ops[0], r.astype(DT[ty]))
            if b == "neg":
                return self.write(ops[0], (-vals[0].view(UINT[size])).astype(UINT[size]))
            if b == "abs":
                return self.write(ops[0], np.abs(vals[0]).astype(DT[ty]))
            if b == "sad":
                r = np.where(vals[0] < vals[1], vals[1] - vals[0], vals[0] - vals[1]) + vals[2]
                return self.write(ops[0], r.astype(DT[ty]))
        raise SimError("unknown instruction " + ins.opc)

    # -- floats --

    def h_copysign(self, ins, m):
        ty = ins.ty
        size = np.dtype(DT[ty]).itemsize
        a = np.asarray(self.read(ins.ops[1], ty)).view(UINT[size])
        b = np.asarray(self.read(ins.ops[2], ty)).view(UINT[size])
        sign = UINT[size](1 << (8 * size - 1))
        self.write(ins.ops[0], ((a & sign) | (b & ~sign)).astype(UINT[size]))

    def h_float(self, ins, m):
        ty, ops = ins.ty, ins.ops
        vals = [np.broadcast_to(self.read(o, ty), (self.T,)) for o in ops[1:]]
        if "ftz" not in ins.parts:
            return self.float_op(ins, vals, self.write)
        # .ftz (f32 only): subnormal sources and results are zeros of their sign
        if ty != "f32":
            raise SimError(".ftz on " + ins.opc)
        return self.float_op(ins, [flush_f32(v) for v in vals], lambda o, r: self.write(o, flush_f32(r)))

    def float_op(self, ins, vals, write):
        b, ty, parts, ops = ins.base, ins.ty, ins.parts, ins.ops
        ft = DT[ty]
        size = np.dtype(ft).itemsize
        modes = [p for p in parts if p in ("rn", "rz", "rm", "rp")]
        mode = modes[0] if modes else "rn"
        with np.errstate(all="ignore"):
            if b == "abs":
                r = vals[0].view(UINT[size]) & UINT[size]((1 << (8 * size - 1)) - 1)
                return write(ops[0], r)
            if b == "neg":
                r = vals[0].view(UINT[size]) ^ UINT[size](1 << (8 * size - 1))
                return write(ops[0], r)
            if b in ("min", "max"):
                x, y = np.broadcast_arrays(vals[0], vals[1])
                if len(vals) > 2 or "xorsign" in parts or "abs" in parts:
                    raise SimError(ins.opc)
                xb, yb = x.view(UINT[size]), y.view(UINT[size])
                if b == "min":
                    r = np.where(x < y, x, y)
                    r = np.where((x == 0) & (y == 0), (xb | yb).view(ft), r)
                else:
                    r = np.where(x > y, x, y)
                    r = np.where((x == 0) & (y == 0), (xb & yb).view(ft), r)
                if "NaN" in parts:
                    r = np.where(np.isnan(x) | np.isnan(y), np.array(np.nan, ft), r)
                else:
                    r = np.where(np.isnan(x), y, np.where(np.isnan(y), x, r))
                    r = np.where(np.isnan(x) & np.isnan(y), np.array(np.nan, ft), r)
                return write(ops[0], np.asarray(r, ft))
            approx = "approx" in parts
            if approx or b in ("ex2", "lg2", "sin", "cos", "tanh"):
                if ty != "f32" and not (b == "rcp" and ty == "f64"):
                    raise SimError(ins.opc)
                x = vals[0].astype(np.float32)
                r = {"ex2": np.exp2, "lg2": np.log2, "sin": np.sin, "cos": np.cos, "tanh": np.tanh,
                     "sqrt": np.sqrt, "rsqrt": lambda v: np.float32(1) / np.sqrt(v),
                     "rcp": lambda v: np.float32(1) / v,
                     "div": lambda v: v / vals[1].astype(np.float32)}.get(b)
                if r is None:
                    raise SimError("unknown instruction " + ins.opc)
                return write(ops[0], np.asarray(r(x), ft))
            if b == "div" and "full" in parts:
                return write(ops[0], np.asarray(vals[0] / vals[1], np.float32))
            if "sat" in parts and b not in ("add", "sub", "mul", "fma", "mad"):
                raise SimError(ins.opc)
            if ty == "f32":
                x = [v.astype(np.float64) for v in vals]
                if b in ("add", "sub", "mul", "div", "sqrt", "rcp", "fma", "mad"):
                    if b == "add":
                        s, err = two_sum(x[0], x[1])
                    elif b == "sub":
                        s, err = two_sum(x[0], -x[1])
                    elif b == "mul":
                        s, err = x[0] * x[1], np.zeros(1)  # exact in f64
                    elif b in ("fma", "mad"):
                        if b == "mad" and "rn" not in parts and not modes:
                            raise SimError("mad.f32 without a rounding mode")
                        s, err = two_sum(x[0] * x[1], x[2])
                    elif b == "div":
                        q = (vals[0] / vals[1]).astype(np.float32) if mode == "rn" else None
                        if q is not None:
                            return write(ops[0], q)
                        s = x[0] / x[1]
                        r = s.astype(np.float32)
                        p = r.astype(np.float64) * x[1]   # exact
                        res = (x[0] - p) * np.sign(x[1])
                        return write(ops[0], nudge(r, np.where(np.isfinite(res), res, 0), mode))
                    elif b == "rcp":
                        s = 1.0 / x[0]
                        r = s.astype(np.float32)
                        res = (1.0 - r.astype(np.float64) * x[0]) * np.sign(x[0])
                        return write(ops[0], nudge(r, np.where(np.isfinite(res), res, 0), mode))
                    else:  # sqrt
                        r = np.sqrt(vals[0].astype(np.float32))
                        if mode != "rn":
                            rd = r.astype(np.float64)
                            res = x[0] - rd * rd
                            r = nudge(r, np.where(np.isfinite(res), res, 0), mode)
                        return write(ops[0], np.asarray(r, np.float32))
                    r = round_f32(s, err, mode)
                    if "sat" in parts:
                        r = np.where(np.isnan(r), np.float32(0), np.clip(r, 0, 1)).astype(np.float32)
                    return write(ops[0], r)
            else:  # f64
                x = vals
                if b in ("add", "sub", "mul", "div", "sqrt", "rcp", "fma", "mad"):
                    if mode == "rn" and b != "fma" and b != "mad":
                        r = {"add": lambda: x[0] + x[1], "sub": lambda: x[0] - x[1], "mul": lambda: x[0] * x[1],
                             "div": lambda: x[0] / x[1], "sqrt": lambda: np.sqrt(x[0]),
                             "rcp": lambda: 1.0 / x[0]}[b]()
                        return write(ops[0], np.asarray(r, np.float64))
                    if b in ("fma", "mad") and mode == "rn":
                        return write(ops[0], fma64(*np.broadcast_arrays(x[0], x[1], x[2])))
                    bb = np.broadcast_arrays(*(x + [x[0]] * (3 - len(x))))
                    r = f64_op_rounded("fma" if b == "mad" else b, bb[0], bb[1], bb[2], mode)
                    return write(ops[0], np.asarray(r, np.float64))
        raise SimError("unknown instruction " + ins.opc)

    def h_half(self, ins, m):
        """f16/bf16 scalar and packed (.f16x2/.bf16x2) arithmetic: exact in float64, rounded once."""
        b, ty, parts, ops = ins.base, ins.ty, ins.parts, ins.ops
        fmt = "bf16" if ty.startswith("bf16") else "f16"
        packed = ty.endswith("x2")
        if b == "mov":
            return self.write(ops[0], self.read(ops[1], "b32" if packed else "b16"))
        mode = ([p for p in parts if p in ("rn", "rz", "rm", "rp")] or ["rn"])[0]

        def dec(v16):
            v16 = np.asarray(v16).astype(np.uint16)
            return bf16_to_f32(v16).astype(np.float64) if fmt == "bf16" else v16.view(np.float16).astype(np.float64)

        def halves(o):
            if packed:
                v = np.asarray(self.read(o, "b32")).astype(np.uint32)
                return [dec(v & 0xFFFF), dec(v >> 16)]
            return [dec(np.asarray(self.read(o, "b16")))]
        args = [halves(o) for o in ops[1:]]
        outs = []
        with np.errstate(all="ignore"):
            for k in range(2 if packed else 1):
                x = [a[k] for a in args]
                if b == "add":
                    r = x[0] + x[1]
                elif b == "sub":
                    r = x[0] - x[1]
                elif b == "mul":
                    r = x[0] * x[1]
                elif b in ("fma", "mad"):
                    r = fma64(*np.broadcast_arrays(x[0], x[1], x[2]))
                elif b == "neg":
                    r = -x[0]
                elif b == "abs":
                    r = np.abs(x[0])
                elif b in ("min", "max"):
                    f = np.fmin if b == "min" else np.fmax
                    r = np.maximum(x[0], x[1]) if "NaN" in parts and b == "max" else \
                        np.minimum(x[0], x[1]) if "NaN" in parts else f(x[0], x[1])
                else:
                    raise SimError("unknown instruction " + ins.opc)
                if "sat" in parts:
                    r = np.where(np.isnan(r), 0.0, np.clip(r, 0.0, 1.0))
                bits = fmt_encode(round_fmt(r, fmt, mode), fmt)
                if b in ("neg", "abs"):  # sign-bit operations (NaN payloads kept)
                    raw = np.asarray(self.read(ops[1], "b32" if packed else "b16")).astype(np.uint32)
                    raw = (raw >> (16 * k)) & 0xFFFF
                    bits = (raw ^ 0x8000) if b == "neg" else (raw & 0x7FFF)
                outs.append(np.asarray(bits).astype(np.uint32))
        if packed:
            return self.write(ops[0], (outs[0] | (outs[1] << 16)).astype(np.uint32))
        return self.write(ops[0], outs[0].astype(np.uint16))

    def h_cvt(self, ins, m):
        parts, ops = ins.parts, ins.ops
        dt, st = ins.tys[0], ins.tys[1]
        mods = [p for p in parts[1:-2] if p not in TYPES]
        irnd = [p for p in mods if p in ("rni", "rzi", "rmi", "rpi")]
        frnd = [p for p in mods if p in ("rn", "rz", "rm", "rp", "rna")]
        sat = "sat" in mods
        satfinite = "satfinite" in mods
        if "relu" in mods or ("ftz" in mods and not (st == "f32" and dt[0] in "su" and dt[1:].isdigit())):
            raise SimError("cvt modifier not modelled: " + ins.opc)
        with np.errstate(all="ignore"):
            # two f32 sources packed into a pair
            if dt in ("e4m3x2", "e5m2x2", "f16x2", "bf16x2") and st == "f32":
                fmt = {"e4m3x2": "e4m3", "e5m2x2": "e5m2", "f16x2": "f16", "bf16x2": "bf16"}[dt]
                hi = np.asarray(self.read(ops[1], "f32")).astype(np.float64)
                lo = np.asarray(self.read(ops[2], "f32")).astype(np.float64)
                mode = frnd[0] if frnd else "rn"
                eh = fmt_encode(round_fmt(hi, fmt, mode, satfinite), fmt)
                el = fmt_encode(round_fmt(lo, fmt, mode, satfinite), fmt)
                if fmt in ("e4m3", "e5m2"):
                    return self.write(ops[0], (el.astype(np.uint16) | (eh.astype(np.uint16) << 8)).astype(np.uint16))
                return self.write(ops[0], (el.astype(np.uint32) | (eh.astype(np.uint32) << 16)).astype(np.uint32))
            if dt == "f16x2" and st in ("e4m3x2", "e5m2x2"):
                fmt = st[:4]
                v = np.asarray(self.read(ops[1], "b16")).astype(np.uint16)
                lo = fmt_decode(v & 0xFF, fmt).astype(np.float16).view(np.uint16).astype(np.uint32)
                hi = fmt_decode(v >> 8, fmt).astype(np.float16).view(np.uint16).astype(np.uint32)
                return self.write(ops[0], (lo | (hi << 16)).astype(np.uint32))
            src = np.asarray(self.read(ops[1], st))
            isf = lambda t: t in ("f16", "bf16", "f32", "f64", "tf32")  # noqa: E731
            if isf(st):
                x = bf16_to_f32(src).astype(np.float64) if st == "bf16" else src.astype(np.float64)
            if isf(st) and isf(dt):
                if dt == st:
                    if not irnd:
                        if sat:
                            return self.write(ops[0], np.where(np.isnan(src), 0, np.clip(src, 0, 1)).astype(DT[dt]))
                        return self.write(ops[0], src)
                    f = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}[irnd[0]]
                    if st == "bf16":
                        return self.write(ops[0], f32_to_bf16(f(x)))
                    return self.write(ops[0], f(src).astype(DT[dt]))
                mode = frnd[0] if frnd else "rn"
                if irnd:
                    raise SimError(ins.opc)
                if np.dtype(DT[dt]).itemsize * (1 if dt != "bf16" else 2) > (np.dtype(DT[st]).itemsize if st != "bf16" else 2) \
                        or (dt == "f32" and st == "bf16"):
                    r = x  # widening: exact
                else:
                    r = round_fmt(x, dt, mode, satfinite)
                if sat:
                    r = np.where(np.isnan(r), 0.0, np.clip(r, 0.0, 1.0))
                if dt in ("bf16", "f16", "tf32"):
                    return self.write(ops[0], fmt_encode(r, dt))
                return self.write(ops[0], r.astype(DT[dt]))
            if isf(st):  # float -> integer
                mode = irnd[0] if irnd else None
                if mode is None:
                    raise SimError("float-to-int cvt without a rounding mode: " + ins.opc)
                f = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}[mode]
                r = f(x)
                info = np.iinfo(DT[dt])
                lo, hi = float(info.min), float(info.max)
                big = r >= hi  # (hi rounds up to 2**n in float64)
                out = np.where(np.isnan(r), 0, np.clip(r, lo, hi))
                if dt[0] == "u" or dt[0] == "b":
                    res = np.where(big, np.uint64(info.max), out.astype(np.uint64)).astype(DT[dt])
                else:
                    res = np.where(big, info.max, out.astype(np.int64)).astype(DT[dt])
                return self.write(ops[0], res)
            if isf(dt):  # integer -> float
                mode = frnd[0] if frnd else "rn"
                xi = src.astype(np.longdouble)
                if dt == "f64":
                    r = src.astype(np.float64)
                    res = xi - r.astype(np.longdouble)
                    r = nudge(r, np.sign(res).astype(np.float64), mode)
                    return self.write(ops[0], r.astype(np.float64))
                if dt == "f32":
                    r = src.astype(np.float32)
                    res = xi - r.astype(np.longdouble)
                    r = nudge(r, np.sign(res).astype(np.float64), mode)
                    return self.write(ops[0], r.astype(np.float32))
                if dt in ("f16", "bf16"):
                    # the integer in float64 may already be rounded (|x| > 2**53): round twice
                    # only when it is exact
                    # (an integer that float64 rounds is far beyond f16/bf16's range
                    # for f16, and rounds once more only past 2**53 for bf16: exact enough)
                    x64 = src.astype(np.float64)
                    return self.write(ops[0], fmt_encode(round_fmt(x64, dt, mode, satfinite), dt))
                raise SimError(ins.opc)
            # integer -> integer
            if sat:
                info = np.iinfo(DT[dt])
                r = np.clip(src.astype(np.float64 if src.dtype.itemsize == 8 else np.int64), info.min, info.max)
                return self.write(ops[0], r.astype(DT[dt]))
            size = np.dtype(DT[dt]).itemsize
            if src.dtype.itemsize >= size:
                r = src.view(UINT[src.dtype.itemsize]).astype(UINT[size]).view(DT[dt])
            else:
                r = src.astype(DT[dt]) if st[0] == "s" else src.view(UINT[src.dtype.itemsize]).astype(DT[dt])
            return self.write(ops[0], r, signed=dt[0] == "s")

    # -- atomics --

    def h_atom(self, ins, m):
        parts, ops = ins.parts, ins.ops
        space = "shared" if "shared" in parts else "global"
        red = ins.base == "red"
        ops_names = ("add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas")
        op = [p for p in parts if p in ops_names]
        if len(op) != 1:
            raise SimError(ins.opc)
        op = op[0]
        ty = ins.ty
        size = np.dtype(DT[ty]).itemsize
        vec = next((int(q[1:]) for q in parts if q in ("v2", "v4", "v8")), 1)
        if vec > 1 and (op != "add" or ty not in ("f32", "f16", "bf16")):
            raise SimError("vector atomic " + ins.opc)
        if red:
            addr_op, srcs, dst = ops[0], ops[1:], None
        else:
            dst, addr_op, srcs = ops[0], ops[1], ops[2:]
        addr = self.address(addr_op)
        if vec > 1:  # element after element, each one atomic (the vector is 16-byte aligned)
            if ((addr[m] % (vec * size)) != 0).any():
                raise SimError("misaligned vector atomic")
            dn = self.vec_names(dst) if dst is not None else [None] * vec
            sn = self.vec_names(srcs[0])
            if len(sn) != vec or len(dn) != vec:
                raise SimError("vector width of " + ins.line)
            idx = np.nonzero(m)[0]
            for k in range(vec):
                vals = [np.broadcast_to(self.read(sn[k], ty), (self.T,))]
                old = np.zeros(self.T, DT[ty])
                with np.errstate(all="ignore"):
                    self._atom_loop(ins, op, ty, size, space, addr + k * size, idx, vals, old)
                if dn[k] is not None:
                    self.write(dn[k], old)
            return
        idx = np.nonzero(m)[0]
        vals = [np.broadcast_to(self.read(s, ty), (self.T,)) for s in srcs]
        old = np.zeros(self.T, DT[ty])
        with np.errstate(all="ignore"):
            self._atom_loop(ins, op, ty, size, space, addr, idx, vals, old)
        if dst is not None:
            self.write(dst, old)

    def _atom_loop(self, ins, op, ty, size, space, addr, idx, vals, old):
        for t in idx:  # one thread after another: sequential consistency
            a = np.array([addr[t]])
            if space == "global":
                off = int(self.gindex(a, size, ins.line)[0])
                mem = self.arena
            else:
                bidx = self.smem_index(a, size, np.array([t]), ins)
                off = int(bidx[0])
                mem = self.smem
            cur = mem[off:off + size].view(DT[ty])[0]
            old[t] = cur
            v = vals[0][t]
            if op == "cas":
                new = vals[1][t] if cur.view(UINT[size]) == v.view(UINT[size]) else cur
            elif op == "exch":
                new = v
            elif op == "add":
                if ty in ("f16", "bf16"):
                    if ty == "bf16":
                        s = float(bf16_to_f32(np.array([cur]))[0]) + float(bf16_to_f32(np.array([v]))[0])
                    else:
                        s = float(cur) + float(v)
                    new = fmt_encode(round_fmt(np.array([s]), ty, "rn"), ty)[0]
                    if ty == "f16":
                        new = np.array([new], np.uint16).view(np.float16)[0]
                elif ty[0] == "f":
                    with np.errstate(all="ignore"):
                        new = DT[ty](cur + v)
                else:
                    new = (cur.view(UINT[size]) + v.view(UINT[size])).astype(UINT[size])
            elif op in ("min", "max"):
                if ty[0] == "f":
                    raise SimError(ins.opc)
                new = min(cur, v) if op == "min" else max(cur, v)
            elif op in ("and", "or", "xor"):
                cu, vu = cur.view(UINT[size]), v.view(UINT[size])
                new = cu & vu if op == "and" else cu | vu if op == "or" else cu ^ vu
            elif op == "inc":
                new = DT[ty](0) if cur >= v else DT[ty](cur + 1)
            else:
                new = v if (cur == 0 or cur > v) else DT[ty](cur - 1)
            if space == "shared":
                self.smem_atomic_check(off, size, t)
            mem[off:off + size] = np.array([new]).astype(DT[ty]).view(np.uint8)

    # -- warps: shuffles, tensor cores, async copies --

    def warp_check(self, m, ins, member=None):
        """The warps that execute `ins`: every one must be complete (or its
        member mask exactly present)."""
        w = m.reshape(-1, 32)
        live = w.any(1)
        if member is None:
            part = live & ~w.all(1)
            if part.any():
                k = int(np.nonzero(part)[0][0])
                raise SimError("divergence: %s executed by %d of the 32 threads of warp %d" %
                               (ins.opc, int(w[k].sum()), k % (self.nthreads // 32)))
        else:
            bits = (member.reshape(-1, 32)[:, 0].astype(np.uint64)[:, None] >> np.arange(32, dtype=np.uint64)) & np.uint64(1)
            want = bits.astype(bool)
            bad = live & (want != w).any(1)
            if bad.any():
                k = int(np.nonzero(bad)[0][0])
                raise SimError("divergence: %s with member mask %#x executed by lanes %s of warp %d" %
                               (ins.opc, int(member.reshape(-1, 32)[k, 0]), np.nonzero(w[k])[0].tolist()[:8],
                                k % (self.nthreads // 32)))
        return live

    def h_shfl(self, ins, m):
        mode = ins.parts[2]
        d, a, b, c, mask = ins.ops
        pd = None
        if "|" in d:
            d, pd = d.split("|")
        member = np.broadcast_to(self.read(mask, "b32"), (self.T,))
        self.warp_check(m, ins, member.astype(np.uint64))
        v = np.broadcast_to(self.read(a, "b32"), (self.T,))
        bv = np.broadcast_to(self.read(b, "u32"), (self.T,)).astype(np.int64) & 31
        cv = np.broadcast_to(self.read(c, "u32"), (self.T,)).astype(np.int64)
        lane = np.arange(self.T) % 32
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
        src = np.arange(self.T) - lane + j
        if not m[src[m]].all():
            raise SimError("shfl.sync reads a lane that does not execute it")
        self.write(d, v[src])
        if pd:
            self.write(pd, ok)

    def h_cp(self, ins, m):
        parts = ins.parts[1:]  # async.*
        if parts[0] != "async":
            raise SimError(ins.opc)
        if parts[1] == "commit_group":
            self.cp_groups.append(self.cp_open)
            self.cp_open = []
            return
        if parts[1] in ("wait_group", "wait_all"):
            keep = int(ins.ops[0]) if parts[1] == "wait_group" else 0
            while len(self.cp_groups) > keep:
                for (t, b, raw) in self.cp_groups.pop(0):
                    self.s_pending[b[:, None] + np.arange(raw.shape[1])] -= 1
                    self.smem_check(b, raw.shape[1], t, True, raw)
                    self.smem[b[:, None] + np.arange(raw.shape[1])] = raw
            return
        if parts[1] not in ("ca", "cg") or parts[2:4] != ["shared", "global"]:
            raise SimError("cp." + ".".join(parts))
        ops = ins.ops
        dst = self.address(ops[0])
        src = self.address(ops[1])
        size = int(ops[2])
        if size not in (4, 8, 16) or (parts[1] == "cg" and size != 16):
            raise SimError("cp.async of %d bytes" % size)
        srcsize = np.broadcast_to(self.read(ops[3], "u32"), (self.T,)) if len(ops) > 3 else \
            np.full(self.T, size, np.uint32)
        idx = np.nonzero(m)[0]
        if (srcsize[idx] > size).any():
            raise SimError("cp.async src-size above cp-size")
        if self.bank_conflicts is not None:
            self.count_banks("cp.async", ins, idx, dst[idx], size)
        b = self.smem_index(dst[idx], size, idx, ins)
        raw = np.zeros((len(idx), size), np.uint8)
        full = srcsize[idx] == size
        fi = idx[full]
        if len(fi):
            off = self.gindex(src[fi], size, ins.line)
            raw[full] = self.arena[off[:, None] + np.arange(size)]
        for k in np.nonzero(~full)[0]:
            nb = int(srcsize[idx[k]])
            if nb:
                a = int(src[idx[k]])
                off = int(self.gindex(np.array([a]), 1, ins.line)[0])
                self.gindex(np.array([a + nb - 1]), 1, ins.line)
                raw[k, :nb] = self.arena[off:off + nb]
        if (src[idx] % size).any():
            raise SimError("misaligned cp.async source")
        if self.s_wgread[b[:, None] + np.arange(size)].any():
            raise SimError("cp.async into shared memory a wgmma in flight reads")
        self.s_pending[b[:, None] + np.arange(size)] += 1
        self.cp_open.append((idx, b, raw))

    def h_ldmatrix(self, ins, m):
        self.warp_check(m, ins)
        parts = ins.parts
        nmat = int([p for p in parts if p.startswith("x")][0][1:])
        trans = "trans" in parts
        names = self.vec_names(ins.ops[0])
        addr = self.address(ins.ops[1])
        out = np.zeros((len(names), self.T), np.uint32)
        warps = np.nonzero(m.reshape(-1, 32).all(1))[0]
        for wg in warps:
            for i in range(nmat):
                rows = 32 * wg + 8 * i + np.arange(8)
                a = addr[rows]
                if self.bank_conflicts is not None:
                    # (one warp-wide access of nmat phases)
                    self.count_banks("ldmatrix", ins, rows, a, 16)
                    if i:
                        self.bank_conflicts["ldmatrix"]["accesses"] -= 1
                if (a % 16).any():
                    raise SimError("misaligned ldmatrix row")
                b = self.smem_index(a, 16, rows, ins)
                self.smem_check(b, 16, rows, False, None)
                mtx = self.smem[b[:, None] + np.arange(16)].view(np.uint16).reshape(8, 8)
                if trans:
                    mtx = mtx.T
                lane = np.arange(32)
                g, q = lane >> 2, lane & 3
                out[i, 32 * wg + lane] = mtx[g, 2 * q].astype(np.uint32) | (mtx[g, 2 * q + 1].astype(np.uint32) << 16)
        for i, nm in enumerate(names):
            self.write(nm, out[i])

    def h_mma(self, ins, m):
        self.warp_check(m, ins)
        parts = ins.parts
        shape, ta = parts[3], parts[7]
        if parts[4:6] != ["row", "col"]:
            raise SimError("mma layout " + ins.opc)
        dty, cty = parts[6], parts[9]
        if dty != "f32" or cty != "f32":
            raise SimError("mma " + ins.opc)
        d, a, b, c = (self.vec_names(o) for o in ins.ops)
        A = np.stack([np.broadcast_to(self.read(x, "b32"), (self.T,)) for x in a])
        B = np.stack([np.broadcast_to(self.read(x, "b32"), (self.T,)) for x in b])
        C = np.stack([np.broadcast_to(self.read(x, "f32"), (self.T,)) for x in c])
        D = np.zeros_like(C)

        def halves(v):
            lo, hi = (v & 0xFFFF).astype(np.uint16), (v >> 16).astype(np.uint16)
            if ta == "f16":
                return lo.view(np.float16).astype(np.float64), hi.view(np.float16).astype(np.float64)
            return bf16_to_f32(lo).astype(np.float64), bf16_to_f32(hi).astype(np.float64)
        warps = np.nonzero(m.reshape(-1, 32).all(1))[0]
        for w in warps:
            ln = slice(32 * w, 32 * w + 32)
            g, q = np.arange(32) >> 2, np.arange(32) & 3
            if shape == "m16n8k16" and ta in ("f16", "bf16"):
                Am, Bm = np.zeros((16, 16)), np.zeros((16, 8))
                for k, (ro, co) in enumerate([(0, 0), (8, 0), (0, 8), (8, 8)]):
                    lo, hi = halves(A[k, ln])
                    Am[g + ro, 2 * q + co], Am[g + ro, 2 * q + co + 1] = lo, hi
                for k in range(2):
                    lo, hi = halves(B[k, ln])
                    Bm[2 * q + 8 * k, g], Bm[2 * q + 8 * k + 1, g] = lo, hi
            elif shape == "m16n8k8" and ta == "tf32":
                Am, Bm = np.zeros((16, 8)), np.zeros((8, 8))
                f = lambda v: (v & np.uint32(0xFFFFE000)).view(np.float32).astype(np.float64)  # noqa: E731
                for k, (ro, co) in enumerate([(0, 0), (8, 0), (0, 4), (8, 4)]):
                    Am[g + ro, q + co] = f(A[k, ln])
                for k in range(2):
                    Bm[q + 4 * k, g] = f(B[k, ln])
            else:
                raise SimError("mma " + ins.opc)
            Cm = np.zeros((16, 8))
            Cm[g, 2 * q], Cm[g, 2 * q + 1] = C[0, ln], C[1, ln]
            Cm[g + 8, 2 * q], Cm[g + 8, 2 * q + 1] = C[2, ln], C[3, ln]
            Dm = Am @ Bm + Cm
            D[0, ln], D[1, ln] = Dm[g, 2 * q], Dm[g, 2 * q + 1]
            D[2, ln], D[3, ln] = Dm[g + 8, 2 * q], Dm[g + 8, 2 * q + 1]
        for i, nm in enumerate(d):
            self.write(nm, D[i].astype(np.float32))

    def h_wgmma(self, ins, m):
        parts = ins.parts
        if parts[1] == "fence":
            return
        if parts[1] == "commit_group":
            self.wg_groups.append(self.wg_open)
            self.wg_open = ([], [])
            return
        if parts[1] == "wait_group":
            # (every warpgroup runs the same code: one queue for the CTAs)
            keep = int(ins.ops[0])
            while len(self.wg_groups) > keep:
                regs, reads = self.wg_groups.pop(0)
                for r in regs:
                    self.wg_regs[r] -= 1
                    if not self.wg_regs[r]:
                        del self.wg_regs[r]
                for b in reads:
                    self.s_wgread[b] -= 1
            return
        if parts[1] != "mma_async" or parts[5] != "f32" or parts[6] not in ("f16", "bf16") or parts[7] != parts[6]:
            raise SimError("wgmma " + ins.opc)
        mt = re.match(r"m64n(\d+)k16$", parts[4])
        if not mt:
            raise SimError("wgmma shape " + ins.opc)
        N = int(mt.group(1))
        ops = ins.ops
        d = self.vec_names(ops[0])
        a_desc = not ops[1].startswith("{")
        if len(d) != N // 2 or len(ops) != (8 if a_desc else 7):
            raise SimError("wgmma operands: " + ins.line)
        a = [] if a_desc else self.vec_names(ops[1])
        if ops[3] not in ("1", "0") or ops[4] != "1" or ops[5] != "1":
            raise SimError("wgmma scales " + ins.line)
        trans_a, trans = (ops[6] == "1", ops[7] == "1") if a_desc else (False, ops[6] == "1")
        g4 = m.reshape(-1, 128)
        if (g4.any(1) & ~g4.all(1)).any():
            raise SimError("divergence: wgmma executed by part of a warpgroup")
        desc = np.broadcast_to(self.read(ops[2], "b64"), (self.T,)).astype(np.uint64)
        adesc = np.broadcast_to(self.read(ops[1], "b64"), (self.T,)).astype(np.uint64) if a_desc else None
        A = None if a_desc else np.stack([np.broadcast_to(self.read(x, "b32"), (self.T,)) for x in a])
        held = {r: self.wg_regs.pop(r) for r in d if r in self.wg_regs}  # (chained accumulators)
        C = np.stack([np.broadcast_to(self.read(x, "f32"), (self.T,)) for x in d]).astype(np.float64)
        self.wg_regs.update(held)
        if ops[3] == "0":
            C[:] = 0
        D = C.copy()
        es = 2

        def halves(v):
            lo, hi = (v & 0xFFFF).astype(np.uint16), (v >> 16).astype(np.uint16)
            if parts[6] == "f16":
                return lo.view(np.float16).astype(np.float64), hi.view(np.float16).astype(np.float64)
            return bf16_to_f32(lo).astype(np.float64), bf16_to_f32(hi).astype(np.float64)
        g, q = np.arange(32) >> 2, np.arange(32) & 3
        kk, nn = np.meshgrid(np.arange(16), np.arange(N), indexing="ij")
        def operand(descs, wg, mn_major, kk, nn, rows, cols):
            """The elements (kk, nn) of an operand through the warpgroup's
            descriptor, as a (rows, cols) float64 matrix; and their bytes."""
            dv = descs[128 * wg:128 * wg + 128]
            if (dv != dv[0]).any():
                raise SimError("wgmma descriptor differs between the threads of a warpgroup")
            dv = int(dv[0])
            start, lbo, sbo = (dv & 0x3FFF) << 4, (dv >> 16 & 0x3FFF) << 4, (dv >> 32 & 0x3FFF) << 4
            mode = dv >> 62
            if mode == 0 or dv >> 49 & 7:
                raise SimError("wgmma descriptor without a swizzle, or with a base offset: %#x" % dv)
            w = {1: 128, 2: 64, 3: 32}[mode]
            addr = _wgmma_addr(start, lbo, sbo, w, es, mn_major, kk, nn).reshape(-1).astype(np.int64)
            reader = np.full(addr.shape, 128 * wg, np.int64)
            b = self.smem_index(addr, es, reader, ins)
            self.smem_check(b, es, reader, False, None)
            if self.s_unfenced[b[:, None] + np.arange(es)].any():
                raise SimError("wgmma reads shared memory written without a fence.proxy.async since")
            raw = self.smem[b[:, None] + np.arange(es)].view(np.uint16).reshape(rows, cols)
            return (raw.view(np.float16).astype(np.float64) if parts[6] == "f16" else
                    bf16_to_f32(raw).astype(np.float64)), b
        am, ak = np.meshgrid(np.arange(64), np.arange(16), indexing="ij")
        for wg in np.nonzero(g4.all(1))[0]:
            Bm, b = operand(desc, wg, trans, kk, nn, 16, N)
            if a_desc:
                Am, ba = operand(adesc, wg, trans_a, ak, am, 64, 16)
                b = np.concatenate([b, ba])
            else:
                Am = np.zeros((64, 16))
                for wi in range(4):
                    ln = slice(128 * wg + 32 * wi, 128 * wg + 32 * wi + 32)
                    for k, (ro, co) in enumerate([(0, 0), (8, 0), (0, 8), (8, 8)]):
                        lo, hi = halves(A[k, ln])
                        Am[16 * wi + g + ro, 2 * q + co], Am[16 * wi + g + ro, 2 * q + co + 1] = lo, hi
            P = Am @ Bm
            for wi in range(4):
                ln = np.arange(128 * wg + 32 * wi, 128 * wg + 32 * wi + 32)
                for c in range(N // 8):
                    for i, (ro, co) in enumerate([(0, 0), (0, 1), (8, 0), (8, 1)]):
                        D[4 * c + i, ln] += P[16 * wi + g + ro, 8 * c + 2 * q + co]
            rb = (b[:, None] + np.arange(es)).reshape(-1)
            self.s_wgread[rb] += 1
            self.wg_open[1].append(rb)
        # (the accumulators chain from one wgmma to the next: in flight, only
        # other wgmmas touch them)
        pend = {r: self.wg_regs.pop(r) for r in set(d) if r in self.wg_regs}
        for i, nm in enumerate(d):
            self.write(nm, D[i].astype(np.float32))
        for r, k in pend.items():
            self.wg_regs[r] = k
        for r in d + a:
            self.wg_regs[r] = self.wg_regs.get(r, 0) + 1
            self.wg_open[0].append(r)


def _wgmma_addr(start, lbo, sbo, w, es, mn_major, k, n):
    """Byte addresses of an operand's elements (k, n) (arrays; n: B's n or
    A's m) read through a wgmma descriptor: the PTX ISA's canonical layouts
    (in units of 16 bytes, T = 16 / es elements), swizzled by the mode's
    width w, on absolute addresses."""
    t = 16 // es
    if mn_major:  # ((T, w/16, m), (8, k)) : ((1, T, LBO), (w/es, SBO)) elements
        a = start + (n % t) * es + (n // t) % (w // 16) * 16 + n // (w // es) * lbo + (k % 8) * w + k // 8 * sbo
    else:         # K-major: ((8, m), (T, 2k)) : ((w/es, SBO), (1, T)) elements
        a = start + (n % 8) * w + n // 8 * sbo + (k % t) * es + k // t * 16
    return a ^ ((a >> 3) & (w - 16))


def mulhi(x, y, size, signed):
    if size <= 4:
        wide = np.int64 if signed else np.uint64
        r = (np.asarray(x).astype(wide) * np.asarray(y).astype(wide)) >> wide(8 * size)
        return r.astype(SINT[size] if signed else UINT[size])
    ux, uy = x.view(np.uint64), y.view(np.uint64)
    M = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    a0, a1 = ux & M, ux >> s32
    b0, b1 = uy & M, uy >> s32
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    mid = (p00 >> s32) + (p01 & M) + (p10 & M)
    hi = p11 + (p01 >> s32) + (p10 >> s32) + (mid >> s32)
    if signed:
        hi = hi - np.where(x < 0, uy, np.uint64(0)) - np.where(y < 0, ux, np.uint64(0))
        return hi.view(np.int64)
    return hi


def round_f32(s, err, mode):
    """The float32 nearest (or directed) to the exact value s + err (float64s, |err|
    tiny next to s, as from two_sum)."""
    s = np.asarray(s, np.float64)
    err = np.broadcast_to(np.asarray(err, np.float64), s.shape)
    with np.errstate(all="ignore"):
        r = s.astype(np.float32)
        d = s - r.astype(np.float64)
        res = d + err
        if mode == "rn":
            # s exactly halfway between two floats (a tie numpy broke to even) and err not zero
            ulp = np.abs(np.nextafter(r, np.float32(np.inf), dtype=np.float32).astype(np.float64) - r.astype(np.float64))
            ulp_dn = np.abs(r.astype(np.float64) - np.nextafter(r, np.float32(-np.inf), dtype=np.float32).astype(np.float64))
            up = (d > 0) & (2 * d == ulp) & (err > 0)
            dn = (d < 0) & (-2 * d == ulp_dn) & (err < 0)
            r = np.where(up, np.nextafter(r, np.float32(np.inf)), r)
            r = np.where(dn, np.nextafter(r, np.float32(-np.inf)), r)
            return r.astype(np.float32)
        fin = np.isfinite(res)
        return nudge(r, np.where(fin, res, 0), mode).astype(np.float32)


def fma64(a, b, c):
    """float64 fma, correctly rounded (exact product by two_prod, then summed)."""
    with np.errstate(all="ignore"):
        p, e = two_prod(a, b)
        s, e2 = two_sum(p, c)
        r = s + (e + e2)
        r = np.where(r == 0, s, r)  # an exact zero keeps IEEE's sign: -0 only from -0 + -0 (s, not s + 0)
        bad = ~np.isfinite(p) | ~np.isfinite(r)
        return np.where(bad, a * b + c, r)
