// An LD_PRELOAD shim that adds a fixed delay to every fsync/fdatasync of the process: a slower
// device measured at the system-call level, against which pizzeria-bench's own VFS model
// (--sync-latency-us) is checked (docs/PERFORMANCE.md, "Group commit where every sync is slow").
//
//   cc -O2 -shared -fPIC -o fsync_delay.so bench/fsync_delay.c -ldl
//   FSYNC_DELAY_US=5000 LD_PRELOAD=$PWD/fsync_delay.so pizzeria-bench --only place_orders_concurrent
//
// FSYNC_DELAY_US (default 5000) is the delay; FSYNC_DELAY_REPORT=1 prints on exit how many calls
// were delayed, by function. The real call still happens; the delay comes after it, as a slow
// device's flush would.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static atomic_ulong fsyncs, fdatasyncs;

static void delay(void) {
    static long microseconds = -1;
    if (microseconds < 0) {
        const char *text = getenv("FSYNC_DELAY_US");
        microseconds = text ? atol(text) : 5000;
    }
    struct timespec wait = { microseconds / 1000000, (microseconds % 1000000) * 1000 };
    while (nanosleep(&wait, &wait) != 0) {}
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    int rc = real(fd);
    atomic_fetch_add(&fsyncs, 1);
    delay();
    return rc;
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    int rc = real(fd);
    atomic_fetch_add(&fdatasyncs, 1);
    delay();
    return rc;
}

__attribute__((destructor)) static void report(void) {
    if (getenv("FSYNC_DELAY_REPORT")) {
        fprintf(stderr, "fsync_delay: %lu fsync, %lu fdatasync delayed\n", atomic_load(&fsyncs), atomic_load(&fdatasyncs));
    }
}
