/// A forgotten stop (issue 27: a flight left open for hours after the runner got home). A pure
/// rule over time while the flight is paused: after `remindAfter` seconds of standstill it
/// reminds the runner (again every `remindEvery`), and after `landAfter` (the runner may turn it
/// off) the flight lands at its last movement.
public struct StandstillWatch: Sendable, Equatable {
    public struct Configuration: Sendable, Equatable {
        /// Five minutes: longer than any traffic light or drink stop, short enough that a runner
        /// who walked home hears it before the shower.
        public var remindAfter = 300.0
        public var remindEvery = 600.0
        /// Thirty minutes (a long café stop on a long run is longer: such a runner turns it off
        /// or up); nil: never land by itself.
        public var landAfter: Double? = 1800

        public init() {}
    }

    public enum Decision: Sendable, Equatable {
        /// Standing for `seconds` (the `count`th reminder).
        case remind(seconds: Double, count: Int)
        /// Land the flight at `lastMovement`, standing since then for `seconds`.
        case land(lastMovement: Double, seconds: Double)
    }

    /// Seconds between two observations that count as standing at most: live, something comes
    /// every second, and a replay ticks through gaps; a longer step is the clock jumping (a
    /// receiver's time corrected), not an hour of standing.
    public static let maximumStep = 60.0

    public let configuration: Configuration
    private var pausedSince: Double?
    private var lastObserved = 0.0
    /// Seconds of standing observed since the pause began.
    public private(set) var standing = 0.0
    private var reminders = 0
    private var nextReminder = 0.0
    private var landed = false

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Time passes while the flight is paused since `pausedSince` (nil: not paused, and the
    /// watch starts over); a landing lands at `landAt` (the pause's start when nil: a vehicle's
    /// pause counts its standing from the car's last movement, and lands where the running
    /// ended).
    public mutating func observe(time: Double, pausedSince: Double?, landAt: Double? = nil) -> Decision? {
        guard let since = pausedSince else {
            self.pausedSince = nil
            return nil
        }
        if self.pausedSince != since {
            self.pausedSince = since
            lastObserved = since
            standing = 0
            nextReminder = configuration.remindAfter
            landed = false
        }
        if time > lastObserved {
            standing += min(time - lastObserved, Self.maximumStep)
            lastObserved = time
        }
        guard !landed else { return nil }
        if let after = configuration.landAfter, standing >= after {
            landed = true
            return .land(lastMovement: min(landAt ?? since, since), seconds: standing)
        }
        guard standing >= nextReminder else { return nil }
        reminders += 1
        nextReminder = standing + configuration.remindEvery
        return .remind(seconds: standing, count: reminders)
    }
}
