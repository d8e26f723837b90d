/*
 * thread_pool.c - the process-wide pool that runs a launch grid.
 *
 * Threads are created lazily on the first launch that needs them and live
 * for the process (detached; nothing to join at exit). Each has a big stack
 * (CPU_POOL_STACK) because a program instance keeps its tiles on the stack.
 * A kernel whose tiles outgrow that stack runs on threads started for its
 * launch, each with a stack sized to the kernel's frame, and joined after.
 * One job at a time: cpu_pool_run takes the pool's lock, publishes the job,
 * wakes the workers, takes chunks itself when the kernel's frame fits the
 * caller's stack, and waits until every worker has left the job. Workers take
 * chunks of program ids from an atomic counter, so a slow program never
 * stalls a whole static slice; after a failure no new chunk starts.
 */
#include "target/cpu/cpu_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct Job {
    CpuRangeFn fn;
    void *ud;
    int64_t n, chunk;
    int64_t next;    /* atomic: first unclaimed program */
    int result;      /* atomic: first nonzero status */
    int max_workers; /* pool threads that may join (the caller counts as one) */
} Job;

static struct {
    pthread_mutex_t run_lock; /* one launch at a time */
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    Job *job;
    unsigned long generation; /* bumped per job */
    int nthreads, active;
    bool started;
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
          PTHREAD_COND_INITIALIZER, NULL, 0, 0, 0, false};

int cpu_pool_num_threads(void) {
    static int n;
    if (n) return n;
    int v = 0;
    const char *s = getenv("TRITONC_NUM_THREADS");
    if (s) v = atoi(s);
    if (v <= 0) v = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (v <= 0) v = 1;
    if (v > 1024) v = 1024;
    n = v;
    return n;
}

static void run_chunks(Job *j) {
    for (;;) {
        if (__atomic_load_n(&j->result, __ATOMIC_RELAXED)) return;
        int64_t b = __atomic_fetch_add(&j->next, j->chunk, __ATOMIC_RELAXED);
        if (b >= j->n) return;
        int64_t e = b + j->chunk < j->n ? b + j->chunk : j->n;
        int r = j->fn(j->ud, b, e);
        if (r) {
            int zero = 0;
            __atomic_compare_exchange_n(&j->result, &zero, r, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
        }
    }
}

static void *worker(void *arg) {
    (void)arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (pool.generation == seen) pthread_cond_wait(&pool.wake, &pool.lock);
        seen = pool.generation;
        Job *j = pool.job;
        if (!j) continue; /* woke after that job was already finished */
        if (pool.active >= j->max_workers) continue;
        pool.active++;
        pthread_mutex_unlock(&pool.lock);
        run_chunks(j);
        pthread_mutex_lock(&pool.lock);
        if (--pool.active == 0) pthread_cond_broadcast(&pool.done);
    }
    return NULL;
}

/* Called with pool.lock held. */
static void start_threads(void) {
    if (pool.started) return;
    pool.started = true;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, CPU_POOL_STACK);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int n = cpu_pool_num_threads();
    for (int i = 0; i < n; i++) {
        pthread_t t;
        if (pthread_create(&t, &attr, worker, NULL) == 0) pool.nthreads++;
    }
    pthread_attr_destroy(&attr);
}

static void *big_frame_worker(void *arg) {
    run_chunks(arg);
    return NULL;
}

/* The stack a thread needs for a frame of frame_bytes of tiles: the tiles,
 * a quarter more for what the C compiler spills beside them, and 8 MiB for
 * the calls the kernel makes (libm, the prelude), in whole 64 KiB units. */
static size_t stack_for_frame(int64_t frame_bytes) {
    size_t want = (size_t)frame_bytes + (size_t)frame_bytes / 4 + ((size_t)8 << 20);
    size_t unit = (size_t)64 << 10;
    return (want + unit - 1) / unit * unit;
}

/* Runs the job on up to cpu_pool_num_threads() threads with `stack` bytes
 * of stack each, started here and joined before returning. */
static int run_big_frame(Job *job, size_t stack) {
    int64_t want = cpu_pool_num_threads();
    if (want > job->n) want = job->n;
    pthread_t *threads = malloc((size_t)want * sizeof *threads);
    if (!threads) return CPU_POOL_NO_STACK;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    int started = 0;
    if (pthread_attr_setstacksize(&attr, stack) == 0)
        while (started < want && pthread_create(&threads[started], &attr, big_frame_worker, job) == 0) started++;
    pthread_attr_destroy(&attr);
    for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);
    free(threads);
    return started ? job->result : CPU_POOL_NO_STACK;
}

int cpu_pool_run(int64_t n, CpuRangeFn fn, void *ud, int64_t frame_bytes) {
    if (n <= 0) return 0;
    size_t stack = stack_for_frame(frame_bytes);
    if (stack > CPU_POOL_STACK) {
        int64_t chunk = n / ((int64_t)cpu_pool_num_threads() * 8);
        Job job = {fn, ud, n, chunk < 1 ? 1 : chunk, 0, 0, 0};
        return run_big_frame(&job, stack);
    }
    bool small_frame = frame_bytes < ((int64_t)1 << 20);
    if (n == 1 && small_frame) return fn(ud, 0, 1);
    pthread_mutex_lock(&pool.run_lock);
    pthread_mutex_lock(&pool.lock);
    start_threads();
    if (pool.nthreads == 0) { /* could not create any thread: run inline */
        pthread_mutex_unlock(&pool.lock);
        int r = fn(ud, 0, n);
        pthread_mutex_unlock(&pool.run_lock);
        return r;
    }
    int64_t chunk = n / ((int64_t)pool.nthreads * 8);
    /* TRITONC_NUM_THREADS threads in all: the caller and nthreads - 1 workers
     * when the caller takes part */
    Job job = {fn, ud, n, chunk < 1 ? 1 : chunk, 0, 0, small_frame ? pool.nthreads - 1 : pool.nthreads};
    pool.job = &job;
    pool.generation++;
    if (job.max_workers > 0) pthread_cond_broadcast(&pool.wake);
    if (small_frame) {
        /* the caller takes chunks too: a short launch does not wait for the
         * workers to wake (on a busy machine that can take longer than the
         * launch), and a worker that is not scheduled holds nothing up */
        pthread_mutex_unlock(&pool.lock);
        run_chunks(&job);
        pthread_mutex_lock(&pool.lock);
    }
    /* wait until every worker has picked the job up and left it */
    while (pool.active > 0 || __atomic_load_n(&job.next, __ATOMIC_RELAXED) < n) {
        if (__atomic_load_n(&job.result, __ATOMIC_RELAXED) && pool.active == 0) break;
        pthread_cond_wait(&pool.done, &pool.lock);
    }
    pool.job = NULL;
    pthread_mutex_unlock(&pool.lock);
    pthread_mutex_unlock(&pool.run_lock);
    return job.result;
}
