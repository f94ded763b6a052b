/* RunWay's window onto libgps (gpsd 3.22, API 11). The 24 KB gps_data_t is allocated once here
 * and never crosses into Swift: Swift holds an opaque pointer and reads fixes through
 * rw_gps_read() into a small plain struct. (Waking the reader thread, poll and eventfd, is
 * RunWaySystem's: `Poll`, `WakeSignal`.) */
#ifndef RUNWAY_CGPS_SHIM_H
#define RUNWAY_CGPS_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <gps.h>
#include <sys/select.h>
#include <unistd.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int is_tpv;     /* MODE_SET was set by this read: it was a TPV */
    int is_version; /* VERSION_SET: gpsd's greeting, the proof that the peer is gpsd */
    int mode;       /* 0 unknown, 1 no fix, 2 2D, 3 3D */
    double time;    /* seconds since the Unix epoch, NAN when the TPV had no time */
    double lat, lon, eph, epx, epy, speed, track, alt_msl;  /* NAN when absent */
} rw_gps_report;

/* Opens a session and asks for JSON watching. NULL on failure, with *error set to errno or to
 * libgps's own (negative) netlib code: NL_NOHOST (-2) when the name does not resolve,
 * NL_NOCONNECT (-6) when nothing accepts the connection. */
static inline struct gps_data_t *rw_gps_open(const char *host, const char *port, int *error) {
    struct gps_data_t *data = calloc(1, sizeof *data);
    if (data == NULL) { *error = ENOMEM; return NULL; }
    errno = 0;
    int status = gps_open(host, port, data);
    if (status != 0) {
        *error = errno != 0 ? errno : status;
        free(data);
        return NULL;
    }
    /* libgps's gps_waiting() uses select(2): a descriptor at or above FD_SETSIZE (1024) aborts
     * the whole process in glibc's fortify check ("bit out of range 0 - FD_SETSIZE on fd_set"),
     * as it did once in the test run, whose process held over a thousand files. The session is
     * moved below it if a descriptor there came free meanwhile (the kernel gave the lowest free
     * one), else refused with EMFILE: said, and retried with the client's back-off. */
    if (data->gps_fd >= FD_SETSIZE) {
        int low = fcntl(data->gps_fd, F_DUPFD_CLOEXEC, 3);
        if (low < 0 || low >= FD_SETSIZE) {
            if (low >= 0) close(low);
            *error = EMFILE;
            gps_close(data);
            free(data);
            return NULL;
        }
        close(data->gps_fd);
        data->gps_fd = low;
    }
    if (gps_stream(data, WATCH_ENABLE | WATCH_JSON, NULL) != 0) {
        *error = errno != 0 ? errno : EIO;
        gps_close(data);
        free(data);
        return NULL;
    }
    return data;
}

static inline int rw_gps_fd(const struct gps_data_t *data) { return (int)data->gps_fd; }

/* True when a complete line is already buffered or arrives within timeout_us. */
static inline int rw_gps_waiting(const struct gps_data_t *data, int timeout_us) {
    return gps_waiting(data, timeout_us) ? 1 : 0;
}

static inline double rw_nan_if_unset(double value) { return isfinite(value) ? value : NAN; }

/* Reads one message. Returns -1 when the connection failed or closed, else ≥ 0; `out` describes
 * the message when it was a TPV. */
static inline int rw_gps_read(struct gps_data_t *data, rw_gps_report *out) {
    data->set = 0;
    int status = gps_read(data, NULL, 0);
    if (status < 0) return -1;
    memset(out, 0, sizeof *out);
    out->is_tpv = (data->set & MODE_SET) != 0;
    out->is_version = (data->set & VERSION_SET) != 0;
    if (!out->is_tpv) return status;
    const struct gps_fix_t *fix = &data->fix;
    out->mode = fix->mode;
    out->time = (data->set & TIME_SET) && fix->time.tv_sec > 0
        ? (double)fix->time.tv_sec + (double)fix->time.tv_nsec / 1e9 : NAN;
    out->lat = rw_nan_if_unset(fix->latitude);
    out->lon = rw_nan_if_unset(fix->longitude);
    out->eph = rw_nan_if_unset(fix->eph);
    out->epx = rw_nan_if_unset(fix->epx);
    out->epy = rw_nan_if_unset(fix->epy);
    out->speed = rw_nan_if_unset(fix->speed);
    out->track = rw_nan_if_unset(fix->track);
    out->alt_msl = rw_nan_if_unset(fix->altMSL);
    return status;
}

static inline void rw_gps_close(struct gps_data_t *data) {
    (void)gps_stream(data, WATCH_DISABLE, NULL);
    (void)gps_close(data);
    free(data);
}

#endif
