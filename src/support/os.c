/*
 * os.c - the few operating-system services the compiler needs: whole-file
 * reads, atomic writes (temporary file + rename, so a crash or a second
 * process never sees half a file), `mkdir -p`, a monotonic clock and peak
 * memory.
 */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A regular file of known size is read with one read() into a buffer of
 * that size plus one: a short read is its end (a disk-cache hit reads a few
 * KB on a kernel's first launch, where every system call counts). Pipes,
 * stdin and /proc files (size 0) are read in chunks until EOF. */
char *read_file(const char *path, size_t *len_out) {
    bool in = strcmp(path, "-") == 0;
    int fd = in ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat st;
    bool sized = !in && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
    size_t want = sized ? (size_t)st.st_size + 1 : 65536;
    StrBuf sb = {0};
    bool err = false;
    for (;;) {
        sb_reserve(&sb, want);
        ssize_t n = read(fd, sb.data + sb.len, want);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) err = true;
        if (n <= 0) break;
        sb.len += (size_t)n;
        if (sized && (size_t)n < want) break;
        want = 65536;
    }
    if (!in) close(fd);
    if (err) {
        sb_free(&sb);
        return NULL;
    }
    sb.data[sb.len] = '\0';
    if (len_out) *len_out = sb.len;
    return sb_take(&sb);
}

bool write_file_atomic(const char *path, const void *data, size_t len) {
    /* the temporary name is unique to this process and call: two threads
     * may write the same path at once (two compiles of one kernel) */
    static long counter;
    StrBuf tmp = {0};
    sb_printf(&tmp, "%s.tmp-%ld-%ld", path, (long)getpid(), __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
    FILE *f = fopen(sb_cstr(&tmp), "wb");
    if (!f) {
        sb_free(&tmp);
        return false;
    }
    bool ok = fwrite(data, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (ok) ok = rename(sb_cstr(&tmp), path) == 0;
    if (!ok) remove(sb_cstr(&tmp));
    sb_free(&tmp);
    return ok;
}

bool make_dirs(const char *path) {
    char *p = tc_strdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = 0;
        if (mkdir(p, 0755) != 0 && errno != EEXIST) {
            tc_free(p);
            return false;
        }
        *s = '/';
    }
    bool ok = mkdir(p, 0755) == 0 || errno == EEXIST;
    tc_free(p);
    return ok;
}

double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

size_t peak_rss_bytes(void) {
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
    return (size_t)ru.ru_maxrss * 1024; /* Linux reports KiB */
}
