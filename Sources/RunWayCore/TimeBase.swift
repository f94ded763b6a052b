/// An instant on the GPS time axis: seconds since the Unix epoch, as gpsd reports a fix's time.
/// The engine's every input is on this axis.
public struct GPSInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var seconds: Double

    public init(seconds: Double) { self.seconds = seconds }

    public static func < (a: GPSInstant, b: GPSInstant) -> Bool { a.seconds < b.seconds }

    public var description: String { UTCTime.format(seconds) }
}

/// An instant of the board's monotonic clock (`CLOCK_MONOTONIC`): seconds since boot. It never
/// jumps and knows nothing of UTC — what the drivers stamp readings and presses with. It becomes
/// a `GPSInstant` only through a `TimeBase`. A value only: Core reads no clock (the board's
/// clock is read on the daemon's side, `MonotonicInstant.now` in RunWayHardware).
public struct MonotonicInstant: Sendable, Hashable, Comparable {
    public var seconds: Double

    public init(seconds: Double) { self.seconds = seconds }

    public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool { a.seconds < b.seconds }
}

/// Maps the monotonic clock onto GPS time, from the fixes: each fix says "GPS time T was current
/// when I arrived at monotonic M", late by gpsd's delivery delay. The offset T − M is refreshed
/// on every fix, so the crystal's drift and a gpsd restart are followed; over a short window
/// the largest offset wins (the least-delayed delivery), so delivery jitter does not shake
/// the mapped times. (gpsd's constant part of the delay — typically ~0.1 s after the epoch — cannot
/// be told from the fixes, so mapped times are that much early: well inside the engine's 1 s
/// resolution.) A jump larger than `resetAfter` (a receiver that corrected its time, a new
/// receiver) starts the window over.
///
/// The board has no RTC and no network on a run: the wall clock may be years off and is never
/// used here. Before the first fix there is no mapping (`gps(_:)` is nil); the daemon holds such
/// inputs (`HeldInputs`) and maps them once the first fix arrives.
public struct TimeBase: Sendable {
    /// Fixes whose offsets are compared (at 1 Hz, half a minute).
    public let window: Int
    public let resetAfter: Double
    private var offsets: [Double] = []
    private var next = 0

    public init(window: Int = 30, resetAfter: Double = 2) {
        self.window = max(1, window)
        self.resetAfter = resetAfter
    }

    /// The current offset (GPS − monotonic), nil before the first fix.
    public var offset: Double? { offsets.max() }

    public var isSet: Bool { !offsets.isEmpty }

    /// A fix with GPS time `gps` arrived at monotonic `arrival`.
    public mutating func observe(fix gps: GPSInstant, arrivedAt arrival: MonotonicInstant) {
        let sample = gps.seconds - arrival.seconds
        guard sample.isFinite else { return }
        if let current = offset, abs(sample - current) > resetAfter {
            offsets.removeAll()
            next = 0
        }
        if offsets.count < window {
            offsets.append(sample)
        } else {
            offsets[next] = sample
            next = (next + 1) % window
        }
    }

    public func gps(_ instant: MonotonicInstant) -> GPSInstant? {
        offset.map { GPSInstant(seconds: instant.seconds + $0) }
    }
}

/// Inputs that arrived before the first fix (a START pressed while the GPS was still looking, a
/// pressure reading), held with their monotonic times and mapped onto GPS time once the time
/// base is set. Bounded: the oldest are dropped beyond `capacity` (a board left on without a fix
/// for hours keeps only the recent past).
public struct HeldInputs: Sendable {
    public enum Kind: Sendable, Equatable {
        case pressure(pascals: Double)
        case start(mission: Mission?, countdown: Bool, workout: Workout? = nil, run: String? = nil)
        case pause
        case resume
        case togglePause
        case barometerLost

        /// A runner's command (START, a pause or resume), not a reading.
        public var isCommand: Bool {
            switch self {
            case .pressure, .barometerLost: false
            case .start, .pause, .resume, .togglePause: true
            }
        }
    }

    public let capacity: Int
    public private(set) var held: [(MonotonicInstant, Kind)] = []
    public private(set) var dropped = 0

    public init(capacity: Int = 600) { self.capacity = capacity }

    public mutating func hold(_ kind: Kind, at instant: MonotonicInstant) {
        if held.count >= capacity {
            held.removeFirst()
            dropped += 1
        }
        held.append((instant, kind))
    }

    /// A STOP or END before the first fix: every held START is called off, with the pauses and
    /// resumes held with it (nothing flies before the first fix, so they belonged to that run);
    /// readings are kept. True when a START was held.
    public mutating func cancelStart() -> Bool {
        guard held.contains(where: { if case .start = $0.1 { true } else { false } }) else { return false }
        held.removeAll { $0.1.isCommand }
        return true
    }

    /// The held inputs on the GPS axis, in time order; empties the hold. Nil (and nothing taken)
    /// while the time base is not set.
    public mutating func release(through base: TimeBase) -> [EngineInput]? {
        guard base.isSet else { return nil }
        defer { held.removeAll() }
        return held.compactMap { instant, kind in
            guard let time = base.gps(instant)?.seconds else { return nil }
            return Self.input(kind, at: time)
        }
    }

    public static func input(_ kind: Kind, at time: Double) -> EngineInput {
        switch kind {
        case .pressure(let pascals): .pressure(PressureSample(time: time, pascals: pascals))
        case .start(let mission, let countdown, let workout, let run):
            .start(at: time, mission: mission, countdown: countdown, workout: workout, run: run)
        case .pause: .pause(at: time)
        case .resume: .resume(at: time)
        case .togglePause: .togglePause(at: time)
        case .barometerLost: .barometerLost(at: time)
        }
    }
}
