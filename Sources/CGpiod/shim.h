/* RunWay's window onto libgpiod v1 (Debian 12: 1.6.3). Chips and lines stay opaque pointers in
 * Swift; events come back as (offset-free) timestamps in seconds of CLOCK_MONOTONIC. */
#ifndef RUNWAY_CGPIOD_SHIM_H
#define RUNWAY_CGPIOD_SHIM_H

#include <errno.h>
#include <gpiod.h>
#include <time.h>

/* A button line: both edges, pull-up, active-low as configured. Returns the event fd or -errno. */
static inline int rw_gpiod_request_button(struct gpiod_line *line, const char *consumer, int active_low) {
    int flags = GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP | (active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0);
    if (gpiod_line_request_both_edges_events_flags(line, consumer, flags) < 0) return -errno;
    return gpiod_line_event_get_fd(line);
}

/* Reads up to `capacity` pending events from `fd`; fills their times (seconds). Returns the count
 * or -errno. */
static inline int rw_gpiod_read_events(int fd, double *times, unsigned int capacity) {
    struct gpiod_line_event events[16];
    if (capacity > 16) capacity = 16;
    int n = gpiod_line_event_read_fd_multiple(fd, events, capacity);
    if (n < 0) return -errno;
    for (int i = 0; i < n; i++) times[i] = (double)events[i].ts.tv_sec + (double)events[i].ts.tv_nsec / 1e9;
    return n;
}

static inline int rw_gpiod_request_output(struct gpiod_line *line, const char *consumer) {
    return gpiod_line_request_output(line, consumer, 0) < 0 ? -errno : 0;
}

#endif
