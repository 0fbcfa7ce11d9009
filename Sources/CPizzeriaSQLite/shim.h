#ifndef PIZZERIA_SQLITE_SHIM_H
#define PIZZERIA_SQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro around a cast of -1 that Swift cannot import:
// re-expose it as a function so bindings can ask SQLite to copy their bytes.
static inline sqlite3_destructor_type pizzeria_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// sqlite3_db_config is variadic, which Swift cannot call: one fixed-argument wrapper per option
// used. Turns off (or on) the checkpoint SQLite runs when the last connection to a database
// closes; returns SQLITE_OK or an error code.
static inline int pizzeria_sqlite_no_checkpoint_on_close(sqlite3 *db, int off) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, off, (int *)0);
}

// The file system type of a path (statfs is not in Swift's Glibc module): to tell the kernel's
// pseudo-files (/proc, /sys), which claim to be empty regular files, from an empty database.
#include <sys/vfs.h>
static inline long pizzeria_file_system_type(const char *path) {
    struct statfs info;
    return statfs(path, &info) == 0 ? (long)info.f_type : -1;
}
// sqlite3_config is variadic too. Turns SQLite's process-wide memory statistics on or off; only
// before SQLite is initialized (SQLITE_MISUSE after).
static inline int pizzeria_sqlite_memory_statistics(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}

// Marks a connection as Pizzeria's own: the SQL function pizzeria_connection() returns 1 on it
// and exists nowhere else (the sqlite3 shell has none), so a trigger that calls it refuses any
// other client (migration 38: who acts, audit_context, is said only by Pizzeria). Innocuous, so
// triggers may call it whatever trusted_schema says; deterministic.
static void pizzeria_sqlite_connection_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    (void)argv;
    sqlite3_result_int(context, 1);
}
static inline int pizzeria_sqlite_mark_connection(sqlite3 *db) {
    return sqlite3_create_function_v2(
        db, "pizzeria_connection", 0, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, 0,
        pizzeria_sqlite_connection_function, 0, 0, 0);
}
#endif
