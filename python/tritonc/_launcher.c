/*
 * _launcher.c - the hot path of `kernel[grid](...)` in C: a CPython
 * extension module, built on first use with the system's C compiler and
 * Python's headers into the cache folder (see _cext.py), as Triton builds
 * its own launcher. Without a compiler or headers the binding keeps its
 * generated pure-Python launcher, which computes the same thing.
 *
 * One Launcher per compiled specialisation. The generated Python launcher
 * binds the call's arguments (Python does that fastest), looks the
 * constexprs and launch options up in one dict, and calls
 *
 *     launcher(grid_tuple, arg0, arg1, ...)       (the runtime arguments)
 *
 * which, for each argument, checks that it still fits the specialisation it
 * was compiled for, exactly as the pure-Python key does:
 *
 *   'T' a torch.Tensor (exact type): its dtype object, its data pointer's
 *       16-byte alignment (unless do_not_specialize_on_alignment), is_cuda,
 *       and is_contiguous() when the kernel checks contiguity;
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

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef Py_TPFLAGS_HAVE_VECTORCALL
#define Py_TPFLAGS_HAVE_VECTORCALL _Py_TPFLAGS_HAVE_VECTORCALL
#endif

#define MAX_ARGS 64

typedef int (*LaunchFn)(void *k, const int grid[3], void *const *args, int nargs, void *stream,
                        void **err);

typedef struct Slot {
    char kind;           /* 'T' (value: the data pointer), 'i' (i32), 'f' (fp32) */
    signed char aligned; /* 'T': 1 / 0 expected 16-byte alignment, -1: not checked */
    signed char cuda;    /* 'T': expected is_cuda */
    signed char contig;  /* 'T': expected is_contiguous(), -1: not checked */
    int iclass;      /* 'i': expected 1 / 16 / 0; -1: not checked (do_not_specialize) */
    PyObject *type;  /* 'T': the exact type (torch.Tensor) */
    PyObject *dtype; /* 'T': the dtype object */
} Slot;

typedef struct Launcher {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    LaunchFn launch;
    void *handle;
    void **err;          /* the CompiledKernel's error slot */
    PyObject *stream_fn; /* CUDA: torch's current stream, as an int; else NULL */
    PyObject *kernel;    /* returned on success */
    PyObject *next;      /* another Launcher, or NULL */
    int nargs;
    Slot slots[MAX_ARGS];
} Launcher;

static PyObject *s_dtype, *s_data_ptr, *s_is_cuda, *s_is_contiguous, *s_raise;

/* A Launcher refers to its CompiledKernel, which refers to its JITFunction,
 * whose table refers to the Launcher: a cycle the garbage collector must be
 * able to see through (kernels defined inside functions come and go). */
static int launcher_traverse(Launcher *self, visitproc visit, void *arg) {
    for (int i = 0; i < self->nargs; i++) {
        Py_VISIT(self->slots[i].type);
        Py_VISIT(self->slots[i].dtype);
    }
    Py_VISIT(self->stream_fn);
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
    PyObject *dt = PyObject_GetAttr(a, s_dtype);
    if (!dt) return -1;
    Py_DECREF(dt); /* only its identity matters; the tensor keeps it alive */
    if (dt != s->dtype) return 0;
    PyObject *p = PyObject_CallMethodNoArgs(a, s_data_ptr);
    if (!p) return -1;
    unsigned long long ptr = PyLong_AsUnsignedLongLong(p);
    Py_DECREF(p);
    if (ptr == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (s->aligned >= 0 && (int)((ptr & 15) == 0) != s->aligned) return 0;
    PyObject *c = PyObject_GetAttr(a, s_is_cuda);
    if (!c) return -1;
    int cuda = c == Py_True;
    Py_DECREF(c);
    if (cuda != s->cuda) return 0;
    if (s->contig >= 0) {
        PyObject *r = PyObject_CallMethodNoArgs(a, s_is_contiguous);
        if (!r) return -1;
        int contig = r == Py_True;
        Py_DECREF(r);
        if (contig != s->contig) return 0;
    }
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

static PyObject *launcher_call(PyObject *callable, PyObject *const *args, size_t nargsf,
                               PyObject *kwnames) {
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (kwnames && PyTuple_GET_SIZE(kwnames)) {
        PyErr_SetString(PyExc_TypeError, "launcher takes positional arguments only");
        return NULL;
    }
    if (n < 1) Py_RETURN_NONE;
    PyObject *g = args[0];
    if (!PyTuple_CheckExact(g)) Py_RETURN_NONE;
    Py_ssize_t gn = PyTuple_GET_SIZE(g);
    if (gn < 1 || gn > 3) Py_RETURN_NONE;
    int grid[3] = {1, 1, 1};
    for (Py_ssize_t d = 0; d < gn; d++) {
        PyObject *x = PyTuple_GET_ITEM(g, d);
        if (!PyLong_CheckExact(x)) Py_RETURN_NONE;
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
        if (overflow || v < INT32_MIN || v > INT32_MAX) Py_RETURN_NONE; /* Python reports it */
        grid[d] = (int)v;
    }
    uint64_t values[MAX_ARGS];
    void *argv[MAX_ARGS];
    for (Launcher *L = (Launcher *)callable; L; L = (Launcher *)L->next) {
        if (!L->kernel) continue; /* cleared by the garbage collector */
        int r = fill(L, args + 1, n - 1, values);
        if (r < 0) return NULL;
        if (r == 0) continue;
        void *stream = NULL;
        if (L->stream_fn) {
            PyObject *s = PyObject_CallNoArgs(L->stream_fn);
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

/* Launcher(launch_addr, handle, err_addr, stream_fn or None, kernel, slots)
 * slots: a tuple of (kind, type or None, dtype or None, aligned, cuda, contig,
 * iclass), one per runtime parameter. */
static PyObject *launcher_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    (void)kw;
    unsigned long long launch, handle, err;
    PyObject *stream_fn, *kernel, *slots;
    if (!PyArg_ParseTuple(args, "KKKOOO!", &launch, &handle, &err, &stream_fn, &kernel, &PyTuple_Type,
                          &slots))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(slots);
    if (n > MAX_ARGS) {
        PyErr_SetString(PyExc_ValueError, "too many kernel arguments for the C launcher");
        return NULL;
    }
    Launcher *L = (Launcher *)type->tp_alloc(type, 0);
    if (!L) return NULL;
    L->vectorcall = launcher_call;
    L->launch = (LaunchFn)(uintptr_t)launch;
    L->handle = (void *)(uintptr_t)handle;
    L->err = (void **)(uintptr_t)err;
    L->stream_fn = stream_fn == Py_None ? NULL : (Py_INCREF(stream_fn), stream_fn);
    Py_INCREF(kernel);
    L->kernel = kernel;
    for (Py_ssize_t i = 0; i < n; i++) {
        Slot *s = &L->slots[i];
        const char *kind;
        PyObject *tp, *dtype;
        int aligned, cuda, contig, iclass;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(slots, i), "sOOiiii", &kind, &tp, &dtype, &aligned, &cuda,
                              &contig, &iclass)) {
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
        s->contig = (signed char)contig;
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

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_tritonc_launcher", NULL, -1, NULL,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__tritonc_launcher(void) {
    if (PyType_Ready(&LauncherType) < 0) return NULL;
    s_dtype = PyUnicode_InternFromString("dtype");
    s_data_ptr = PyUnicode_InternFromString("data_ptr");
    s_is_cuda = PyUnicode_InternFromString("is_cuda");
    s_is_contiguous = PyUnicode_InternFromString("is_contiguous");
    s_raise = PyUnicode_InternFromString("_raise");
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&LauncherType);
    if (PyModule_AddObject(m, "Launcher", (PyObject *)&LauncherType) < 0) {
        Py_DECREF(&LauncherType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
