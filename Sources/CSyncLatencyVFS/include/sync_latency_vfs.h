#ifndef SYNC_LATENCY_VFS_H
#define SYNC_LATENCY_VFS_H

/// Registers, as SQLite's default VFS, one that delegates everything to the previous default and
/// waits `microseconds` before each xSync (the real sync still happens; 0 waits not at all): a
/// model of a device whose flush is slower than this machine's, and a counter of temporary
/// files. For the benchmark only; both sides use it.
/// Returns SQLITE_OK, or SQLite's error code.
int pizzeria_register_sync_latency_vfs(unsigned int microseconds);

/// How many fsync and fdatasync calls have been delayed so far (0 while the latency is 0).
unsigned long long pizzeria_sync_latency_vfs_syncs(void);

/// How many temporary files (statement journals, temp databases, transient tables) SQLite has
/// opened through the VFS so far.
unsigned long long pizzeria_sync_latency_vfs_temp_files(void);

/// Gives the heap's free memory back to the system (glibc's malloc_trim(0)): between the bench's
/// modes, so each mode's peak resident memory is its own. 1 when memory was released.
int pizzeria_bench_trim_heap(void);

#endif
