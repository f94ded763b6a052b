/* The Linux system interface that glibc's Swift module does not show, for RunWaySystem (the one
 * system layer): calls declared only under _GNU_SOURCE (renameat2, strerrorname_np), per-
 * architecture constants taken from the C headers (so an arm64 build gets arm64's values, never a
 * number written down in Swift), and the headers for eventfd and poll. */
#ifndef RUNWAY_CLINUX_SHIM_H
#define RUNWAY_CLINUX_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* renameat2(2) with RENAME_NOREPLACE: fails with EEXIST instead of replacing `to`; EINVAL where
 * the filesystem does not support the flag. Returns 0 or -1 with errno set. */
static inline int rw_rename_noreplace(int fromdir, const char *from, int todir, const char *to) {
    return (int)syscall(SYS_renameat2, fromdir, from, todir, to, 1u /* RENAME_NOREPLACE */);
}

/* O_DIRECT as this architecture's headers define it (040000 on x86_64, 0200000 on arm64 and
 * arm). glibc shows O_DIRECT only under _GNU_SOURCE, which the Swift module is not built with,
 * but defines its value, __O_DIRECT, in the architecture's own bits/fcntl.h either way. */
static inline int rw_o_direct(void) {
#if defined(O_DIRECT)
    return O_DIRECT;
#else
    return __O_DIRECT;
#endif
}

/* The symbolic name of an errno value ("ENOSPC"), NULL for a number glibc does not know (or a
 * C library without strerrorname_np, glibc before 2.32). string.h declares it only under
 * _GNU_SOURCE; the declaration here is the same one. */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
extern const char *strerrorname_np(int errnum);
static inline const char *rw_errno_name(int code) { return strerrorname_np(code); }
#else
static inline const char *rw_errno_name(int code) { (void)code; return NULL; }
#endif

#endif
