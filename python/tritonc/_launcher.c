/*
 * _launcher.c - the hot path of `kernel[grid](...)` in C: a CPython
 * extension module, built on first use with the system's C compiler and
 * Python's headers into the cache folder (see _cext.py), as Triton builds
 * its own launcher. Without a compiler or headers the binding keeps its
 * generated pure-Python launcher, which computes the same thing.
 *
 * Three types. JitBase is the C base of the binding's @jit function class:
 * its subscript calls the function's Entry with the grid, with no Python
 * frame in between. An Entry, one per @jit function, is `kernel[grid]`: calling
 * it with the grid gives a GridCall, and calling that with the kernel's
 * arguments binds them to the parameters (positional, then keywords, then
 * defaults), finds the specialisations compiled for these constexpr values
 * and launch options in the function's `_fast` dict (keys are
 * (constexpr values..., num_warps, num_stages, ()), values the head of a
 * chain of Launchers), evaluates a callable grid on the call's META dict,
 * and runs the first Launcher of the chain that takes the runtime arguments.
 * A call whose arguments bind but whose specialisation has no Launcher yet
 * (a first call) compiles it and registers its Launcher, then tries again:
 * in C (`first_in_c`: the classification, key, tc_compile, CompiledKernel
 * and Launcher of the Python path, with one call into Python per
 * specialisation to make the CompiledKernel) when every argument is of a
 * kind a Launcher takes; else through `first(grid, bound_args, num_warps,
 * num_stages)`, which returns False when the arguments are of kinds no
 * Launcher takes, None when a Launcher could not be made (then it is not
 * asked again). Anything else (warmup, other launch options, a missing
 * argument, an argument of a kind the Launchers do not take) goes to the
 * function's Python path, `slow(grid, *args, **kwargs)`, which binds,
 * reports errors, compiles and registers new Launchers.
 *
 * One Launcher per compiled specialisation:
 *
 *     launcher(grid_tuple, arg0, arg1, ...)       (the runtime arguments)
 *
 * which, for each argument, checks that it still fits the specialisation it
 * was compiled for, exactly as the pure-Python key does:
 *
 *   'T' a torch.Tensor (exact type): its dtype object, its data pointer's
 *       16-byte alignment (unless do_not_specialize_on_alignment) and
 *       is_cuda (strides are not looked at: as in Triton, a tensor argument
 *       is its data pointer). The getters and data_ptr() are called through
 *       the type's own descriptors, found once per Launcher;
 *   'i' an int (exact type) in i32 range: its class, 1 (equal to one), 16
 *       (divisible by 16) or 0, unless do_not_specialize;
 *   'f' a float (exact type),
 *
 * writes each value into its 8-byte slot, reads torch's current stream (on
 * CUDA) and calls tc_launch through a function pointer. On a mismatch it
 * tries the next Launcher of the same constexprs (`next`), and returns None
 * when none fits, so the caller takes the Python path (which compiles the
 * new specialisation, or reports the argument that is wrong). On success it
 * returns the CompiledKernel; a failed launch calls its `_raise()`.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#ifndef Py_TPFLAGS_HAVE_VECTORCALL
#define Py_TPFLAGS_HAVE_VECTORCALL _Py_TPFLAGS_HAVE_VECTORCALL
#endif

#define MAX_ARGS 64

typedef int (*LaunchFn)(void *k, const int grid[3], void *const *args, int nargs, void *stream,
                        void **err);

/* The libtritonc functions this module calls, found with dlsym in the
 * handle ctypes opened (`bind(handle)`, once, before anything else): a
 * first launch then never goes through ctypes, whose first call of each
 * function costs ~10-20 us in a new process. */
static struct {
    int (*compile)(const void *opts, void **out, void **err);
    LaunchFn launch;
    int (*num_params)(const void *k);
    int (*attribute)(const void *k, const char *name);
    const char *(*messages)(const void *k);
    void (*kernel_free)(void *k);
    void (*error_free)(void *err);
    void (*trace_mark)(const char *what); /* TRITONC_TRACE's timeline (support/trace.c) */
} tc;

/* A mark on the first call's timeline, when TRITONC_TRACE is set (read at
 * bind) and the library has the function. */
static int trace_on;
#define TRACE(what) \
    do { \
        if (trace_on) tc.trace_mark(what); \
    } while (0)

/* include/tritonc.h's tc_constexpr and tc_compile_options, field for field
 * (this file is built without the library's headers, as _lib.py mirrors
 * them for ctypes). */
typedef struct TcConstexpr {
    const char *name;
    const char *value;
} TcConstexpr;

typedef struct TcCompileOptions {
    const char *source;
    size_t source_len;
    const char *filename;
    const char *kernel;
    const char *signature;
    const TcConstexpr *constexprs;
    int num_constexprs;
    int device;
    const char *target;
    int num_warps;
    int num_stages;
    const char *cache_dir;
    int debug;
} TcCompileOptions;

/* How a tensor type's `dtype`, `is_cuda` and `data_ptr()` are read: the C
 * functions behind the type's getset and METH_NOARGS method descriptors,
 * called directly (a third of the cost of a generic attribute lookup and
 * method call); NULL where the type's attribute is not such a descriptor,
 * and then the generic way. */
typedef struct TensorAccess {
    getter dtype, is_cuda;
    void *dtype_closure, *is_cuda_closure;
    PyCFunction data_ptr;
} TensorAccess;

typedef struct Slot {
    char kind;           /* 'T' (value: the data pointer), 'i' (i32), 'f' (fp32) */
    signed char aligned; /* 'T': 1 / 0 expected 16-byte alignment, -1: not checked */
    signed char cuda;    /* 'T': expected is_cuda */
    int iclass;      /* 'i': expected 1 / 16 / 0; -1: not checked (do_not_specialize) */
    PyObject *type;  /* 'T': the exact type (torch.Tensor) */
    PyObject *dtype; /* 'T': the dtype object */
    TensorAccess acc; /* 'T' */
} Slot;

typedef struct Launcher {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    LaunchFn launch;
    void *handle;
    PyObject *stream_fn; /* CUDA: returns torch's current stream as an int, given */
    PyObject *stream_arg; /* this argument (-1: the current device); else both NULL */
    PyObject *kernel;    /* returned on success */
    PyObject *next;      /* another Launcher, or NULL */
    int nargs;
    Slot slots[MAX_ARGS];
} Launcher;

static PyObject *s_dtype, *s_data_ptr, *s_is_cuda, *s_raise;

static void find_getter(PyObject *type, PyObject *name, getter *get, void **closure) {
    *get = NULL;
    PyObject *d = PyObject_GetAttr(type, name); /* on the type: the descriptor itself */
    if (!d) {
        PyErr_Clear();
        return;
    }
    if (Py_IS_TYPE(d, &PyGetSetDescr_Type) && ((PyGetSetDescrObject *)d)->d_getset->get) {
        *get = ((PyGetSetDescrObject *)d)->d_getset->get;
        *closure = ((PyGetSetDescrObject *)d)->d_getset->closure;
    }
    Py_DECREF(d); /* the type keeps it */
}

/* The last type's answer: one tensor type in a process, as a rule
 * (torch.Tensor). An Entry asks at decoration, when its kernel's reading
 * ahead names the tensor type, so that a first launch finds it here (its
 * lookups are ~5-8 us of cold code in a new process). */
static PyObject *access_type; /* (a strong reference: types outlive kernels) */
static TensorAccess access_memo;

static TensorAccess tensor_access_lookup(PyObject *type);

static TensorAccess tensor_access(PyObject *type) {
    if (type != access_type) {
        TensorAccess acc = tensor_access_lookup(type);
        Py_INCREF(type);
        Py_XSETREF(access_type, type);
        access_memo = acc;
    }
    return access_memo;
}

static TensorAccess tensor_access_lookup(PyObject *type) {
    TensorAccess acc = {0};
    find_getter(type, s_dtype, &acc.dtype, &acc.dtype_closure);
    find_getter(type, s_is_cuda, &acc.is_cuda, &acc.is_cuda_closure);
    PyObject *d = PyObject_GetAttr(type, s_data_ptr);
    if (!d) PyErr_Clear();
    else if (Py_IS_TYPE(d, &PyMethodDescr_Type) &&
             (((PyMethodDescrObject *)d)->d_method->ml_flags & (METH_VARARGS | METH_KEYWORDS | METH_NOARGS | METH_O |
                                                               METH_FASTCALL)) == METH_NOARGS)
        acc.data_ptr = ((PyMethodDescrObject *)d)->d_method->ml_meth;
    Py_XDECREF(d);
    return acc;
}

/* A Launcher refers to its CompiledKernel, which refers to its JITFunction,
 * whose table refers to the Launcher: a cycle the garbage collector must be
 * able to see through (kernels defined inside functions come and go). */
static int launcher_traverse(Launcher *self, visitproc visit, void *arg) {
    for (int i = 0; i < self->nargs; i++) {
        Py_VISIT(self->slots[i].type);
        Py_VISIT(self->slots[i].dtype);
    }
    Py_VISIT(self->stream_fn);
    Py_VISIT(self->stream_arg);
    Py_VISIT(self->kernel);
    Py_VISIT(self->next);
    return 0;
}

static int launcher_clear(Launcher *self) {
    for (int i = 0; i < self->nargs; i++) {
        Py_CLEAR(self->slots[i].type);
        Py_CLEAR(self->slots[i].dtype);
    }
    Py_CLEAR(self->stream_fn);
    Py_CLEAR(self->stream_arg);
    Py_CLEAR(self->kernel);
    Py_CLEAR(self->next);
    return 0;
}

static void launcher_dealloc(Launcher *self) {
    PyObject_GC_UnTrack(self);
    launcher_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* 1: fits (value written), 0: does not fit, -1: a Python error. */
static int take_tensor(const Slot *s, PyObject *a, uint64_t *out) {
    const TensorAccess *acc = &s->acc;
    PyObject *dt = acc->dtype ? acc->dtype(a, acc->dtype_closure) : PyObject_GetAttr(a, s_dtype);
    if (!dt) return -1;
    Py_DECREF(dt); /* only its identity matters; the tensor keeps it alive */
    if (dt != s->dtype) return 0;
    PyObject *p = acc->data_ptr ? acc->data_ptr(a, NULL) : PyObject_CallMethodNoArgs(a, s_data_ptr);
    if (!p) return -1;
    unsigned long long ptr = PyLong_AsUnsignedLongLong(p);
    Py_DECREF(p);
    if (ptr == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    /* no data (a 'meta' tensor, or an empty one): the Python path, which
     * names a tensor on a device kernels cannot run on */
    if (ptr == 0) return 0;
    if (s->aligned >= 0 && (int)((ptr & 15) == 0) != s->aligned) return 0;
    PyObject *c = acc->is_cuda ? acc->is_cuda(a, acc->is_cuda_closure) : PyObject_GetAttr(a, s_is_cuda);
    if (!c) return -1;
    int cuda = c == Py_True;
    Py_DECREF(c);
    if (cuda != s->cuda) return 0;
    *out = ptr;
    return 1;
}

static int take_int(const Slot *s, PyObject *a, uint64_t *out) {
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(a, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < INT32_MIN || v > INT32_MAX) return 0; /* wider types: the Python path */
    if (s->iclass >= 0) {
        int cls = v == 1 ? 1 : (v & 15) == 0 ? 16 : 0;
        if (cls != s->iclass) return 0;
    }
    int32_t x = (int32_t)v;
    *out = 0;
    memcpy(out, &x, sizeof x);
    return 1;
}

/* Fills `values` from the arguments; 1 fits, 0 not, -1 error. The values
 * live on the caller's stack: two threads may launch one kernel at once. */
static int fill(const Launcher *L, PyObject *const *args, Py_ssize_t n, uint64_t *values) {
    if (n != L->nargs) return 0;
    for (int i = 0; i < L->nargs; i++) {
        const Slot *s = &L->slots[i];
        PyObject *a = args[i];
        int r;
        switch (s->kind) {
        case 'T':
            if ((PyObject *)Py_TYPE(a) != s->type) return 0;
            r = take_tensor(s, a, &values[i]);
            break;
        case 'i':
            if (!PyLong_CheckExact(a)) return 0;
            r = take_int(s, a, &values[i]);
            break;
        case 'f': {
            if (!PyFloat_CheckExact(a)) return 0;
            float f = (float)PyFloat_AS_DOUBLE(a);
            values[i] = 0;
            memcpy(&values[i], &f, sizeof f);
            r = 1;
            break;
        }
        default:
            return 0;
        }
        if (r != 1) return r;
    }
    return 1;
}

/* The grid as three ints: 1 done, 0 not a tuple of 1-3 ints in i32 range
 * (the Python path reports it). */
static int grid_ints(PyObject *g, int grid[3]) {
    if (!PyTuple_CheckExact(g)) return 0;
    Py_ssize_t gn = PyTuple_GET_SIZE(g);
    if (gn < 1 || gn > 3) return 0;
    grid[0] = grid[1] = grid[2] = 1;
    for (Py_ssize_t d = 0; d < gn; d++) {
        PyObject *x = PyTuple_GET_ITEM(g, d);
        if (!PyLong_CheckExact(x)) return 0;
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
        if (overflow || v < INT32_MIN || v > INT32_MAX) return 0;
        grid[d] = (int)v;
    }
    return 1;
}

/* Runs the first Launcher of the chain at `head` that takes the runtime
 * arguments: a new reference to its kernel, Py_None (new reference) when
 * none takes them, NULL on an error. */
static PyObject *run_chain(PyObject *head, const int grid[3], PyObject *const *args, Py_ssize_t n) {
    uint64_t values[MAX_ARGS];
    void *argv[MAX_ARGS];
    for (Launcher *L = (Launcher *)head; L; L = (Launcher *)L->next) {
        if (!L->kernel) continue; /* cleared by the garbage collector */
        int r = fill(L, args, n, values);
        if (r < 0) return NULL;
        if (r == 0) continue;
        void *stream = NULL;
        if (L->stream_fn) {
            PyObject *s = PyObject_CallOneArg(L->stream_fn, L->stream_arg);
            if (!s) return NULL;
            stream = PyLong_AsVoidPtr(s);
            Py_DECREF(s);
            TRACE("launcher: torch's current stream");
            if (!stream && PyErr_Occurred()) return NULL;
        }
        for (int i = 0; i < L->nargs; i++) argv[i] = &values[i];
        int rc;
        void *err = NULL;
        /* the GIL is let go, as ctypes did: a CPU launch runs the whole grid */
        Py_BEGIN_ALLOW_THREADS
        rc = L->launch(L->handle, grid, argv, L->nargs, stream, &err);
        Py_END_ALLOW_THREADS
        if (rc != 0) { /* kernel._raise(err) raises LaunchError, with the tc_error's message */
            PyObject *e = PyLong_FromVoidPtr(err);
            PyObject *r = e ? PyObject_CallMethodOneArg(L->kernel, s_raise, e) : NULL;
            Py_XDECREF(e);
            return r;
        }
        Py_INCREF(L->kernel);
        return L->kernel;
    }
    Py_RETURN_NONE;
}

/* Set (set_hooks) while a launch hook is set (triton.knobs.runtime.launch_enter_hook,
 * ...): launches then take the Python path, which calls the hooks; the only
 * cost to a launch without hooks is reading it. */
static int hooks_on;

static PyObject *launcher_call(PyObject *callable, PyObject *const *args, size_t nargsf,
                               PyObject *kwnames) {
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (hooks_on) Py_RETURN_NONE; /* (the caller's Python path launches, with the hooks) */
    if (kwnames && PyTuple_GET_SIZE(kwnames)) {
        PyErr_SetString(PyExc_TypeError, "launcher takes positional arguments only");
        return NULL;
    }
    int grid[3];
    if (n < 1 || !grid_ints(args[0], grid)) Py_RETURN_NONE;
    return run_chain(callable, grid, args + 1, n - 1);
}

static PyTypeObject LauncherType;

/* A Launcher without slots (nargs 0), or NULL with an error set. */
static Launcher *launcher_alloc(void *handle, PyObject *stream_fn, PyObject *stream_arg, PyObject *kernel) {
    if (!tc.launch) {
        PyErr_SetString(PyExc_RuntimeError, "the C launcher is not bound to libtritonc");
        return NULL;
    }
    Launcher *L = (Launcher *)LauncherType.tp_alloc(&LauncherType, 0);
    if (!L) return NULL;
    L->vectorcall = launcher_call;
    L->launch = tc.launch;
    L->handle = handle;
    L->stream_fn = stream_fn && stream_fn != Py_None ? (Py_INCREF(stream_fn), stream_fn) : NULL;
    L->stream_arg = L->stream_fn ? (Py_INCREF(stream_arg), stream_arg) : NULL;
    Py_INCREF(kernel);
    L->kernel = kernel;
    return L;
}

/* Appends a slot; `tp` and `dtype` are borrowed (NULL for 'i' and 'f'). */
static void launcher_add_slot(Launcher *L, char kind, PyObject *tp, PyObject *dtype, int aligned, int cuda,
                              int iclass, const TensorAccess *acc) {
    Slot *s = &L->slots[L->nargs++];
    s->kind = kind;
    s->type = tp ? (Py_INCREF(tp), tp) : NULL;
    s->dtype = dtype ? (Py_INCREF(dtype), dtype) : NULL;
    s->aligned = (signed char)aligned;
    s->cuda = (signed char)cuda;
    s->iclass = iclass;
    if (kind == 'T') s->acc = acc ? *acc : tensor_access(tp);
}

/* Launcher(handle, stream_fn or None, stream_arg, kernel, slots)
 * slots: a tuple of (kind, type or None, dtype or None, aligned, cuda, iclass),
 * one per runtime parameter. */
static PyObject *launcher_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    (void)type;
    (void)kw;
    unsigned long long handle;
    PyObject *stream_fn, *stream_arg, *kernel, *slots;
    if (!PyArg_ParseTuple(args, "KOOOO!", &handle, &stream_fn, &stream_arg, &kernel, &PyTuple_Type, &slots))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(slots);
    if (n > MAX_ARGS) {
        PyErr_SetString(PyExc_ValueError, "too many kernel arguments for the C launcher");
        return NULL;
    }
    Launcher *L = launcher_alloc((void *)(uintptr_t)handle, stream_fn, stream_arg, kernel);
    if (!L) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *kind;
        PyObject *tp, *dtype;
        int aligned, cuda, iclass;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(slots, i), "sOOiii", &kind, &tp, &dtype, &aligned, &cuda,
                              &iclass)) {
            Py_DECREF(L);
            return NULL;
        }
        if (!strchr("Tif", kind[0]) || (kind[0] == 'T' && (tp == Py_None || dtype == Py_None))) {
            PyErr_Format(PyExc_ValueError, "launcher slot %zd: bad kind '%s'", i, kind);
            Py_DECREF(L);
            return NULL;
        }
        launcher_add_slot(L, kind[0], tp == Py_None ? NULL : tp, dtype == Py_None ? NULL : dtype, aligned, cuda,
                          iclass, NULL);
    }
    return (PyObject *)L;
}

static PyObject *launcher_get_next(Launcher *self, void *unused) {
    (void)unused;
    if (!self->next) Py_RETURN_NONE;
    Py_INCREF(self->next);
    return self->next;
}

static int launcher_set_next(Launcher *self, PyObject *v, void *unused) {
    (void)unused;
    if (v && v != Py_None && Py_TYPE(v) != Py_TYPE(self)) {
        PyErr_SetString(PyExc_TypeError, "next must be a Launcher or None");
        return -1;
    }
    PyObject *old = self->next;
    self->next = v && v != Py_None ? (Py_INCREF(v), v) : NULL;
    Py_XDECREF(old);
    return 0;
}

static PyGetSetDef launcher_getset[] = {
    {"next", (getter)launcher_get_next, (setter)launcher_set_next, "the next Launcher to try", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject LauncherType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "_tritonc_launcher.Launcher",
    .tp_basicsize = sizeof(Launcher),
    .tp_dealloc = (destructor)launcher_dealloc,
    .tp_vectorcall_offset = offsetof(Launcher, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)launcher_traverse,
    .tp_clear = (inquiry)launcher_clear,
    .tp_doc = "A compiled specialisation's launch, in C (see _launcher.c).",
    .tp_new = launcher_new,
    .tp_getset = launcher_getset,
};

/* ---- Entry and GridCall: `kernel[grid](...)` ---------------------------- */

#define MAX_PARAMS 128

typedef struct Entry Entry;

typedef struct GridCall {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    Entry *entry;
    PyObject *grid;
} GridCall;

struct Entry {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *fast;  /* the JITFunction's _fast dict: key -> Launcher chain */
    PyObject *slow;  /* slow(grid, *args, **kwargs): the Python path */
    PyObject *first; /* first(grid, args, num_warps, num_stages) -> bool, or NULL */
    PyObject *prep;  /* prep(): what a first launch in C needs (see first_in_c), or NULL */
    PyObject *prepared; /* prep()'s tuple, once asked */
    PyObject *ahead;    /* (prep()'s tuple as read at decoration, its reads, the absent marker), or NULL */
    GridCall *spare; /* reused while nobody else holds it */
    int nparams, ncx, nrt;
    unsigned char flags[MAX_PARAMS]; /* PARAM_* */
    int nw_param, ns_param; /* the parameter named num_warps / num_stages, or -1 */
    PyObject *names[MAX_PARAMS];
    PyObject *defaults[MAX_PARAMS]; /* NULL: none */
    int cx_index[MAX_PARAMS];       /* the constexpr parameters, in order */
    int rt_index[MAX_PARAMS];       /* the runtime parameters, in order */
};

/* A parameter's specialisation options, as Entry() is given them */
enum {
    PARAM_NO_SPECIALIZE = 1, /* do_not_specialize: no :1 / :16 hint */
    PARAM_NO_ALIGN = 2,      /* do_not_specialize_on_alignment */
    PARAM_ANNOTATED = 4,     /* a type annotation: the Python path classifies it */
};

static PyTypeObject GridCallType;
static PyObject *s_num_warps, *s_num_stages, *s_warmup, *s_is_cpu, *s_handle;
static PyObject *s_empty, *s_None, *s_True, *s_False, *s_nan, *s_inf, *s_ninf;

static int name_eq(PyObject *a, PyObject *b) {
    return a == b || (PyUnicode_CheckExact(a) && PyUnicode_CheckExact(b) && PyUnicode_Compare(a, b) == 0);
}

/* Whether a key part equals a call's value: the same object, or the same
 * exact type and ==. (Stricter than a dict's 1 == True: a mismatch only
 * sends the call to the Python path.) */
static int same_value(PyObject *a, PyObject *b) {
    if (a == b) return 1;
    if (Py_TYPE(a) != Py_TYPE(b)) return 0;
    int r = PyObject_RichCompareBool(a, b, Py_EQ);
    if (r < 0) {
        PyErr_Clear();
        return 0;
    }
    return r;
}

/* The chain of Launchers compiled for these constexprs and options, or NULL
 * (borrowed). Keys of _fast: (constexpr values..., num_warps, num_stages,
 * extra options); the fast path takes no extra options. */
static PyObject *find_chain(const Entry *E, PyObject *const *bound, PyObject *nw, PyObject *ns) {
    Py_ssize_t pos = 0;
    PyObject *key, *head;
    while (PyDict_Next(E->fast, &pos, &key, &head)) {
        if (!PyTuple_CheckExact(key) || PyTuple_GET_SIZE(key) != E->ncx + 3) continue;
        PyObject *ext = PyTuple_GET_ITEM(key, E->ncx + 2);
        if (!PyTuple_CheckExact(ext) || PyTuple_GET_SIZE(ext) != 0) continue;
        int c = 0;
        while (c < E->ncx && same_value(PyTuple_GET_ITEM(key, c), bound[E->cx_index[c]])) c++;
        if (c == E->ncx && same_value(PyTuple_GET_ITEM(key, c), nw) &&
            same_value(PyTuple_GET_ITEM(key, c + 1), ns))
            return head;
    }
    return NULL;
}

/* A callable grid's value on the call's META (every parameter, num_warps,
 * num_stages), as a tuple: a new reference, Py_None (new) when it is not a
 * tuple, list or int, NULL on an error. */
static PyObject *eval_grid(const Entry *E, PyObject *g, PyObject *const *bound, PyObject *nw, PyObject *ns) {
    PyObject *meta = PyDict_New();
    if (!meta) return NULL;
    for (int j = 0; j < E->nparams; j++)
        if (PyDict_SetItem(meta, E->names[j], bound[j]) < 0) goto fail;
    if (PyDict_SetItem(meta, s_num_warps, nw) < 0 || PyDict_SetItem(meta, s_num_stages, ns) < 0) goto fail;
    PyObject *r = PyObject_CallOneArg(g, meta);
    Py_DECREF(meta);
    if (!r || PyTuple_CheckExact(r)) return r;
    PyObject *t = PyLong_CheckExact(r) ? PyTuple_Pack(1, r) : PyList_CheckExact(r) ? PyList_AsTuple(r) : (Py_INCREF(Py_None), Py_None);
    Py_DECREF(r);
    return t;
fail:
    Py_DECREF(meta);
    return NULL;
}

/* ---- the first launch of a specialisation, in C ------------------------- */

/* What prep() returns, once per Entry (held in E->prepared):
 *    0 the source (bytes)         1 its file name        2 the kernel's name
 *    3 the module globals the kernel reads as constexprs: a tuple of (name, text)
 *    4 the JITFunction's `cache` dict: (signature, constexprs, num_warps,
 *      num_stages, device, debug) -> CompiledKernel
 *    5 make_kernel(handle, signature, constexprs, device, num_warps,
 *      num_stages, messages) -> a CompiledKernel that owns the handle
 *    6 a dict torch dtype -> signature type ("fp32"), shared with _spec
 *    7 dtype_sig(dtype) -> str or None: what fills that dict
 *    8 torch.Tensor, or None when torch is not imported
 *    9 the @jit debug flag: None, True or False
 *   10 get_device(): torch's current CUDA device (an int), or None (None: no
 *      CUDA launcher; the launch asks stream(-1), the current device's)
 *   11 stream(device): torch's current CUDA stream on it (a CUstream as an int)
 *   12 TC_DEVICE_CPU   13 TC_DEVICE_CUDA
 *   14 the CompiledKernel class  15 the JITFunction  16 the library (ctypes):
 *      what make_compiled (below) needs to make the CompiledKernel without
 *      Python when the compile left no messages to print
 * The keys, signatures and constexpr texts built here are exactly those of
 * the Python path (JITFunction._compile_bound and _first, _spec.classify),
 * so that either finds what the other compiled. */
typedef struct Prepared {
    const char *source, *filename, *kernel;
    Py_ssize_t source_len;
    PyObject *globals, *cache, *make_kernel, *dtype_sigs, *dtype_sig, *tensor_type, *debug, *get_device, *stream;
    int dev_cpu, dev_cuda;
    PyObject *kernel_class, *jit_fn, *lib;
} Prepared;

static int unpack_prepared(PyObject *t, Prepared *p) {
    return PyArg_ParseTuple(t, "y#ssO!O!OO!OOOOOiiO!OO", &p->source, &p->source_len, &p->filename, &p->kernel,
                            &PyTuple_Type, &p->globals, &PyDict_Type, &p->cache, &p->make_kernel, &PyDict_Type,
                            &p->dtype_sigs, &p->dtype_sig, &p->tensor_type, &p->debug, &p->get_device, &p->stream,
                            &p->dev_cpu, &p->dev_cuda, &PyType_Type, &p->kernel_class, &p->jit_fn, &p->lib);
}

/* Whether a reading made ahead still stands: every (globals dict, name,
 * value) it read holds the same object now (`absent`: a name not defined
 * then, and still not). As JITFunction.global_constexprs checks it. */
static int reads_stand(PyObject *reads, PyObject *absent) {
    if (!PyTuple_CheckExact(reads)) return 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(reads); i++) {
        PyObject *r = PyTuple_GET_ITEM(reads, i);
        if (!PyTuple_CheckExact(r) || PyTuple_GET_SIZE(r) != 3 || !PyDict_Check(PyTuple_GET_ITEM(r, 0))) return 0;
        PyObject *now = PyDict_GetItemWithError(PyTuple_GET_ITEM(r, 0), PyTuple_GET_ITEM(r, 1));
        if (!now && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        if ((now ? now : absent) != PyTuple_GET_ITEM(r, 2)) return 0;
    }
    return 1;
}

/* The attributes make_compiled sets, in order (_L first: once _handle is
 * set, the object's __del__ frees the handle); interned at module init. */
static const char *const kattr_names[] = {"_L", "_handle", "fn", "name", "signature", "constants", "device",
                                          "_infos", "_num_warps", "_num_stages", "_messages"};
enum { NKATTR = sizeof kattr_names / sizeof kattr_names[0] };
static PyObject *s_kattr[NKATTR];

/* The CompiledKernel of a C first launch, as JITFunction._c_kernel makes it
 * (CompiledKernel.__init__; `asm` is made on first use), without running
 * Python: a new reference, NULL on an error. */
static PyObject *make_compiled(const Prepared *P, PyObject *handle, const char *sig, PyObject *cx, int device,
                               PyObject *nw, PyObject *ns) {
    static PyObject *empty;
    if (!empty && !(empty = PyTuple_New(0))) return NULL;
    PyTypeObject *cls = (PyTypeObject *)P->kernel_class;
    PyObject *k = cls->tp_new(cls, empty, NULL);
    if (!k) return NULL;
    PyObject *constants = PyDict_New();
    for (Py_ssize_t c = 0; constants && c < PyTuple_GET_SIZE(cx); c++) {
        PyObject *pair = PyTuple_GET_ITEM(cx, c);
        if (PyDict_SetItem(constants, PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1)) < 0) Py_CLEAR(constants);
    }
    PyObject *vals[NKATTR] = {P->lib, handle, P->jit_fn, PyUnicode_FromString(P->kernel), PyUnicode_FromString(sig),
                              constants, PyLong_FromLong(device), Py_None, nw, ns, s_empty};
    int ok = 1;
    for (int i = 0; i < NKATTR && ok; i++) ok = vals[i] && PyObject_SetAttr(k, s_kattr[i], vals[i]) == 0;
    Py_XDECREF(vals[3]);
    Py_XDECREF(vals[4]);
    Py_XDECREF(constants);
    Py_XDECREF(vals[6]);
    if (!ok) Py_CLEAR(k);
    return k;
}

/* A constexpr value as the C front end reads it (_spec.constexpr_text): a
 * new reference, Py_None (borrowed, not to be released) for a kind the
 * Python path writes, NULL on an error. */
static PyObject *constexpr_text(PyObject *v) {
    if (v == Py_None) return Py_NewRef(s_None);
    if (v == Py_True) return Py_NewRef(s_True);
    if (v == Py_False) return Py_NewRef(s_False);
    if (PyLong_CheckExact(v)) return PyObject_Str(v);
    if (PyFloat_CheckExact(v)) {
        double d = PyFloat_AS_DOUBLE(v);
        if (d != d) return Py_NewRef(s_nan);
        if (d == Py_HUGE_VAL) return Py_NewRef(s_inf);
        if (d == -Py_HUGE_VAL) return Py_NewRef(s_ninf);
        return PyObject_Repr(v);
    }
    if (PyUnicode_CheckExact(v)) return PyObject_Repr(v);
    return Py_None; /* dtypes, tuples, tl.constexpr objects... */
}

/* A launch option as the key spells it: `dflt` for None (num_warps 4,
 * num_stages 3); -1 when not an int (the Python path decides). */
static long option_value(PyObject *v, long dflt) {
    if (v == Py_None) return dflt;
    if (!PyLong_CheckExact(v)) return -1;
    int overflow;
    long x = PyLong_AsLongAndOverflow(v, &overflow);
    if (overflow || x < 0 || x > 1024) return -1;
    return x;
}

/* TRITON_DEBUG as Triton's knobs read a flag: 1, true, on, yes or y, in any
 * case, around spaces; anything else (0, false, empty) is off. */
static int debug_flag(PyObject *jit_debug) {
    if (jit_debug == Py_True || jit_debug == Py_False) return jit_debug == Py_True;
    const char *e = getenv("TRITON_DEBUG"); /* os.environ's writes reach getenv */
    if (!e) return 0;
    while (*e == ' ' || *e == '\t') e++;
    size_t n = strlen(e);
    while (n && (e[n - 1] == ' ' || e[n - 1] == '\t' || e[n - 1] == '\n')) n--;
    static const char *const on[] = {"1", "true", "on", "yes", "y"};
    for (size_t i = 0; i < sizeof on / sizeof *on; i++)
        if (strlen(on[i]) == n && !strncasecmp(e, on[i], n)) return 1;
    return 0;
}

/* The length of the Launcher chain at `head`. */
static int chain_length(PyObject *head) {
    int n = 0;
    for (Launcher *L = (Launcher *)head; L; L = (Launcher *)L->next) n++;
    return n;
}

/* The first launch of a specialisation without Python: classifies the
 * arguments, finds the compiled kernel in the JITFunction's cache or
 * compiles it (tc_compile: from the disk cache, usually), makes its
 * CompiledKernel and Launcher and puts the Launcher at the head of its
 * chain in `_fast`, as _first and _add_fast do. 1: registered; 0: not
 * taken (an argument or option of a kind only the Python path handles, a
 * compile error it reports, a full chain), and nothing changed; -1: a
 * Python error. */
static int first_in_c(Entry *E, PyObject *const *bound, PyObject *nw, PyObject *ns) {
    if (!E->prep || !tc.compile) return 0;
    TRACE("launcher: first_in_c");
    if (!E->prepared && E->ahead) { /* read at decoration: taken when the globals it read stand */
        PyObject *ahead = E->ahead;
        E->ahead = NULL;
        Prepared check;
        if (PyTuple_CheckExact(ahead) && PyTuple_GET_SIZE(ahead) == 3 &&
            reads_stand(PyTuple_GET_ITEM(ahead, 1), PyTuple_GET_ITEM(ahead, 2)) &&
            unpack_prepared(PyTuple_GET_ITEM(ahead, 0), &check))
            E->prepared = Py_NewRef(PyTuple_GET_ITEM(ahead, 0));
        PyErr_Clear();
        Py_DECREF(ahead);
    }
    if (!E->prepared) {
        PyObject *t = PyObject_CallNoArgs(E->prep);
        Prepared check;
        if (!t || !PyTuple_CheckExact(t) || !unpack_prepared(t, &check)) {
            /* (a kernel without source, say: the Python path reports it) */
            PyErr_Clear();
            Py_XDECREF(t);
            Py_CLEAR(E->prep);
            return 0;
        }
        E->prepared = t;
    }
    TRACE("launcher: the source and globals (prep)");
    long num_warps = option_value(nw, 4), num_stages = option_value(ns, 3);
    if (num_warps < 0 || num_stages < 0) return 0;
    /* 0, or not a power of 2: the Python path's error (as Triton's options
     * assert; num_warps=0 was taken for the default 4) */
    if (num_warps == 0 || (num_warps & (num_warps - 1))) return 0;
    PyObject *prepared = Py_NewRef(E->prepared); /* the GIL is let go while compiling */
    Prepared P;
    int result = -1;
    PyObject *texts[MAX_PARAMS] = {0}, *cx = NULL, *key = NULL, *kern = NULL, *dev = NULL;
    Launcher *L = NULL;
    void *handle = NULL;
    if (!unpack_prepared(prepared, &P)) goto done;

    /* the runtime arguments: the signature and the Launcher's slots */
    char sig[MAX_PARAMS * 24];
    size_t len = 0;
    struct {
        char kind;
        PyObject *dtype;
        int aligned, cuda, iclass;
    } slot[MAX_PARAMS];
    int nslots = 0, any_cuda = 0, any_cpu = 0;
    TensorAccess acc = {0};
    int have_acc = 0;
    for (int k = 0; k < E->nrt; k++) {
        int j = E->rt_index[k];
        PyObject *a = bound[j];
        char entry[24];
        if (E->flags[j] & PARAM_ANNOTATED) goto not_taken;
        if ((PyObject *)Py_TYPE(a) == P.tensor_type) {
            if (!have_acc) acc = tensor_access(P.tensor_type), have_acc = 1;
            PyObject *dt = acc.dtype ? acc.dtype(a, acc.dtype_closure) : PyObject_GetAttr(a, s_dtype);
            if (!dt) goto done;
            Py_DECREF(dt); /* the tensor keeps it */
            PyObject *ty = PyDict_GetItemWithError(P.dtype_sigs, dt);
            if (!ty) {
                if (PyErr_Occurred()) goto done;
                PyObject *r = PyObject_CallOneArg(P.dtype_sig, dt); /* fills dtype_sigs */
                if (!r) goto done;
                Py_DECREF(r);
                ty = PyDict_GetItemWithError(P.dtype_sigs, dt);
                if (!ty && PyErr_Occurred()) goto done;
            }
            if (!ty || !PyUnicode_Check(ty)) goto not_taken; /* a dtype kernels cannot take: reported there */
            PyObject *p = acc.data_ptr ? acc.data_ptr(a, NULL) : PyObject_CallMethodNoArgs(a, s_data_ptr);
            if (!p) goto done;
            unsigned long long ptr = PyLong_AsUnsignedLongLong(p);
            Py_DECREF(p);
            if (ptr == (unsigned long long)-1 && PyErr_Occurred()) goto done;
            PyObject *c = acc.is_cuda ? acc.is_cuda(a, acc.is_cuda_closure) : PyObject_GetAttr(a, s_is_cuda);
            if (!c) goto done;
            int cuda = c == Py_True;
            Py_DECREF(c);
            if (!cuda) { /* a CPU tensor, or one on a device the Python path names in its error */
                c = PyObject_GetAttr(a, s_is_cpu);
                if (!c) goto done;
                int cpu = c == Py_True;
                Py_DECREF(c);
                if (!cpu) goto not_taken;
            }
            any_cuda |= cuda;
            any_cpu |= !cuda;
            int aligned = (E->flags[j] & PARAM_NO_ALIGN) ? -1 : (ptr & 15) == 0;
            snprintf(entry, sizeof entry, "*%s%s", PyUnicode_AsUTF8(ty), aligned == 1 ? ":16" : "");
            slot[nslots].kind = 'T';
            slot[nslots].dtype = dt;
            slot[nslots].aligned = aligned;
            slot[nslots].cuda = cuda;
            slot[nslots].iclass = 0;
        } else if (PyLong_CheckExact(a)) {
            int overflow;
            long long v = PyLong_AsLongLongAndOverflow(a, &overflow);
            if (v == -1 && PyErr_Occurred()) goto done;
            if (overflow || v < INT32_MIN || v > INT32_MAX) goto not_taken; /* i64, u32...: Python */
            int cls = (E->flags[j] & PARAM_NO_SPECIALIZE) ? -1 : v == 1 ? 1 : (v & 15) == 0 ? 16 : 0;
            snprintf(entry, sizeof entry, cls == 1 ? "i32:1" : cls == 16 ? "i32:16" : "i32");
            slot[nslots].kind = 'i';
            slot[nslots].dtype = NULL;
            slot[nslots].aligned = slot[nslots].cuda = 0;
            slot[nslots].iclass = cls;
        } else if (PyFloat_CheckExact(a)) {
            snprintf(entry, sizeof entry, "fp32");
            slot[nslots].kind = 'f';
            slot[nslots].dtype = NULL;
            slot[nslots].aligned = slot[nslots].cuda = slot[nslots].iclass = 0;
        } else {
            goto not_taken; /* None, bools, ndarrays, tuples, descriptors...: the Python path */
        }
        size_t el = strlen(entry);
        if (len + el + 2 > sizeof sig) goto not_taken;
        if (len) sig[len++] = ',';
        memcpy(sig + len, entry, el + 1);
        len += el;
        nslots++;
    }
    sig[len] = '\0';
    TRACE("launcher: the signature");
    if (any_cuda && any_cpu) goto not_taken; /* the Python path's error names both */
    int device = any_cuda ? P.dev_cuda : P.dev_cpu;

    /* the constexprs: the parameters', then the globals they do not shadow */
    Py_ssize_t nglob = PyTuple_GET_SIZE(P.globals);
    cx = PyTuple_New(E->ncx + nglob);
    if (!cx) goto done;
    Py_ssize_t ncx = 0;
    for (int c = 0; c < E->ncx; c++) {
        int j = E->cx_index[c];
        PyObject *text = constexpr_text(bound[j]);
        if (!text) goto done;
        if (text == Py_None) goto not_taken;
        PyObject *pair = PyTuple_Pack(2, E->names[j], text);
        texts[c] = text;
        if (!pair) goto done;
        PyTuple_SET_ITEM(cx, ncx++, pair);
    }
    for (Py_ssize_t g = 0; g < nglob; g++) {
        PyObject *pair = PyTuple_GET_ITEM(P.globals, g);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) goto not_taken;
        int shadowed = 0;
        for (int c = 0; c < E->ncx && !shadowed; c++) shadowed = name_eq(E->names[E->cx_index[c]], PyTuple_GET_ITEM(pair, 0));
        if (shadowed) continue;
        PyTuple_SET_ITEM(cx, ncx++, Py_NewRef(pair));
    }
    if (ncx < PyTuple_GET_SIZE(cx) && _PyTuple_Resize(&cx, ncx) < 0) goto done;
    int debug = debug_flag(P.debug);
    key = Py_BuildValue("(sOlliO)", sig, cx, num_warps, num_stages, device, debug ? Py_True : Py_False);
    if (!key) goto done;

    kern = PyDict_GetItemWithError(P.cache, key);
    if (kern) {
        Py_INCREF(kern);
        PyObject *h = PyObject_GetAttr(kern, s_handle);
        if (!h) goto done;
        handle = PyLong_AsVoidPtr(h);
        Py_DECREF(h);
        if (!handle) { /* (a stand-in kernel without a handle, or a freed one) */
            PyErr_Clear();
            goto not_taken;
        }
    } else {
        if (PyErr_Occurred()) goto done;
        TcConstexpr cxs[MAX_PARAMS * 2];
        if (ncx > (Py_ssize_t)(sizeof cxs / sizeof cxs[0])) goto not_taken;
        for (Py_ssize_t c = 0; c < ncx; c++) {
            PyObject *pair = PyTuple_GET_ITEM(cx, c);
            cxs[c].name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(pair, 0));
            cxs[c].value = PyUnicode_AsUTF8(PyTuple_GET_ITEM(pair, 1));
            if (!cxs[c].name || !cxs[c].value) goto done;
        }
        const char *cache_dir = getenv("TRITONC_CACHE_DIR");
        TcCompileOptions o = {
            .source = P.source, .source_len = (size_t)P.source_len, .filename = P.filename,
            .kernel = P.kernel, .signature = sig, .constexprs = cxs, .num_constexprs = (int)ncx,
            .device = device, .target = NULL, .num_warps = (int)num_warps, .num_stages = (int)num_stages,
            .cache_dir = cache_dir && cache_dir[0] ? cache_dir : NULL, .debug = debug,
        };
        void *err = NULL;
        int rc;
        TRACE("launcher: the constexprs and the key");
        Py_BEGIN_ALLOW_THREADS
        rc = tc.compile(&o, &handle, &err);
        Py_END_ALLOW_THREADS
        TRACE("launcher: tc_compile returned");
        if (rc != 0 || !handle) { /* the Python path compiles it again and reports the error */
            if (err && tc.error_free) tc.error_free(err);
            handle = NULL;
            goto not_taken;
        }
        if (tc.num_params(handle) != nslots) { /* the Python path raises its internal error */
            if (tc.kernel_free) tc.kernel_free(handle);
            handle = NULL;
            goto not_taken;
        }
        const char *msgs = tc.messages ? tc.messages(handle) : NULL;
        PyObject *h = PyLong_FromVoidPtr(handle);
        if (!h) goto done;
        if (msgs && msgs[0]) /* static_print's lines: make_kernel prints them */
            kern = PyObject_CallFunction(P.make_kernel, "OsOiOOs", h, sig, cx, device, nw, ns, msgs);
        else
            kern = make_compiled(&P, h, sig, cx, device, nw, ns);
        Py_DECREF(h);
        if (!kern) { /* (the kernel object, had it been made, frees the handle) */
            handle = NULL;
            goto done;
        }
        if (PyDict_SetItem(P.cache, key, kern) < 0) goto done;
        TRACE("launcher: the CompiledKernel");
    }

    /* the Launcher, at the head of the chain of these constexprs and options;
     * on CUDA it launches on torch's current stream of the device current at
     * each launch (device -1 to torch's stream getter) */
    if (any_cuda) {
        if (P.get_device == Py_None) goto not_taken;
        dev = PyLong_FromLong(-1);
        if (!dev) goto done;
    }
    L = launcher_alloc(handle, any_cuda ? P.stream : NULL, dev, kern);
    if (!L) goto done;
    for (int k = 0; k < nslots; k++)
        launcher_add_slot(L, slot[k].kind, slot[k].kind == 'T' ? P.tensor_type : NULL, slot[k].dtype,
                          slot[k].aligned, slot[k].cuda, slot[k].iclass, &acc);
    PyObject *fkey = PyTuple_New(E->ncx + 3);
    if (!fkey) goto done;
    for (int c = 0; c < E->ncx; c++) PyTuple_SET_ITEM(fkey, c, Py_NewRef(bound[E->cx_index[c]]));
    PyTuple_SET_ITEM(fkey, E->ncx, Py_NewRef(nw));
    PyTuple_SET_ITEM(fkey, E->ncx + 1, Py_NewRef(ns));
    PyTuple_SET_ITEM(fkey, E->ncx + 2, PyTuple_New(0));
    PyObject *head = PyDict_GetItemWithError(E->fast, fkey);
    if (!head && PyErr_Occurred()) {
        Py_DECREF(fkey);
        goto done;
    }
    if (head && chain_length(head) >= 8) { /* (as _add_fast: the rest take the Python path) */
        Py_DECREF(fkey);
        goto not_taken;
    }
    L->next = head ? Py_NewRef(head) : NULL;
    int rc = PyDict_SetItem(E->fast, fkey, (PyObject *)L);
    Py_DECREF(fkey);
    TRACE("launcher: the Launcher");
    result = rc < 0 ? -1 : 1;
    goto done;
not_taken:
    result = 0;
done:
    for (int c = 0; c < E->ncx; c++) Py_XDECREF(texts[c]);
    Py_XDECREF(cx);
    Py_XDECREF(key);
    Py_XDECREF(kern);
    Py_XDECREF(dev);
    Py_XDECREF((PyObject *)L);
    Py_DECREF(prepared);
    return result;
}

/* slow(grid, *args, **kwargs) */
static PyObject *call_slow(GridCall *gc, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    Py_ssize_t total = n + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
    PyObject *small[16], **stack = total + 1 <= 16 ? small : PyMem_Malloc(sizeof(PyObject *) * (size_t)(total + 1));
    if (!stack) return PyErr_NoMemory();
    stack[0] = gc->grid;
    if (total) memcpy(stack + 1, args, sizeof(PyObject *) * (size_t)total);
    PyObject *r = PyObject_Vectorcall(gc->entry->slow, stack, (size_t)(n + 1), kwnames);
    if (stack != small) PyMem_Free(stack);
    return r;
}

static PyObject *gridcall_call(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    GridCall *gc = (GridCall *)self;
    Entry *E = gc->entry;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    PyObject *bound[MAX_PARAMS];
    PyObject *nw = Py_None, *ns = Py_None;
    if (n > E->nparams || hooks_on) return call_slow(gc, args, nargsf, kwnames);
    for (int j = 0; j < E->nparams; j++) bound[j] = j < n ? args[j] : NULL;
    Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nk; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k), *v = args[n + k];
        int j = 0; /* the call site's names are interned, as the parameters' are: identity first */
        while (j < E->nparams && E->names[j] != name) j++;
        if (j == E->nparams)
            for (j = 0; j < E->nparams && !name_eq(E->names[j], name);) j++;
        if (j < E->nparams) {
            if (bound[j]) return call_slow(gc, args, nargsf, kwnames); /* given twice */
            bound[j] = v;
        } else if (name_eq(name, s_num_warps)) {
            nw = v;
        } else if (name_eq(name, s_num_stages)) {
            ns = v;
        } else if (!(name_eq(name, s_warmup) && v == Py_False)) {
            return call_slow(gc, args, nargsf, kwnames); /* warmup, another option, a typo */
        }
    }
    for (int j = 0; j < E->nparams; j++)
        if (!bound[j] && !(bound[j] = E->defaults[j])) return call_slow(gc, args, nargsf, kwnames);
    /* a parameter that shares a launch option's name is that option too */
    if (E->nw_param >= 0) nw = bound[E->nw_param];
    if (E->ns_param >= 0) ns = bound[E->ns_param];
    int grid[3];
    if (PyTuple_CheckExact(gc->grid)) {
        if (!grid_ints(gc->grid, grid)) return call_slow(gc, args, nargsf, kwnames);
    } else {
        if (!PyCallable_Check(gc->grid)) return call_slow(gc, args, nargsf, kwnames);
        PyObject *g = eval_grid(E, gc->grid, bound, nw, ns);
        if (!g) return NULL;
        int ok = grid_ints(g, grid);
        Py_DECREF(g);
        if (!ok) return call_slow(gc, args, nargsf, kwnames);
    }
    PyObject *rt[MAX_PARAMS];
    for (int k = 0; k < E->nrt; k++) rt[k] = bound[E->rt_index[k]];
    for (int attempt = 0; attempt < 2; attempt++) {
        PyObject *head = find_chain(E, bound, nw, ns);
        if (head) {
            Py_INCREF(head); /* a launch lets the GIL go: _fast may change meanwhile */
            PyObject *r = run_chain(head, grid, rt, E->nrt);
            Py_DECREF(head);
            if (attempt) TRACE("launcher: the first launch");
            if (r != Py_None) return r;
            Py_DECREF(r);
        }
        if (attempt) break;
        /* compile this specialisation and register its Launcher: in C when
         * the arguments are of the kinds a Launcher takes, else in Python */
        int taken = first_in_c(E, bound, nw, ns);
        if (taken < 0) return NULL;
        if (taken) continue;
        if (!E->first) break;
        PyObject *tup = PyTuple_New(E->nparams);
        if (!tup) return NULL;
        for (int j = 0; j < E->nparams; j++) {
            Py_INCREF(bound[j]);
            PyTuple_SET_ITEM(tup, j, bound[j]);
        }
        PyObject *fa[4] = {gc->grid, tup, nw, ns};
        PyObject *ok = PyObject_Vectorcall(E->first, fa, 4, NULL);
        Py_DECREF(tup);
        if (!ok) return NULL;
        int yes = ok == Py_True, broken = ok == Py_None;
        Py_DECREF(ok);
        if (broken) Py_CLEAR(E->first); /* no Launcher could be made: stop asking */
        if (!yes) break;
    }
    return call_slow(gc, args, nargsf, kwnames);
}

static int gridcall_traverse(GridCall *self, visitproc visit, void *arg) {
    Py_VISIT(self->entry);
    Py_VISIT(self->grid);
    return 0;
}

static int gridcall_clear(GridCall *self) {
    Py_CLEAR(self->entry);
    Py_CLEAR(self->grid);
    return 0;
}

static void gridcall_dealloc(GridCall *self) {
    PyObject_GC_UnTrack(self);
    gridcall_clear(self);
    PyObject_GC_Del(self);
}

static PyTypeObject GridCallType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "_tritonc_launcher.GridCall",
    .tp_basicsize = sizeof(GridCall),
    .tp_dealloc = (destructor)gridcall_dealloc,
    .tp_vectorcall_offset = offsetof(GridCall, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)gridcall_traverse,
    .tp_clear = (inquiry)gridcall_clear,
    .tp_doc = "kernel[grid]: call it with the kernel's arguments (see _launcher.c).",
};

/* entry(grid) -> a GridCall. One is kept and reused while only the Entry
 * holds it (a launch statement drops its GridCall as soon as it returns). */
static PyObject *entry_call(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Entry *E = (Entry *)self;
    if (PyVectorcall_NARGS(nargsf) != 1 || (kwnames && PyTuple_GET_SIZE(kwnames))) {
        PyErr_SetString(PyExc_TypeError, "kernel[grid] takes one grid");
        return NULL;
    }
    PyObject *grid = args[0];
    GridCall *gc = E->spare;
    if (gc && Py_REFCNT(gc) == 1) {
        Py_INCREF(grid);
        Py_SETREF(gc->grid, grid);
        Py_INCREF(gc);
        return (PyObject *)gc;
    }
    gc = PyObject_GC_New(GridCall, &GridCallType);
    if (!gc) return NULL;
    gc->vectorcall = gridcall_call;
    Py_INCREF(E);
    gc->entry = E;
    Py_INCREF(grid);
    gc->grid = grid;
    PyObject_GC_Track(gc);
    if (!E->spare) {
        Py_INCREF(gc);
        E->spare = gc;
    }
    return (PyObject *)gc;
}

static int entry_traverse(Entry *self, visitproc visit, void *arg) {
    Py_VISIT(self->fast);
    Py_VISIT(self->slow);
    Py_VISIT(self->first);
    Py_VISIT(self->prep);
    Py_VISIT(self->prepared);
    Py_VISIT(self->ahead);
    Py_VISIT(self->spare);
    for (int j = 0; j < self->nparams; j++) {
        Py_VISIT(self->names[j]);
        Py_VISIT(self->defaults[j]);
    }
    return 0;
}

static int entry_clear(Entry *self) {
    Py_CLEAR(self->fast);
    Py_CLEAR(self->slow);
    Py_CLEAR(self->first);
    Py_CLEAR(self->prep);
    Py_CLEAR(self->prepared);
    Py_CLEAR(self->ahead);
    Py_CLEAR(self->spare);
    for (int j = 0; j < self->nparams; j++) {
        Py_CLEAR(self->names[j]);
        Py_CLEAR(self->defaults[j]);
    }
    self->nparams = self->ncx = self->nrt = 0;
    return 0;
}

static void entry_dealloc(Entry *self) {
    PyObject_GC_UnTrack(self);
    entry_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Entry(params, fast, slow, first, prep=None, ahead=None): params a tuple
 * of (name, is_constexpr, has_default, default, flags), one per parameter
 * in order, flags the PARAM_* bits; first and prep may be None. ahead:
 * (prep()'s tuple as read at decoration, the (globals, name, value) reads
 * it stands on, the marker of a name not defined), taken at the first
 * launch instead of calling prep() when the reads still stand. */
static PyObject *entry_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    (void)kw;
    PyObject *params, *fast, *slow, *first, *prep = Py_None, *ahead = Py_None;
    if (!PyArg_ParseTuple(args, "O!O!OO|OO", &PyTuple_Type, &params, &PyDict_Type, &fast, &slow, &first, &prep,
                          &ahead))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(params);
    if (n > MAX_PARAMS) {
        PyErr_SetString(PyExc_ValueError, "too many kernel parameters for the C entry");
        return NULL;
    }
    Entry *E = (Entry *)type->tp_alloc(type, 0);
    if (!E) return NULL;
    E->vectorcall = entry_call;
    Py_INCREF(fast);
    E->fast = fast;
    Py_INCREF(slow);
    E->slow = slow;
    E->first = first == Py_None ? NULL : (Py_INCREF(first), first);
    E->prep = prep == Py_None ? NULL : (Py_INCREF(prep), prep);
    E->ahead = ahead == Py_None ? NULL : (Py_INCREF(ahead), ahead);
    if (E->ahead && PyTuple_CheckExact(ahead) && PyTuple_GET_SIZE(ahead) == 3) {
        Prepared P;
        if (unpack_prepared(PyTuple_GET_ITEM(ahead, 0), &P) && PyType_Check(P.tensor_type))
            (void)tensor_access(P.tensor_type);
        PyErr_Clear();
    }
    E->nw_param = E->ns_param = -1;
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *name, *dflt;
        int is_cx, has_default, flags;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(params, j), "UppOi", &name, &is_cx, &has_default, &dflt, &flags)) {
            Py_DECREF(E);
            return NULL;
        }
        Py_INCREF(name);
        E->names[j] = name;
        E->defaults[j] = has_default ? (Py_INCREF(dflt), dflt) : NULL;
        E->flags[j] = (unsigned char)flags;
        E->nparams = (int)j + 1;
        if (is_cx) E->cx_index[E->ncx++] = (int)j;
        else E->rt_index[E->nrt++] = (int)j;
        if (name_eq(name, s_num_warps)) E->nw_param = (int)j;
        if (name_eq(name, s_num_stages)) E->ns_param = (int)j;
    }
    return (PyObject *)E;
}

static PyTypeObject EntryType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "_tritonc_launcher.Entry",
    .tp_basicsize = sizeof(Entry),
    .tp_dealloc = (destructor)entry_dealloc,
    .tp_vectorcall_offset = offsetof(Entry, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)entry_traverse,
    .tp_clear = (inquiry)entry_clear,
    .tp_doc = "A @jit function's `kernel[grid]` in C (see _launcher.c).",
    .tp_new = entry_new,
};

/* ---- JitBase: `kernel[grid]` without a Python frame ----------------------- */

/* The C base of the binding's JITFunction class when this module is in use
 * (jit.py makes `class _CJITFunction(JitBase, JITFunction)`): its `_front`
 * slot holds what `kernel[grid]` calls with the grid (the Entry), and its
 * mp_subscript calls it directly, where JITFunction.__getitem__ would run a
 * Python frame per launch. Before the front is made (None), the subscript
 * makes it (front_in_c), or asks `self._make_front()`, which stores it. */
typedef struct JitBase {
    PyObject_HEAD
    PyObject *front;
} JitBase;

static PyObject *s_make_front;

/* What JITFunction._make_front makes with this module in use, made here
 * without running Python: Entry(self._entry_params, self._fast, self._slow,
 * self._first, self._prep, ahead), ahead being self._ahead when it was read
 * for this very function (not for the original of a copy). Stored in the
 * front slot, with self._c_front = True. A new reference, or NULL without
 * an error set when _make_front is to decide (an Entry that cannot be made:
 * too many parameters, say). */
static PyObject *front_in_c(PyObject *self) {
    static const char *const names[] = {"_entry_params", "_fast", "_slow", "_first", "_prep", "_ahead"};
    enum { N = sizeof names / sizeof names[0] };
    static PyObject *interned[N], *s_c_front;
    PyObject *args = PyTuple_New(N), *E = NULL;
    if (!args) goto out;
    for (int i = 0; i < N; i++) {
        if (!interned[i] && !(interned[i] = PyUnicode_InternFromString(names[i]))) goto out;
        PyObject *v = PyObject_GetAttr(self, interned[i]);
        if (!v) goto out;
        PyTuple_SET_ITEM(args, i, v);
    }
    PyObject *ahead = PyTuple_GET_ITEM(args, N - 1);
    if (ahead != Py_None) { /* ahead[0][15] is self */
        PyObject *t = PyTuple_CheckExact(ahead) && PyTuple_GET_SIZE(ahead) == 3 ? PyTuple_GET_ITEM(ahead, 0) : NULL;
        if (!t || !PyTuple_CheckExact(t) || PyTuple_GET_SIZE(t) < 16 || PyTuple_GET_ITEM(t, 15) != self) {
            Py_INCREF(Py_None);
            PyTuple_SetItem(args, N - 1, Py_None);
        }
    }
    E = entry_new(&EntryType, args, NULL);
    if (!s_c_front && !(s_c_front = PyUnicode_InternFromString("_c_front"))) Py_CLEAR(E);
    if (E && PyObject_SetAttr(self, s_c_front, Py_True) < 0) Py_CLEAR(E);
    if (E) Py_XSETREF(((JitBase *)self)->front, Py_NewRef(E));
out:
    Py_XDECREF(args);
    PyErr_Clear();
    return E;
}

static PyObject *jitbase_subscript(PyObject *self, PyObject *grid) {
    PyObject *f = ((JitBase *)self)->front;
    if (f && f != Py_None) {
        Py_INCREF(f); /* the call may replace it */
    } else if (!(f = front_in_c(self)) && !(f = PyObject_CallMethodNoArgs(self, s_make_front))) {
        return NULL;
    }
    PyObject *r = PyObject_Vectorcall(f, &grid, 1, NULL);
    Py_DECREF(f);
    return r;
}

static int jitbase_traverse(JitBase *self, visitproc visit, void *arg) {
    Py_VISIT(self->front);
    return 0;
}

static int jitbase_clear(JitBase *self) {
    Py_CLEAR(self->front);
    return 0;
}

static void jitbase_dealloc(JitBase *self) {
    PyObject_GC_UnTrack(self);
    jitbase_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef jitbase_members[] = {
    {"_front", T_OBJECT, offsetof(JitBase, front), 0, "what kernel[grid] calls with the grid, or None"},
    {NULL, 0, 0, 0, NULL},
};

static PyMappingMethods jitbase_mapping = {.mp_subscript = jitbase_subscript};

static PyTypeObject JitBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "_tritonc_launcher.JitBase",
    .tp_basicsize = sizeof(JitBase),
    .tp_dealloc = (destructor)jitbase_dealloc,
    .tp_as_mapping = &jitbase_mapping,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)jitbase_traverse,
    .tp_clear = (inquiry)jitbase_clear,
    .tp_members = jitbase_members,
    .tp_doc = "The C base of a @jit function: `kernel[grid]` (see _launcher.c).",
    .tp_new = PyType_GenericNew,
};

/* ---- compile(...): tc_compile without ctypes ----------------------------- */


/* compile(source, filename, kernel, signature, constexprs, device,
 *         num_warps, num_stages, target, cache_dir, debug)
 * -> (handle, 0) or (0, tc_error address). source is bytes; constexprs a
 * tuple of (name, value) str pairs; num_warps/num_stages 0 for the
 * default; target and cache_dir str or None. The first launch of a cached
 * kernel spends ~70 us in ctypes building these options; here, ~2 us. */
static PyObject *ext_compile(PyObject *mod, PyObject *args) {
    (void)mod;
    const char *source, *filename, *kernel, *signature, *target, *cache_dir;
    Py_ssize_t source_len;
    PyObject *cx;
    int device, num_warps, num_stages, debug;
    if (!PyArg_ParseTuple(args, "y#sssO!iiizzp", &source, &source_len, &filename, &kernel, &signature,
                          &PyTuple_Type, &cx, &device, &num_warps, &num_stages, &target, &cache_dir, &debug))
        return NULL;
    if (!tc.compile) {
        PyErr_SetString(PyExc_RuntimeError, "the C launcher is not bound to libtritonc");
        return NULL;
    }
    Py_ssize_t ncx = PyTuple_GET_SIZE(cx);
    TcConstexpr small[16], *cxs = ncx <= 16 ? small : PyMem_Malloc(sizeof(TcConstexpr) * (size_t)ncx);
    if (!cxs) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < ncx; i++)
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(cx, i), "ss", &cxs[i].name, &cxs[i].value)) {
            if (cxs != small) PyMem_Free(cxs);
            return NULL;
        }
    TcCompileOptions o = {
        .source = source, .source_len = (size_t)source_len, .filename = filename, .kernel = kernel,
        .signature = signature, .constexprs = cxs, .num_constexprs = (int)ncx, .device = device,
        .target = target, .num_warps = num_warps > 0 ? num_warps : 4, .num_stages = num_stages >= 0 ? num_stages : 3,
        .cache_dir = cache_dir, .debug = debug,
    };
    void *out = NULL, *err = NULL;
    int rc;
    /* the strings stay valid: their objects are in `args`, which the caller holds */
    Py_BEGIN_ALLOW_THREADS
    rc = tc.compile(&o, &out, &err);
    Py_END_ALLOW_THREADS
    if (cxs != small) PyMem_Free(cxs);
    if (rc != 0 || !out) return Py_BuildValue("(KK)", 0ULL, (unsigned long long)(uintptr_t)err);
    return Py_BuildValue("(KK)", (unsigned long long)(uintptr_t)out, 0ULL);
}

/* kernel_info(handle) -> (runtime parameters, shared bytes, registers,
 * local bytes, messages): what a CompiledKernel reports, in one call.
 * Registers and local bytes are the driver's (CUDA), 0 on the CPU; the
 * messages are the compile's notes (tl.static_print), "" when none. */
static PyObject *ext_kernel_info(PyObject *mod, PyObject *arg) {
    (void)mod;
    void *k = PyLong_AsVoidPtr(arg);
    if (!k) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "kernel_info: null kernel");
        return NULL;
    }
    if (!tc.num_params) {
        PyErr_SetString(PyExc_RuntimeError, "the C launcher is not bound to libtritonc");
        return NULL;
    }
    const char *msgs = tc.messages ? tc.messages(k) : NULL;
    int shared = 0, regs = 0, local = 0;
    if (tc.attribute) {
        shared = tc.attribute(k, "shared");
        regs = tc.attribute(k, "num_regs");
        local = tc.attribute(k, "local_bytes");
    }
    return Py_BuildValue("(iiiis)", tc.num_params(k), shared, regs, local, msgs ? msgs : "");
}

/* bind(handle): finds the library's functions in `handle` (a dlopen
 * handle, ctypes' CDLL._handle). A missing symbol (an older library) is
 * an ImportError, and the binding keeps its Python path. */
static PyObject *ext_bind(PyObject *mod, PyObject *arg) {
    (void)mod;
    void *h = PyLong_AsVoidPtr(arg);
    if (!h && PyErr_Occurred()) return NULL;
    static const char *const names[] = {"tc_compile",          "tc_launch",         "tc_kernel_num_params",
                                        "tc_kernel_attribute", "tc_kernel_messages", "tc_kernel_free",
                                        "tc_error_free",       "tc_trace_mark"};
    void *f[8];
    for (int i = 0; i < 8; i++)
        if (!(f[i] = dlsym(h, names[i])) && i < 3) { /* the others are optional, as for ctypes */
            PyErr_Format(PyExc_ImportError, "libtritonc has no %s", names[i]);
            return NULL;
        }
    *(void **)&tc.compile = f[0];
    *(void **)&tc.launch = f[1];
    *(void **)&tc.num_params = f[2];
    *(void **)&tc.attribute = f[3];
    *(void **)&tc.messages = f[4];
    *(void **)&tc.kernel_free = f[5];
    *(void **)&tc.error_free = f[6];
    *(void **)&tc.trace_mark = f[7];
    const char *e = getenv("TRITONC_TRACE");
    trace_on = f[7] && e && *e && *e != '0';
    Py_RETURN_NONE;
}

/* set_hooks(flag): whether launches must take the Python path (hooks_on). */
static PyObject *ext_set_hooks(PyObject *mod, PyObject *arg) {
    (void)mod;
    int v = PyObject_IsTrue(arg);
    if (v < 0) return NULL;
    hooks_on = v;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"set_hooks", ext_set_hooks, METH_O, "set_hooks(flag): launches take the Python path, which calls the launch hooks."},
    {"bind", ext_bind, METH_O, "bind(dlopen handle): finds libtritonc's functions (see above)."},
    {"compile", ext_compile, METH_VARARGS, "tc_compile without ctypes (see above)."},
    {"kernel_info", ext_kernel_info, METH_O, "A compiled kernel's figures in one call (see above)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_tritonc_launcher", NULL, -1, module_methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__tritonc_launcher(void) {
    if (PyType_Ready(&LauncherType) < 0 || PyType_Ready(&GridCallType) < 0 || PyType_Ready(&EntryType) < 0 ||
        PyType_Ready(&JitBaseType) < 0)
        return NULL;
    s_make_front = PyUnicode_InternFromString("_make_front");
    s_num_warps = PyUnicode_InternFromString("num_warps");
    s_num_stages = PyUnicode_InternFromString("num_stages");
    s_warmup = PyUnicode_InternFromString("warmup");
    s_dtype = PyUnicode_InternFromString("dtype");
    s_data_ptr = PyUnicode_InternFromString("data_ptr");
    s_is_cuda = PyUnicode_InternFromString("is_cuda");
    s_raise = PyUnicode_InternFromString("_raise");
    s_is_cpu = PyUnicode_InternFromString("is_cpu");
    s_handle = PyUnicode_InternFromString("_handle");
    s_empty = PyUnicode_InternFromString("");
    s_None = PyUnicode_InternFromString("None");
    s_True = PyUnicode_InternFromString("True");
    s_False = PyUnicode_InternFromString("False");
    s_nan = PyUnicode_InternFromString("float('nan')");
    s_inf = PyUnicode_InternFromString("float('inf')");
    s_ninf = PyUnicode_InternFromString("-float('inf')");
    for (int i = 0; i < NKATTR; i++)
        if (!(s_kattr[i] = PyUnicode_InternFromString(kattr_names[i]))) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddObjectRef(m, "Launcher", (PyObject *)&LauncherType) < 0 ||
        PyModule_AddObjectRef(m, "Entry", (PyObject *)&EntryType) < 0 ||
        PyModule_AddObjectRef(m, "JitBase", (PyObject *)&JitBaseType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
