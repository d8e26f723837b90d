/*
 * trace.c - a timeline of a process's first moments (TRITONC_TRACE=1).
 *
 * A new process's first kernel call (the source-keyed cache hit, the
 * driver's module load, the first launch) costs a few hundred microseconds,
 * most of it in code and data touched for the first time. Profilers sample
 * too coarsely to say where, so the places on that path mark the moment they
 * reach (tc_trace_mark), with the minor page faults taken so far; the
 * Python binding's C launcher marks its own steps through the same function
 * (found with dlsym). At exit the marks are printed to stderr:
 *
 *   tritonc trace: +   12.3 us (  4.1) [ 2 faults] srccache: key
 *
 * the time since the first mark, since the previous one, the faults since
 * the previous one, and the name. Each mark costs a getrusage call (~0.5 us)
 * while tracing; off, a load and a branch. At most TRACE_MAX marks are kept.
 */
#include "support/support.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#define TRACE_MAX 256

static int trace_state; /* 0: not read yet, 1: off, 2: on */
static struct {
    const char *what;
    double s; /* now_seconds() */
    long faults;
} marks[TRACE_MAX];
static int nmarks;

static void trace_dump(void) {
    for (int i = 0; i < nmarks; i++) {
        double d = i ? marks[i].s - marks[i - 1].s : 0;
        long f = i ? marks[i].faults - marks[i - 1].faults : 0;
        fprintf(stderr, "tritonc trace: +%9.1f us (%7.1f) [%3ld faults] %s\n", (marks[i].s - marks[0].s) * 1e6,
                d * 1e6, f, marks[i].what);
    }
}

bool tc_trace_on(void) {
    if (__builtin_expect(trace_state == 0, 0)) {
        const char *e = getenv("TRITONC_TRACE");
        trace_state = e && *e && *e != '0' ? 2 : 1;
        if (trace_state == 2) atexit(trace_dump);
    }
    return trace_state == 2;
}

/* `what` must outlive the process (a string literal). Not thread-safe: a
 * timeline of one thread's first call. */
void tc_trace_mark(const char *what) {
    if (!tc_trace_on() || nmarks >= TRACE_MAX) return;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    marks[nmarks].what = what;
    marks[nmarks].faults = ru.ru_minflt;
    marks[nmarks].s = now_seconds();
    nmarks++;
}
