/// Where a flight is in its life (SPEC vocabulary).
public enum FlightPhase: String, Sendable, Equatable {
    case preflight
    /// The 3-2-1 countdown after START.
    case takeoff
    case cruise
    /// Mission only: within 50 m of the target distance.
    case approach
    case touchdown

    /// A flight's clock is running: from the countdown to TOUCHDOWN.
    public var isInFlight: Bool { self == .takeoff || self == .cruise || self == .approach }
}

/// The takeoff countdown: "3" at the start press, "2", "1", then ROTATE three seconds later,
/// which is the instant the flight begins. Driven by event times, never by a timer.
public struct TakeoffCountdown: Sendable, Equatable {
    public let pressedAt: Double
    public let from: Int
    private var nextIndex = 0

    public init(pressedAt: Double, from: Int = 3) {
        self.pressedAt = pressedAt
        self.from = from
    }

    public var rotateAt: Double { pressedAt + Double(from) }

    /// Counts (3, 2, 1) whose moment has come by `now`, in order.
    public mutating func counts(upTo now: Double) -> [Int] {
        var due: [Int] = []
        while nextIndex < from, pressedAt + Double(nextIndex) <= now {
            due.append(from - nextIndex)
            nextIndex += 1
        }
        return due
    }
}
