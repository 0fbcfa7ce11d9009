#ifndef PIZZERIA_SQLITE_SHIM_H
#define PIZZERIA_SQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro around a cast of -1 that Swift cannot import:
// re-expose it as a function so bindings can ask SQLite to copy their bytes.
static inline sqlite3_destructor_type pizzeria_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif
