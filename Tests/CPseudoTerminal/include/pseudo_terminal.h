#ifndef PIZZERIA_PSEUDO_TERMINAL_H
#define PIZZERIA_PSEUDO_TERMINAL_H
#include <stddef.h>

/// Opens a pseudo-terminal master, unlocks it and writes the slave's path into `name`.
/// Returns the master's file descriptor, or -1 with errno set.
/// (posix_openpt and friends are not visible to Swift through Glibc, and ioctl is variadic.)
int pizzeria_open_pseudo_terminal(char *name, size_t length);
#endif
