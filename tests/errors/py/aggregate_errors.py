# RUN: not %tritonc compile %s --kernel unknown_field --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=FIELD
# RUN: not %tritonc compile %s --kernel missing_field --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not %tritonc compile %s --kernel assign_field --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=ASSIGN
# RUN: not %tritonc compile %s --kernel method_assign --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=METHOD
# RUN: not %tritonc compile %s --kernel loop_constexpr --signature '*fp32,i32' --emit ttir 2>&1 | FileCheck %s --check-prefix=LOOP
# RUN: not %tritonc compile %s --kernel builtin_method --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=BUILTIN
# RUN: not %tritonc compile %s --kernel plain_method --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=PLAIN
# RUN: not %tritonc compile %s --kernel ctor_args --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=ARGS
# RUN: not %tritonc compile %s --kernel init_unknown --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=INIT
# RUN: not %tritonc compile %s --kernel cx_field --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=CX
# RUN: not %tritonc compile %s --kernel early_method --signature '*fp32' --emit ttir 2>&1 | FileCheck %s --check-prefix=EARLY
# Triton 3.6's @tl.core._aggregate classes, what they reject: a field the
# class does not declare (read, or assigned in __init__), a constructor
# that leaves a field unassigned, a field assigned outside __init__ (Triton
# does not compile `p.second = 42` nor `self.a = a` in a @jit method:
# instances are values), a loop that changes a compile-time field of a
# carried instance, methods that are Triton builtins (they take _semantic
# or _builder) or plain Python, the wrong number of constructor arguments,
# a tensor given to a tl.constexpr field, a method on self in __init__ early.
# FIELD: {{.*}}aggregate_errors.py:101:17: error: 'Pair' object has no attribute 'thrid'; did you mean 'third'?
# FIELD-NOT: error:
# MISSING: {{.*}}aggregate_errors.py:106:9: error: constructor for Half did not initialize attribute 'second'
# MISSING-NOT: error:
# ASSIGN: {{.*}}aggregate_errors.py:113:5: error: cannot assign to field 'first' of aggregate 'Pair' outside its __init__: aggregates are immutable in @triton.jit code; build a new instance instead (Pair(...))
# ASSIGN: {{.*}}aggregate_errors.py:114:5: error: cannot assign to field 'second' of aggregate 'Pair' outside its __init__
# ASSIGN-NOT: error:
# METHOD: {{.*}}aggregate_errors.py:61:9: error: cannot assign to field 'first' of aggregate 'Pair' outside its __init__
# METHOD-NOT: error:
# LOOP: {{.*}}aggregate_errors.py:128:5: error: loop-carried Counter 'c' changes its compile-time field 'N' in the loop (4 before it, 8 after an iteration): fields that are not tensors must stay the same
# LOOP-NOT: error:
# BUILTIN: {{.*}}aggregate_errors.py:136:17: error: method 'get_second' of aggregate 'Pair' is a Triton builtin (it takes '_builder'): tritonc supports only @triton.jit methods on aggregates
# BUILTIN-NOT: error:
# PLAIN: {{.*}}aggregate_errors.py:142:17: error: method 'total' of aggregate 'Pair' is not a @triton.jit function: tritonc supports only @triton.jit methods on aggregates
# PLAIN-NOT: error:
# ARGS: {{.*}}aggregate_errors.py:148:9: error: Pair.__init__() takes 4 positional arguments but 5 were given
# ARGS: {{.*}}aggregate_errors.py:149:9: error: Pair.__init__() missing required argument 'second'
# ARGS-NOT: error:
# INIT: {{.*}}aggregate_errors.py:95:9: error: 'Typo' has no attribute 'vlaue' (not a field of the class); did you mean 'value'?
# INIT-NOT: error:
# CX: {{.*}}aggregate_errors.py:87:9: error: field 'N' of aggregate 'Counter' is a tl.constexpr, but is given a value not known at compile time (fp32)
# CX-NOT: error:
# EARLY: {{.*}}aggregate_errors.py:172:18: error: method 'double' of aggregate 'Early' is called in __init__ before field 'b' is assigned
# EARLY-NOT: error:
import triton
import triton.language as tl


@tl.core._aggregate
class Pair:
    first: tl.tensor
    second: tl.tensor
    third: tl.tensor

    def __init__(self, first, second, third=0.0):
        self.first = first
        self.second = second
        self.third = third

    @triton.jit
    def set_first(self, v):
        self.first = v
        return self

    def get_second(self, _builder=None):
        return self.second

    def total(self):
        return self.first + self.second


@tl.core._aggregate
class Half:
    first: tl.tensor
    second: tl.tensor

    def __init__(self, first, second):
        self.first = first


@tl.core._aggregate
class Counter:
    v: tl.tensor
    N: tl.constexpr

    def __init__(self, v, N: tl.constexpr):
        self.v = v
        self.N = N


@tl.core._aggregate
class Typo:
    value: tl.tensor

    def __init__(self, value):
        self.vlaue = value


@triton.jit
def unknown_field(x):
    p = Pair(tl.load(x), 1.0)
    tl.store(x, p.thrid)


@triton.jit
def missing_field(x):
    h = Half(tl.load(x), 1.0)
    tl.store(x, h.first)


@triton.jit
def assign_field(x):
    p = Pair(tl.load(x), 1.0)
    p.first = tl.load(x + 1)
    p.second += 1.0
    tl.store(x, p.first)


@triton.jit
def method_assign(x):
    p = Pair(tl.load(x), 1.0)
    p = p.set_first(2.0)
    tl.store(x, p.first)


@triton.jit
def loop_constexpr(x, n):
    c = Counter(tl.load(x), 4)
    for i in range(n):
        c = Counter(c.v + 1.0, c.N * 2)
    tl.store(x, c.v)


@triton.jit
def builtin_method(x):
    p = Pair(tl.load(x), 1.0)
    tl.store(x, p.get_second())


@triton.jit
def plain_method(x):
    p = Pair(tl.load(x), 1.0)
    tl.store(x, p.total())


@triton.jit
def ctor_args(x):
    v = tl.load(x)
    p = Pair(v, v, v, v)
    q = Pair(v)
    tl.store(x, v)


@triton.jit
def init_unknown(x):
    t = Typo(tl.load(x))
    tl.store(x, t.value)


@triton.jit
def cx_field(x):
    c = Counter(1.0, tl.load(x))
    tl.store(x, c.v)


@tl.core._aggregate
class Early:
    a: tl.tensor
    b: tl.tensor

    def __init__(self, a):
        self.a = a
        self.b = self.double()

    @triton.jit
    def double(self):
        return self.a * 2


@triton.jit
def early_method(x):
    e = Early(tl.load(x))
    tl.store(x, e.b)
