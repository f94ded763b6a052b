import RunWayCore

/// Positions along a straight line eastwards from a fixed origin, for hand-built traces.
struct Track {
    static let origin = Coordinate(latitude: 37.5, longitude: 127.0)
    static let projection = LocalProjection(origin: origin)
    static let t0 = 1_800_000_000.0

    static func coordinate(east: Double, north: Double = 0) -> Coordinate {
        projection.coordinate(east: east, north: north)
    }

    /// A fix `seconds` after t0 at `east` metres, with the given speed.
    static func fix(
        _ seconds: Double, east: Double, north: Double = 0, speed: Double? = nil, accuracy: Double? = 8,
        mode: Int = 3
    ) -> Fix {
        Fix(
            time: t0 + seconds, coordinate: coordinate(east: east, north: north),
            horizontalAccuracy: accuracy,
            speed: speed, track: nil, altitude: nil, mode: mode)
    }
}

extension FlightComputer {
    /// Starts without a countdown at `Track.t0 + seconds`.
    mutating func rotate(at seconds: Double = 0, mission: Mission? = nil) {
        _ = handle(.start(at: Track.t0 + seconds, mission: mission, countdown: false))
    }

    /// Runs east at `speed` m/s with a fix every `interval` s from `from` to `to` seconds,
    /// starting at `startEast` metres. Returns the callouts.
    @discardableResult
    mutating func run(
        speed: Double, from: Double, to: Double, interval: Double = 1, startEast: Double = 0,
        reportSpeed: Bool = true
    ) -> [Callout] {
        var callouts: [Callout] = []
        var t = from
        while t <= to + 1e-9 {
            let east = startEast + speed * (t - from)
            for output in handle(.fix(Track.fix(t, east: east, speed: reportSpeed ? speed : nil))) {
                if case .callout(let c) = output { callouts.append(c.callout) }
            }
            t += interval
        }
        return callouts
    }

    mutating func land() -> Flight? { end(sentAt: nil).result.flight }
}

func callouts(_ outputs: [EngineOutput]) -> [Callout] {
    outputs.compactMap { if case .callout(let c) = $0 { c.callout } else { nil } }
}
