/* Linux system calls that glibc's Swift module does not show: renameat2() is declared only
 * under _GNU_SOURCE, so it is reached through syscall(2) here. */
#ifndef RUNWAY_CLINUX_SHIM_H
#define RUNWAY_CLINUX_SHIM_H

#include <unistd.h>
#include <errno.h>
#include <sys/syscall.h>

/* renameat2(2) with RENAME_NOREPLACE: fails with EEXIST instead of replacing `to`; EINVAL where
 * the filesystem does not support the flag. Returns 0 or -1 with errno set. */
static inline int rw_rename_noreplace(int fromdir, const char *from, int todir, const char *to) {
    return (int)syscall(SYS_renameat2, fromdir, from, todir, to, 1u /* RENAME_NOREPLACE */);
}

#endif
