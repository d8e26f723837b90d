# KERNEL: online_softmax_kernel
# SIGNATURE: *fp32:16,*fp32:16,i32,i32:16
# CONSTEXPR: BLOCK=128
# GRID: M
#
# KERNEL: welford_rows_kernel
# SIGNATURE: *fp32:16,*fp32:16,*fp32:16,i32,i32:16
# CONSTEXPR: BLOCK=64
# GRID: M
#
# KERNEL: cursor_stats_kernel
# SIGNATURE: *fp16:16,*fp32:16,*fp32:16,i32,i32,i32:16
# CONSTEXPR: BLOCK_M=16,BLOCK_N=32,UNROLL=2
# GRID: cdiv(n_rows, BLOCK_M)
#
# KERNEL: cursor_stats_kernel
# SIGNATURE: *fp16:16,*fp32:16,*fp32:16,i32,i32,i32:16
# CONSTEXPR: BLOCK_M=32,BLOCK_N=64,UNROLL=1
# GRID: cdiv(n_rows, BLOCK_M)
#
# Triton 3.6's aggregate classes (`@tl.core._aggregate`): small immutable
# state objects whose fields are tensors, constexprs or other aggregates,
# built by an `__init__` and updated by `@triton.jit` methods that return a
# new instance. online_softmax_kernel carries an online-softmax state (m, l)
# through a `for` over column blocks, read through a row cursor with a
# constexpr block size; welford_rows_kernel carries a running Welford
# object (mean, m2, count per lane) through a `while` loop and reduces it in
# a free @jit function that takes the aggregate; cursor_stats_kernel
# advances a tile cursor (pointers, masks, a column counter, a constexpr
# step) nested inside another aggregate, built by a @jit factory that
# returns it, in a `for` whose body unrolls a `tl.static_range`.
import triton
import triton.language as tl
from triton.language.core import _aggregate as aggregate


@tl.core._aggregate
class RowCursor:
    base: tl.tensor
    n_cols: tl.tensor
    BLOCK: tl.constexpr

    def __init__(self, base, n_cols, BLOCK: tl.constexpr):
        self.base = base
        self.n_cols = n_cols
        self.BLOCK = BLOCK

    @triton.jit
    def offsets(self, start):
        return start + tl.arange(0, self.BLOCK)

    @triton.jit
    def mask(self, start):
        return self.offsets(start) < self.n_cols

    @triton.jit
    def load(self, start, other):
        return tl.load(self.base + self.offsets(start), mask=self.mask(start), other=other)


@tl.core._aggregate
class SoftmaxState:
    m: tl.tensor
    l: tl.tensor

    def __init__(self, m, l):
        self.m = m
        self.l = l

    @triton.jit
    def rescale(self, m_new):
        return self.l * tl.exp(self.m - m_new)

    @triton.jit
    def update(self, x):
        m_new = tl.maximum(self.m, tl.max(x, 0))
        l_new = self.rescale(m_new) + tl.sum(tl.exp(x - m_new), 0)
        return SoftmaxState(m_new, l_new)

    @triton.jit
    def normalize(self, x):
        return tl.exp(x - self.m) / self.l


@triton.jit
def online_softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    src = RowCursor(x_ptr + row * stride, n_cols, BLOCK)
    dst = RowCursor(y_ptr + row * stride, n_cols, BLOCK)
    st = SoftmaxState(-float("inf"), 0.0)
    for start in range(0, n_cols, BLOCK):
        st = st.update(src.load(start, -float("inf")))
    for start in range(0, n_cols, BLOCK):
        x = src.load(start, -float("inf"))
        tl.store(dst.base + dst.offsets(start), st.normalize(x), mask=dst.mask(start))


@aggregate
class Welford:
    mean: tl.tensor
    m2: tl.tensor
    count: tl.tensor

    def __init__(self, mean, m2, count):
        self.mean = mean
        self.m2 = m2
        self.count = count

    @triton.jit
    def update(self, x, mask):
        count = self.count + mask.to(tl.float32)
        delta = x - self.mean
        mean = self.mean + tl.where(mask, delta / tl.maximum(count, 1.0), 0.0)
        m2 = self.m2 + tl.where(mask, delta * (x - mean), 0.0)
        return Welford(mean, m2, count)


@triton.jit
def welford_finalize(w):
    total = tl.sum(w.count, 0)
    mean = tl.sum(w.mean * w.count, 0) / total
    d = w.mean - mean
    m2 = tl.sum(w.m2 + w.count * d * d, 0)
    return mean, m2 / total


@triton.jit
def welford_rows_kernel(x_ptr, mean_ptr, var_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    zero = tl.zeros([BLOCK], tl.float32)
    w = Welford(zero, zero, zero)
    start = 0
    while start < n_cols:
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
        w = w.update(x, mask)
        start += BLOCK
    mean, var = welford_finalize(w)
    tl.store(mean_ptr + row, mean)
    tl.store(var_ptr + row, var)


@tl.core._aggregate
class TileCursor:
    ptrs: tl.tensor
    row_mask: tl.tensor
    col: tl.tensor
    n_cols: tl.tensor
    STEP: tl.constexpr

    def __init__(self, ptrs, row_mask, col, n_cols, STEP: tl.constexpr):
        self.ptrs = ptrs
        self.row_mask = row_mask
        self.col = col
        self.n_cols = n_cols
        self.STEP = STEP

    @triton.jit
    def mask(self):
        cols = self.col + tl.arange(0, self.STEP)
        return self.row_mask[:, None] & (cols[None, :] < self.n_cols)

    @triton.jit
    def advance(self):
        return TileCursor(self.ptrs + self.STEP, self.row_mask, self.col + self.STEP, self.n_cols, self.STEP)


@tl.core._aggregate
class RowStats:
    total: tl.tensor
    peak: tl.tensor

    def __init__(self, total, peak):
        self.total = total
        self.peak = peak

    @triton.jit
    def add(self, x, mask):
        total = self.total + tl.sum(tl.where(mask, x, 0.0), 1)
        peak = tl.maximum(self.peak, tl.max(tl.where(mask, x, -float("inf")), 1))
        return RowStats(total, peak)


@tl.core._aggregate
class Scan:
    cursor: TileCursor
    stats: RowStats

    def __init__(self, cursor, stats):
        self.cursor = cursor
        self.stats = stats

    @triton.jit
    def step(self):
        mask = self.cursor.mask()
        x = tl.load(self.cursor.ptrs, mask=mask, other=0.0).to(tl.float32)
        return Scan(self.cursor.advance(), self.stats.add(x, mask))


@triton.jit
def make_cursor(base, rows, n_rows, n_cols, stride, STEP: tl.constexpr):
    cols = tl.arange(0, STEP)
    ptrs = base + rows[:, None] * stride + cols[None, :]
    return TileCursor(ptrs, rows < n_rows, 0, n_cols, STEP)


@triton.jit
def cursor_stats_kernel(x_ptr, sum_ptr, max_ptr, n_rows, n_cols, stride, BLOCK_M: tl.constexpr,
                        BLOCK_N: tl.constexpr, UNROLL: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cursor = make_cursor(x_ptr, rows, n_rows, n_cols, stride, BLOCK_N)
    stats = RowStats(tl.zeros([BLOCK_M], tl.float32), tl.full([BLOCK_M], -float("inf"), tl.float32))
    sc = Scan(cursor, stats)
    for _ in range(tl.cdiv(n_cols, BLOCK_N * UNROLL)):
        for u in tl.static_range(UNROLL):
            sc = sc.step()
    tl.store(sum_ptr + rows, sc.stats.total, mask=cursor.row_mask)
    tl.store(max_ptr + rows, sc.stats.peak, mask=sc.cursor.row_mask)
