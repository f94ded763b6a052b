import Glibc

/// The board's monotonic clock (`CLOCK_MONOTONIC`): seconds since boot, never jumping. It is
/// the clock the kernel stamps GPIO edge events with, so a button press and a barometer reading
/// are on one axis. RunWayCore reads no clock: its `MonotonicInstant` is a value, and
/// `MonotonicInstant.now` (RunWayHardware) reads it here.
public enum MonotonicClock {
    /// `CLOCK_MONOTONIC` now, in seconds.
    public static var seconds: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
