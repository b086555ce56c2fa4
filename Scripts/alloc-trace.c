// An LD_PRELOAD allocator hook for Scripts/alloc-trace: counts every malloc, calloc, realloc,
// posix_memalign and aligned_alloc of the process, and writes a backtrace of each one whose
// number falls in [ALLOC_TRACE_FROM, ALLOC_TRACE_FROM + ALLOC_TRACE_COUNT) to ALLOC_TRACE_OUT,
// with the executable mappings first so that the addresses can be symbolized. The total count
// goes to stderr at exit ("ALLOC_TRACE_TOTAL n"). glibc's own entry points are called directly,
// so nothing needs dlsym (which allocates) before the hook is ready.
#define _GNU_SOURCE
#include <execinfo.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_long count;
static atomic_int out = -1;
static atomic_int opening;
static long from = -1, until = -1;
static __thread int inside;

static void record(size_t size) {
    if (inside) return;
    if (from < 0) {
        const char *f = getenv("ALLOC_TRACE_FROM"), *c = getenv("ALLOC_TRACE_COUNT");
        from = f ? atol(f) : (1L << 62);
        until = from + (c ? atol(c) : 1000);
    }
    long number = atomic_fetch_add(&count, 1);
    if (number < from || number >= until) return;
    inside = 1;
    if (atomic_load(&out) < 0) {
        if (atomic_exchange(&opening, 1) == 0) {
            const char *path = getenv("ALLOC_TRACE_OUT");
            int fd = open(path ? path : "alloc-trace.txt", O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
            FILE *maps = fopen("/proc/self/maps", "r");
            char line[512];
            while (maps && fgets(line, sizeof line, maps)) {
                if (strstr(line, " r-xp ")) { write(fd, "MAP ", 4); write(fd, line, strlen(line)); }
            }
            if (maps) fclose(maps);
            atomic_store(&out, fd);
        } else {
            while (atomic_load(&out) < 0) {}
        }
    }
    void *frames[40];
    int depth = backtrace(frames, 40);
    char text[2048];
    int length = snprintf(text, sizeof text, "E %ld %zu\n", number, size);
    for (int i = 2; i < depth && length < (int)sizeof text - 24; i++) length += snprintf(text + length, sizeof text - length, "%p\n", frames[i]);
    write(atomic_load(&out), text, length);
    inside = 0;
}

void *malloc(size_t size) { void *p = __libc_malloc(size); record(size); return p; }
void *calloc(size_t n, size_t size) { void *p = __libc_calloc(n, size); record(n * size); return p; }
void *realloc(void *old, size_t size) { void *p = __libc_realloc(old, size); record(size); return p; }
void *aligned_alloc(size_t alignment, size_t size) { void *p = __libc_memalign(alignment, size); record(size); return p; }
int posix_memalign(void **result, size_t alignment, size_t size) {
    void *p = __libc_memalign(alignment, size);
    if (!p) return 12;  // ENOMEM
    *result = p;
    record(size);
    return 0;
}

__attribute__((destructor)) static void report(void) {
    char text[64];
    int length = snprintf(text, sizeof text, "ALLOC_TRACE_TOTAL %ld\n", (long)atomic_load(&count));
    write(2, text, length);
}
