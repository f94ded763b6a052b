/* RunWay's window onto libsystemd: the notify protocol (READY, STATUS, WATCHDOG, STOPPING),
 * socket activation, and the journal with structured fields. The variadic sd_journal_send()
 * stays on this side; Swift passes a NULL-terminated array of "FIELD=value" strings. */
#ifndef RUNWAY_CSYSTEMD_SHIM_H
#define RUNWAY_CSYSTEMD_SHIM_H

#include <stdint.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <string.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

/* Sends "FIELD=value" strings to the journal; returns 0 or a negative errno. */
static inline int rw_journal_send(const char *const *fields, int count) {
    struct iovec iov[16];
    if (count > 16) count = 16;
    for (int i = 0; i < count; i++) {
        iov[i].iov_base = (void *)fields[i];
        iov[i].iov_len = strlen(fields[i]);
    }
    return sd_journal_sendv(iov, count);
}

/* The watchdog interval in microseconds when systemd asks for pings, else 0. */
static inline uint64_t rw_watchdog_usec(void) {
    uint64_t usec = 0;
    return sd_watchdog_enabled(0, &usec) > 0 ? usec : 0;
}

#endif
