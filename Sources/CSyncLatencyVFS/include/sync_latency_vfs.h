#ifndef SYNC_LATENCY_VFS_H
#define SYNC_LATENCY_VFS_H

/// Registers, as SQLite's default VFS, one that delegates everything to the previous default and
/// waits `microseconds` before each xSync (the real sync still happens): a model of a device
/// whose flush is slower than this machine's. For the benchmark only; both sides use it.
/// Returns SQLITE_OK, or SQLite's error code.
int pizzeria_register_sync_latency_vfs(unsigned int microseconds);

/// How many xSync calls the VFS has delayed so far.
unsigned long long pizzeria_sync_latency_vfs_syncs(void);

#endif
