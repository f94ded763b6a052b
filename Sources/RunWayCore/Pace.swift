/// Pace in seconds per kilometre, from a speed in m/s.
public enum Pace {
    /// Slower than this (≈ 33 min/km) there is no meaningful pace: standing still reads as no
    /// pace rather than as a pace of hours.
    public static let minimumSpeed = 0.5

    /// `nil` when there is no speed — never infinity, never 0.
    public static func secondsPerKilometre(speed: Double?) -> Double? {
        guard let speed, speed.isFinite, speed >= minimumSpeed else { return nil }
        return 1000 / speed
    }

    /// Pace of a finished stretch: `nil` for no distance.
    public static func secondsPerKilometre(duration: Double, distance: Double) -> Double? {
        guard distance > 0, duration.isFinite, duration > 0 else { return nil }
        return duration / (distance / 1000)
    }

    /// "5:30" for 330 s/km; "--:--" for no pace, or one past a day per km (a value from outside,
    /// e.g. a damaged stored mission, that would trap an Int conversion).
    public static func format(_ secondsPerKm: Double?) -> String {
        guard let secondsPerKm, abs(secondsPerKm) <= 86_400 else { return "--:--" }
        let total = Int(secondsPerKm.rounded())
        let seconds = total % 60
        return "\(total / 60):\(seconds < 10 ? "0" : "")\(seconds)"
    }
}
