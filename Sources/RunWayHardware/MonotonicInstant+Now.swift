import RunWayCore
import RunWaySystem

extension MonotonicInstant {
    /// `CLOCK_MONOTONIC` now (`MonotonicClock`): the clock the kernel stamps GPIO edge events
    /// with, so a button press and a barometer reading are on one axis. Here, not in RunWayCore,
    /// which reads no clock: the drivers stamp their readings with it, and the daemon and the
    /// CLI, which import the drivers, read it through them.
    public static var now: MonotonicInstant { MonotonicInstant(seconds: MonotonicClock.seconds) }
}
