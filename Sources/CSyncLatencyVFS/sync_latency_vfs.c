// The benchmark's model of a slower device (pizzeria-bench --sync-latency-us N; 0 adds none): a
// fixed delay after every fsync and fdatasync of the process. This file defines both functions,
// so the benchmark executable interposes them for every caller — SQLite's own syncs (its unix
// VFS) and the library's commit syncer, which syncs the WAL itself — exactly as the LD_PRELOAD
// shim in bench/fsync_delay.c does at the system-call level. (An earlier model delayed the VFS's
// xSync; once the library began syncing commits itself, that model missed those syncs.)
//
// It also registers a delegating SQLite VFS that counts the temporary files SQLite opens
// (statement journals, temp databases, transient tables): with `temp_store = MEMORY` there must
// be none. Every other VFS call goes straight to the default VFS (unix), so locking, shared memory
// and mmap behave exactly as without it.
// See https://www.sqlite.org/vfs.html and the sqlite3_vfs / sqlite3_io_methods reference.
#define _GNU_SOURCE
#include "sync_latency_vfs.h"

#include <dlfcn.h>
#include <malloc.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

typedef struct {
    sqlite3_file base;   // pMethods: latency_io
    sqlite3_file *real;  // the default VFS's file, allocated right after this struct
} LatencyFile;

static sqlite3_vfs latency_vfs;
static sqlite3_vfs *real_vfs;
static unsigned int latency_us;
static atomic_ullong delayed_syncs;
static atomic_ullong temp_files;

#define REAL(file) (((LatencyFile *)(file))->real)

static void wait_latency(void) {
    if (latency_us == 0) return;
    struct timespec delay = { latency_us / 1000000, (long)(latency_us % 1000000) * 1000 };
    while (nanosleep(&delay, &delay) != 0) {}
    atomic_fetch_add(&delayed_syncs, 1);
}

static int l_close(sqlite3_file *f) { return REAL(f)->pMethods->xClose(REAL(f)); }
static int l_read(sqlite3_file *f, void *b, int n, sqlite3_int64 o) { return REAL(f)->pMethods->xRead(REAL(f), b, n, o); }
static int l_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 o) { return REAL(f)->pMethods->xWrite(REAL(f), b, n, o); }
static int l_truncate(sqlite3_file *f, sqlite3_int64 size) { return REAL(f)->pMethods->xTruncate(REAL(f), size); }
static int l_sync(sqlite3_file *f, int flags) { return REAL(f)->pMethods->xSync(REAL(f), flags); }

// The delay, after the real call (as a slow device's flush would take longer to return).
int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    int rc = real(fd);
    wait_latency();
    return rc;
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    int rc = real(fd);
    wait_latency();
    return rc;
}
static int l_size(sqlite3_file *f, sqlite3_int64 *size) { return REAL(f)->pMethods->xFileSize(REAL(f), size); }
static int l_lock(sqlite3_file *f, int level) { return REAL(f)->pMethods->xLock(REAL(f), level); }
static int l_unlock(sqlite3_file *f, int level) { return REAL(f)->pMethods->xUnlock(REAL(f), level); }
static int l_check(sqlite3_file *f, int *out) { return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out); }
static int l_control(sqlite3_file *f, int op, void *arg) { return REAL(f)->pMethods->xFileControl(REAL(f), op, arg); }
static int l_sector(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int l_device(sqlite3_file *f) { return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)); }
static int l_shm_map(sqlite3_file *f, int page, int size, int extend, void volatile **out) {
    return REAL(f)->pMethods->xShmMap(REAL(f), page, size, extend, out);
}
static int l_shm_lock(sqlite3_file *f, int offset, int n, int flags) { return REAL(f)->pMethods->xShmLock(REAL(f), offset, n, flags); }
static void l_shm_barrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int l_shm_unmap(sqlite3_file *f, int delete_flag) { return REAL(f)->pMethods->xShmUnmap(REAL(f), delete_flag); }
static int l_fetch(sqlite3_file *f, sqlite3_int64 o, int n, void **out) { return REAL(f)->pMethods->xFetch(REAL(f), o, n, out); }
static int l_unfetch(sqlite3_file *f, sqlite3_int64 o, void *p) { return REAL(f)->pMethods->xUnfetch(REAL(f), o, p); }

// Three tables, one per io_methods version, so a file offers exactly what the real one offers.
static const sqlite3_io_methods latency_io[3] = {
    { 1, l_close, l_read, l_write, l_truncate, l_sync, l_size, l_lock, l_unlock, l_check, l_control, l_sector, l_device,
      0, 0, 0, 0, 0, 0 },
    { 2, l_close, l_read, l_write, l_truncate, l_sync, l_size, l_lock, l_unlock, l_check, l_control, l_sector, l_device,
      l_shm_map, l_shm_lock, l_shm_barrier, l_shm_unmap, 0, 0 },
    { 3, l_close, l_read, l_write, l_truncate, l_sync, l_size, l_lock, l_unlock, l_check, l_control, l_sector, l_device,
      l_shm_map, l_shm_lock, l_shm_barrier, l_shm_unmap, l_fetch, l_unfetch },
};

static int l_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    (void)vfs;
    if (flags & (SQLITE_OPEN_TEMP_JOURNAL | SQLITE_OPEN_SUBJOURNAL | SQLITE_OPEN_TEMP_DB | SQLITE_OPEN_TRANSIENT_DB)) {
        atomic_fetch_add(&temp_files, 1);
    }
    LatencyFile *p = (LatencyFile *)file;
    p->real = (sqlite3_file *)&p[1];
    int rc = real_vfs->xOpen(real_vfs, name, p->real, flags, out_flags);
    if (p->real->pMethods) {
        int version = p->real->pMethods->iVersion;
        p->base.pMethods = &latency_io[(version < 1 ? 1 : version > 3 ? 3 : version) - 1];
    } else {
        p->base.pMethods = 0;
    }
    return rc;
}
static int v_delete(sqlite3_vfs *v, const char *n, int sync_dir) { (void)v; return real_vfs->xDelete(real_vfs, n, sync_dir); }
static int v_access(sqlite3_vfs *v, const char *n, int flags, int *out) { (void)v; return real_vfs->xAccess(real_vfs, n, flags, out); }
static int v_full(sqlite3_vfs *v, const char *n, int size, char *out) { (void)v; return real_vfs->xFullPathname(real_vfs, n, size, out); }
static void *v_dlopen(sqlite3_vfs *v, const char *n) { (void)v; return real_vfs->xDlOpen(real_vfs, n); }
static void v_dlerror(sqlite3_vfs *v, int n, char *out) { (void)v; real_vfs->xDlError(real_vfs, n, out); }
static void (*v_dlsym(sqlite3_vfs *v, void *h, const char *s))(void) { (void)v; return real_vfs->xDlSym(real_vfs, h, s); }
static void v_dlclose(sqlite3_vfs *v, void *h) { (void)v; real_vfs->xDlClose(real_vfs, h); }
static int v_random(sqlite3_vfs *v, int n, char *out) { (void)v; return real_vfs->xRandomness(real_vfs, n, out); }
static int v_sleep(sqlite3_vfs *v, int us) { (void)v; return real_vfs->xSleep(real_vfs, us); }
static int v_time(sqlite3_vfs *v, double *out) { (void)v; return real_vfs->xCurrentTime(real_vfs, out); }
static int v_error(sqlite3_vfs *v, int n, char *out) { (void)v; return real_vfs->xGetLastError ? real_vfs->xGetLastError(real_vfs, n, out) : 0; }
static int v_time64(sqlite3_vfs *v, sqlite3_int64 *out) { (void)v; return real_vfs->xCurrentTimeInt64(real_vfs, out); }
static int v_setsys(sqlite3_vfs *v, const char *n, sqlite3_syscall_ptr p) { (void)v; return real_vfs->xSetSystemCall(real_vfs, n, p); }
static sqlite3_syscall_ptr v_getsys(sqlite3_vfs *v, const char *n) { (void)v; return real_vfs->xGetSystemCall(real_vfs, n); }
static const char *v_nextsys(sqlite3_vfs *v, const char *n) { (void)v; return real_vfs->xNextSystemCall(real_vfs, n); }

int pizzeria_register_sync_latency_vfs(unsigned int microseconds) {
    if (real_vfs) { latency_us = microseconds; return SQLITE_OK; }
    int rc = sqlite3_initialize();
    if (rc != SQLITE_OK) return rc;
    real_vfs = sqlite3_vfs_find(0);
    if (!real_vfs || real_vfs->iVersion < 3) return SQLITE_ERROR;
    latency_us = microseconds;
    memset(&latency_vfs, 0, sizeof latency_vfs);
    latency_vfs.iVersion = 3;
    latency_vfs.szOsFile = (int)sizeof(LatencyFile) + real_vfs->szOsFile;
    latency_vfs.mxPathname = real_vfs->mxPathname;
    latency_vfs.zName = "pizzeria-sync-latency";
    latency_vfs.xOpen = l_open;
    latency_vfs.xDelete = v_delete;
    latency_vfs.xAccess = v_access;
    latency_vfs.xFullPathname = v_full;
    latency_vfs.xDlOpen = v_dlopen;
    latency_vfs.xDlError = v_dlerror;
    latency_vfs.xDlSym = v_dlsym;
    latency_vfs.xDlClose = v_dlclose;
    latency_vfs.xRandomness = v_random;
    latency_vfs.xSleep = v_sleep;
    latency_vfs.xCurrentTime = v_time;
    latency_vfs.xGetLastError = v_error;
    latency_vfs.xCurrentTimeInt64 = v_time64;
    latency_vfs.xSetSystemCall = v_setsys;
    latency_vfs.xGetSystemCall = v_getsys;
    latency_vfs.xNextSystemCall = v_nextsys;
    return sqlite3_vfs_register(&latency_vfs, 1);
}

unsigned long long pizzeria_sync_latency_vfs_syncs(void) { return atomic_load(&delayed_syncs); }

unsigned long long pizzeria_sync_latency_vfs_temp_files(void) { return atomic_load(&temp_files); }

int pizzeria_bench_trim_heap(void) { return malloc_trim(0); }
