/*
 * _launcher.c - the hot path of `kernel[grid](...)` in C: a CPython
 * extension module, built on first use with the system's C compiler and
 * Python's headers into the cache folder (see _cext.py), as Triton builds
 * its own launcher. Without a compiler or headers the binding keeps its
 * generated pure-Python launcher, which computes the same thing.
 *
 * Two types. An Entry, one per @jit function, is `kernel[grid]`: calling
 * it with the grid gives a GridCall, and calling that with the kernel's
 * arguments binds them to the parameters (positional, then keywords, then
 * defaults), finds the specialisations compiled for these constexpr values
 * and launch options in the function's `_fast` dict (keys are
 * (constexpr values..., num_warps, num_stages, ()), values the head of a
 * chain of Launchers), evaluates a callable grid on the call's META dict,
 * and runs the first Launcher of the chain that takes the runtime arguments.
 * A call whose arguments bind but whose specialisation has no Launcher yet
 * (a first call) asks `first(grid, bound_args, num_warps, num_stages)` to
 * compile it and register its Launcher, and tries again; `first` returns
 * False when the arguments are of kinds no Launcher takes, None when a
 * Launcher could not be made (then it is not asked again). Anything else (warmup, other launch options, a missing argument,
 * an argument of a kind the Launchers do not take) goes to the function's
 * Python path, `slow(grid, *args, **kwargs)`, which binds, reports errors,
 * compiles and registers new Launchers.
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

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
} tc;

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
    void **err;          /* the CompiledKernel's error slot */
    PyObject *stream_fn; /* CUDA: returns torch's current stream as an int, given */
    PyObject *stream_arg; /* this argument (the device index); else both NULL */
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

static TensorAccess tensor_access(PyObject *type) {
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
            if (!stream && PyErr_Occurred()) return NULL;
        }
        for (int i = 0; i < L->nargs; i++) argv[i] = &values[i];
        int rc;
        /* the GIL is let go, as ctypes did: a CPU launch runs the whole grid */
        Py_BEGIN_ALLOW_THREADS
        rc = L->launch(L->handle, grid, argv, L->nargs, stream, L->err);
        Py_END_ALLOW_THREADS
        if (rc != 0) return PyObject_CallMethodNoArgs(L->kernel, s_raise); /* raises LaunchError */
        Py_INCREF(L->kernel);
        return L->kernel;
    }
    Py_RETURN_NONE;
}

static PyObject *launcher_call(PyObject *callable, PyObject *const *args, size_t nargsf,
                               PyObject *kwnames) {
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (kwnames && PyTuple_GET_SIZE(kwnames)) {
        PyErr_SetString(PyExc_TypeError, "launcher takes positional arguments only");
        return NULL;
    }
    int grid[3];
    if (n < 1 || !grid_ints(args[0], grid)) Py_RETURN_NONE;
    return run_chain(callable, grid, args + 1, n - 1);
}

/* Launcher(handle, err_addr, stream_fn or None, stream_arg, kernel, slots)
 * slots: a tuple of (kind, type or None, dtype or None, aligned, cuda, iclass),
 * one per runtime parameter. */
static PyObject *launcher_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    (void)kw;
    unsigned long long handle, err;
    PyObject *stream_fn, *stream_arg, *kernel, *slots;
    if (!PyArg_ParseTuple(args, "KKOOOO!", &handle, &err, &stream_fn, &stream_arg, &kernel, &PyTuple_Type,
                          &slots))
        return NULL;
    if (!tc.launch) {
        PyErr_SetString(PyExc_RuntimeError, "the C launcher is not bound to libtritonc");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(slots);
    if (n > MAX_ARGS) {
        PyErr_SetString(PyExc_ValueError, "too many kernel arguments for the C launcher");
        return NULL;
    }
    Launcher *L = (Launcher *)type->tp_alloc(type, 0);
    if (!L) return NULL;
    L->vectorcall = launcher_call;
    L->launch = tc.launch;
    L->handle = (void *)(uintptr_t)handle;
    L->err = (void **)(uintptr_t)err;
    L->stream_fn = stream_fn == Py_None ? NULL : (Py_INCREF(stream_fn), stream_fn);
    L->stream_arg = L->stream_fn ? (Py_INCREF(stream_arg), stream_arg) : NULL;
    Py_INCREF(kernel);
    L->kernel = kernel;
    for (Py_ssize_t i = 0; i < n; i++) {
        Slot *s = &L->slots[i];
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
        s->kind = kind[0];
        s->type = tp == Py_None ? NULL : (Py_INCREF(tp), tp);
        s->aligned = (signed char)aligned;
        s->cuda = (signed char)cuda;
        if (s->kind == 'T') s->acc = tensor_access(tp);
        s->iclass = iclass;
        s->dtype = dtype == Py_None ? NULL : (Py_INCREF(dtype), dtype);
        L->nargs = (int)i + 1;
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
    GridCall *spare; /* reused while nobody else holds it */
    int nparams, ncx, nrt;
    int nw_param, ns_param; /* the parameter named num_warps / num_stages, or -1 */
    PyObject *names[MAX_PARAMS];
    PyObject *defaults[MAX_PARAMS]; /* NULL: none */
    int cx_index[MAX_PARAMS];       /* the constexpr parameters, in order */
    int rt_index[MAX_PARAMS];       /* the runtime parameters, in order */
};

static PyTypeObject GridCallType;
static PyObject *s_num_warps, *s_num_stages, *s_warmup;

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
    if (n > E->nparams) return call_slow(gc, args, nargsf, kwnames);
    for (int j = 0; j < E->nparams; j++) bound[j] = j < n ? args[j] : NULL;
    Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nk; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k), *v = args[n + k];
        int j = 0;
        while (j < E->nparams && !name_eq(E->names[j], name)) j++;
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
            if (r != Py_None) return r;
            Py_DECREF(r);
        }
        if (attempt || !E->first) break;
        /* compile this specialisation and register its Launcher */
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

/* Entry(params, fast, slow, first): params a tuple of (name,
 * is_constexpr, has_default, default), one per parameter in order; first
 * may be None. */
static PyObject *entry_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    (void)kw;
    PyObject *params, *fast, *slow, *first;
    if (!PyArg_ParseTuple(args, "O!O!OO", &PyTuple_Type, &params, &PyDict_Type, &fast, &slow, &first)) return NULL;
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
    E->nw_param = E->ns_param = -1;
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *name, *dflt;
        int is_cx, has_default;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(params, j), "UppO", &name, &is_cx, &has_default, &dflt)) {
            Py_DECREF(E);
            return NULL;
        }
        Py_INCREF(name);
        E->names[j] = name;
        E->defaults[j] = has_default ? (Py_INCREF(dflt), dflt) : NULL;
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

/* ---- compile(...): tc_compile without ctypes ----------------------------- */

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
    static const char *const names[] = {"tc_compile", "tc_launch", "tc_kernel_num_params", "tc_kernel_attribute",
                                        "tc_kernel_messages"};
    void *f[5];
    for (int i = 0; i < 5; i++)
        if (!(f[i] = dlsym(h, names[i])) && i < 3) { /* the last two are optional, as for ctypes */
            PyErr_Format(PyExc_ImportError, "libtritonc has no %s", names[i]);
            return NULL;
        }
    *(void **)&tc.compile = f[0];
    *(void **)&tc.launch = f[1];
    *(void **)&tc.num_params = f[2];
    *(void **)&tc.attribute = f[3];
    *(void **)&tc.messages = f[4];
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"bind", ext_bind, METH_O, "bind(dlopen handle): finds libtritonc's functions (see above)."},
    {"compile", ext_compile, METH_VARARGS, "tc_compile without ctypes (see above)."},
    {"kernel_info", ext_kernel_info, METH_O, "A compiled kernel's figures in one call (see above)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_tritonc_launcher", NULL, -1, module_methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__tritonc_launcher(void) {
    if (PyType_Ready(&LauncherType) < 0 || PyType_Ready(&GridCallType) < 0 || PyType_Ready(&EntryType) < 0)
        return NULL;
    s_num_warps = PyUnicode_InternFromString("num_warps");
    s_num_stages = PyUnicode_InternFromString("num_stages");
    s_warmup = PyUnicode_InternFromString("warmup");
    s_dtype = PyUnicode_InternFromString("dtype");
    s_data_ptr = PyUnicode_InternFromString("data_ptr");
    s_is_cuda = PyUnicode_InternFromString("is_cuda");
    s_raise = PyUnicode_InternFromString("_raise");
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddObjectRef(m, "Launcher", (PyObject *)&LauncherType) < 0 ||
        PyModule_AddObjectRef(m, "Entry", (PyObject *)&EntryType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
