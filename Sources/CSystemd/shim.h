/* RunWay's window onto libsystemd: the notify protocol (READY, STATUS, WATCHDOG, STOPPING),
 * socket activation, and the journal with structured fields. The variadic sd_journal_send()
 * stays on this side; Swift passes a NULL-terminated array of "FIELD=value" strings.
 *
 * sd-bus (RunWayBluetooth's way to BlueZ) needs no helper here: RunWayBluetooth builds and
 * reads messages with the non-variadic calls only (sd_bus_message_new_method_call,
 * append_basic / open_container / append_array, peek_type / read_basic / enter_container /
 * read_array, sd_bus_call, sd_bus_call_async, sd_bus_add_match), never the variadic
 * sd_bus_message_append / read or sd_bus_call_method, which Swift cannot call. */
#ifndef RUNWAY_CSYSTEMD_SHIM_H
#define RUNWAY_CSYSTEMD_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <string.h>
#include <errno.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-bus.h>

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

/* sd_notify() without ever waiting: systemd's notify socket is a datagram socket whose queue
 * can fill when systemd is slow to read (or a test never reads), and sd_notify's send then
 * blocks. Returns 1 sent, 0 when there is no NOTIFY_SOCKET, or a negative errno (-EAGAIN: the
 * queue is full, nothing sent). "@name" is an abstract socket, as sd_notify reads it. */
static inline int rw_notify_now(const char *state) {
    const char *path = getenv("NOTIFY_SOCKET");
    if (!path || !*path) return 0;
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    size_t length = strlen(path);
    if (length >= sizeof address.sun_path) return -ENAMETOOLONG;
    memcpy(address.sun_path, path, length);
    if (path[0] == '@') address.sun_path[0] = 0;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -errno;
    ssize_t n = sendto(fd, state, strlen(state), MSG_DONTWAIT | MSG_NOSIGNAL, (struct sockaddr *)&address,
                       (socklen_t)(offsetof(struct sockaddr_un, sun_path) + length));
    int error = errno;
    close(fd);
    return n < 0 ? -error : 1;
}

#endif
