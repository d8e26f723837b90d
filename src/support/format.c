/*
 * format.c - a printf for the formats the compiler writes most.
 *
 * The PTX emitter and the IR printers format hundreds of thousands of short
 * strings ("add.s32 %r12, %r7, 4") per second of compile time, and glibc's
 * vfprintf spends most of that time in its general machinery (locale
 * lookups, FILE emulation, width and precision parsing). tc_vsnprintf
 * accepts the plain conversions %d %i %u %x %X %c %s %% with the length
 * modifiers l, ll and z and no flags, width or precision, and formats them
 * with a hand-written integer conversion. Any other format (a width, a
 * float, a flag) goes to vsnprintf unchanged, so the result is always what
 * vsnprintf would write: the fast path formats in one pass and, on meeting
 * a conversion it does not handle, starts over with vsnprintf and a copy of
 * the arguments taken at the start.
 */
#include "support/support.h"

#include <stdio.h>

/* Appends n bytes to buf[0..cap) at *pos, counting what does not fit. */
static void put(char *buf, size_t cap, size_t *pos, const char *s, size_t n) {
    if (*pos < cap) {
        size_t room = cap - *pos;
        memcpy(buf + *pos, s, n < room ? n : room);
    }
    *pos += n;
}

static int fmt_hex(char *out, uint64_t v, bool upper) {
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char rev[16];
    int k = 0;
    do rev[k++] = digits[v & 15];
    while ((v >>= 4) > 0);
    for (int i = 0; i < k; i++) out[i] = rev[k - 1 - i];
    return k;
}

int tc_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap) {
    va_list again;
    va_copy(again, ap);
    size_t pos = 0;
    const char *lit = fmt;
    for (const char *f = strchr(fmt, '%'); f; f = strchr(f + 1, '%')) { /* (the literal runs at strchr's pace) */
        put(buf, cap, &pos, lit, (size_t)(f - lit));
        f++;
        int size = 0; /* 0 int, 1 long, 2 long long, 3 size_t */
        if (*f == 'l') {
            size = 1;
            if (*++f == 'l') size = 2, f++;
        } else if (*f == 'z') {
            size = 3, f++;
        }
        char num[24];
        int n = 0;
        switch (*f) {
        case 'd': case 'i': {
            int64_t v = size == 0 ? va_arg(ap, int) : size == 1 ? va_arg(ap, long)
                        : size == 2 ? va_arg(ap, long long) : (int64_t)va_arg(ap, ptrdiff_t);
            if (v < 0) num[n++] = '-';
            /* 0 - (uint64_t)v is |v| also for INT64_MIN */
            n += fmt_uint(num + n, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
            break;
        }
        case 'u': case 'x': case 'X': {
            uint64_t v = size == 0 ? va_arg(ap, unsigned) : size == 1 ? va_arg(ap, unsigned long)
                         : size == 2 ? va_arg(ap, unsigned long long) : va_arg(ap, size_t);
            n = *f == 'u' ? fmt_uint(num, v) : fmt_hex(num, v, *f == 'X');
            break;
        }
        case 'c': case 's': case '%':
            if (size) goto slow;
            if (*f == 'c') num[n++] = (char)va_arg(ap, int);
            else if (*f == '%') num[n++] = '%';
            else {
                const char *s = va_arg(ap, const char *);
                if (!s) s = "(null)";
                put(buf, cap, &pos, s, strlen(s));
            }
            break;
        default: goto slow; /* flags, width, precision, floats, %p, %n, a lone '%' */
        }
        put(buf, cap, &pos, num, (size_t)n);
        lit = f + 1;
    }
    put(buf, cap, &pos, lit, strlen(lit));
    if (cap) buf[pos < cap ? pos : cap - 1] = 0;
    va_end(again);
    return (int)pos;
slow:;
    int r = vsnprintf(buf, cap, fmt, again);
    va_end(again);
    return r;
}

int tc_snprintf(char *buf, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = tc_vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return n;
}
