import RunWayCore

/// A buzzer pattern: alternating on and off durations in seconds, starting with on.
public struct BuzzerPattern: Sendable, Equatable {
    public var steps: [Double]

    public init(_ milliseconds: [Int]) {
        steps = milliseconds.map { Double($0) / 1000 }
    }

    public var duration: Double { steps.reduce(0, +) }

    /// Every callout's pattern; each is distinct, so a runner can learn them (README table).
    public static func pattern(for callout: Callout) -> BuzzerPattern {
        switch callout {
        case .countdown: BuzzerPattern([120])
        case .rotate: BuzzerPattern([700])
        case .split: BuzzerPattern([100, 100, 100])
        case .sinkRate: BuzzerPattern([400, 200, 400, 200, 400])
        case .overspeed: BuzzerPattern([60, 60, 60, 60, 60, 60, 60, 60, 60])
        case .minimums: BuzzerPattern([250, 100, 250, 500, 250, 100, 250])
        // A heartbeat's lub-dub: quick then heavy for HIGH, heavy then quick for LOW.
        case .heartRateHigh: BuzzerPattern([100, 100, 300, 500, 100, 100, 300])
        case .heartRateLow: BuzzerPattern([300, 100, 100, 500, 300, 100, 100])
        case .missionComplete: BuzzerPattern([150, 100, 150, 100, 150, 250, 900])
        case .pause: BuzzerPattern([400, 150, 100])
        case .resume: BuzzerPattern([100, 150, 400])
        case .signalLost: BuzzerPattern([120, 400, 120, 400, 120, 400, 120])
        case .touchdown: BuzzerPattern([600, 200, 300, 200, 150])
        case .error: BuzzerPattern([50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 800])
        // PAUSE's falling pair three times (twice is HR LOW): still paused while the runner runs.
        case .stillPaused: BuzzerPattern([400, 150, 100, 500, 400, 150, 100, 500, 400, 150, 100])
        // A long tone, then two pips: a forgotten stop (landing or not, TOUCHDOWN follows a landing).
        case .standstill: BuzzerPattern([800, 300, 150, 300, 150])
        // Two mediums and a long "go": the next step of a workout begins.
        case .workoutStep: BuzzerPattern([200, 100, 200, 100, 700])
        // MISSION COMPLETE's fanfare with a fourth pip: the workout's last step is done.
        case .workoutComplete: BuzzerPattern([150, 100, 150, 100, 150, 100, 150, 250, 900])
        // A medium then two pips, evenly: the lap pressed (a split's three pips are even and short).
        case .lap: BuzzerPattern([300, 100, 100, 100, 100])
        }
    }

    /// The confirmation beep when a hold reaches END.
    public static let holdConfirmed = BuzzerPattern([300])

    /// In preflight, the GPS has a fix good enough to start on (STRONG or GOOD): two tiny pips
    /// and a medium one, told apart from a split's two pips (it was 80 · 80 · 80, a split's rhythm).
    public static let gpsReady = BuzzerPattern([80, 80, 80, 80, 400])

    /// END landed a flight under 100 m: not recorded (instead of TOUCHDOWN).
    public static let tooShort = BuzzerPattern([900, 200, 900])

    /// A USB export finished and the stick was unmounted: it can be pulled. A long tone then three
    /// pips (four tiny pips, as before, were OVERSPEED's rattle at a slower beat).
    public static let exportDone = BuzzerPattern([500, 150, 80, 80, 80, 80, 80])

    /// A USB export failed (`journalctl -u 'runway-export@*'` says why).
    public static let exportFailed = BuzzerPattern([50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 450, 1200])

    /// PAUSE in preflight chose the `position`th run: that many pips, then a long tone (six at
    /// most: past that the voice says which).
    public static func runChosen(position: Int) -> BuzzerPattern {
        var steps: [Int] = []
        for _ in 0..<min(max(position, 1), 6) { steps += [100, 300] }
        return BuzzerPattern(steps + [600])
    }

    /// A paired Bluetooth sensor (heart-rate strap, footpod) dropped in flight: a medium tone
    /// falling away into two pips, said once per drop. Its return has no pattern (the voice says
    /// it): nothing for the runner to do either way, and a buzzer-only board stays quiet.
    public static let sensorLost = BuzzerPattern([400, 300, 100, 300, 100])

    /// Every pattern the board can play, by `runway buzz` name: each callout's, the other sounds
    /// and each fault's (`fault-` and the fault's name, e.g. `fault-barometer-missing`).
    public static let named: [(name: String, pattern: BuzzerPattern, urgent: Bool)] = {
        let callouts: [(String, Callout)] = [
            ("countdown", .countdown(3)), ("rotate", .rotate), ("split", .split(order: 1, pace: nil)),
            ("sink-rate", .sinkRate), ("overspeed", .overspeed), ("minimums", .minimums),
            ("hr-high", .heartRateHigh), ("hr-low", .heartRateLow),
            ("mission-complete", .missionComplete),
            ("pause", .pause(.manual)), ("resume", .resume), ("signal-lost", .signalLost),
            ("touchdown", .touchdown), ("error", .error("test")), ("still-paused", .stillPaused),
            ("standstill", .standstill(minutes: 5, landing: false)),
            (
                "workout-step",
                .workoutStep(index: 0, of: 1, Workout.Step(kind: .work, length: .distance(400)))
            ),
            ("workout-complete", .workoutComplete), ("lap", .lap(number: 2, time: 100, pace: 250)),
        ]
        var named = callouts.map { ($0.0, pattern(for: $0.1), $0.1.isUrgent) }
        named += [
            ("gps-ready", gpsReady, false), ("too-short", tooShort, false),
            ("hold-confirmed", holdConfirmed, true),
            ("export-done", exportDone, false), ("export-failed", exportFailed, false),
            ("sensor-lost", sensorLost, false), ("run-chosen", runChosen(position: 2), false),
        ]
        named += BoardFault.allCases.map { ("fault-\($0.slug)", pattern(for: $0), true) }
        return named
    }()

    /// What the pattern sounds like as a rhythm a runner tells apart: each tone short (≤ 150 ms),
    /// medium (≤ 450 ms) or long, each silence short (≤ 150 ms) or long. Two patterns with the same
    /// rhythm sound alike through a buzzer's one pitch, whatever their exact milliseconds.
    public var rhythm: String {
        steps.enumerated().map { index, seconds in
            index % 2 == 0
                ? (seconds <= 0.15 ? "." : seconds <= 0.45 ? "-" : "=") : (seconds <= 0.15 ? "" : " ")
        }.joined()
    }

    /// A fault the runner must hear about: the error pattern's rapid burst, then the fault's
    /// number in long beeps, as a blink code (README table).
    public static func pattern(for fault: BoardFault) -> BuzzerPattern {
        // Steps alternate on, off: six 50 ms chirps, a 450 ms gap, then `number` beeps of 400 ms
        // 250 ms apart.
        var steps = Array(repeating: 50, count: 11) + [450]
        for k in 0..<fault.number { steps += k == 0 ? [400] : [250, 400] }
        return BuzzerPattern(steps)
    }
}

/// The faults a runner must hear about (SPEC, "Faults the runner must hear about"), each with its
/// own pattern and a log line; each is said once per occurrence, not on every retry.
public enum BoardFault: String, Sendable, CaseIterable {
    case gpsdUnreachable = "gpsd unreachable"
    case noFixForLong = "no GPS fix for long"
    case barometerMissing = "barometer missing"
    case storage = "storage full or failing"
    case batteryLow = "battery low"
    case batteryCritical = "battery critical"
    /// The voice's ALSA device is missing, busy or failed: the buzzer alone tells the runner.
    case audio = "audio device missing or failing"

    /// The count of long beeps after the burst.
    public var number: Int { Self.allCases.firstIndex(of: self)! + 1 }

    /// The name in `runway buzz fault-…` and `runway say fault-…`: "barometer-missing".
    public var slug: String {
        switch self {
        case .gpsdUnreachable: "gpsd-unreachable"
        case .noFixForLong: "no-fix"
        case .barometerMissing: "barometer-missing"
        case .storage: "storage"
        case .batteryLow: "battery-low"
        case .batteryCritical: "battery-critical"
        case .audio: "audio"
        }
    }
}

/// Plays patterns on a buzzer without blocking: it says which level the line should have and
/// when it next changes; the driver sleeps until then. An urgent callout (SINK RATE, OVERSPEED,
/// MINIMUMS, signal lost) pre-empts a split or countdown beep that is playing; anything else waits
/// its turn.
public struct PatternPlayer: Sendable {
    /// Silence between one pattern's end and the next queued one's start: every pattern ends on
    /// a tone, so without it the next one's first tone joined it (an END hold's 300 ms beep and
    /// TOUCHDOWN's 600 ms tone sounded as one 900 ms tone, found by the board test). 400 ms is
    /// longer than any gap inside a pattern but the fault codes' 450 ms, so it reads as "next".
    public static let gapBetweenPatterns = 0.4

    private var queue: [(pattern: BuzzerPattern, urgent: Bool)] = []
    private var current: (pattern: BuzzerPattern, urgent: Bool, start: Double, step: Int)?
    /// When the next queued pattern may start, while the gap after the last one runs.
    private var quietUntil: Double?
    public private(set) var isOn = false

    public init() {}

    /// Queues a pattern; afterwards the line should be `isOn`.
    public mutating func play(_ pattern: BuzzerPattern, urgent: Bool, at time: Double) {
        if urgent, let playing = current, !playing.urgent {
            current = nil  // the split or countdown beep is cut short, not resumed
            queue.insert((pattern, urgent), at: 0)
        } else if urgent {
            let firstNormal = queue.firstIndex { !$0.urgent } ?? queue.endIndex
            queue.insert((pattern, urgent), at: firstNormal)
        } else {
            queue.append((pattern, urgent))
        }
        if current == nil, quietUntil == nil { startNext(at: time) }
    }

    public mutating func play(_ callout: Callout, at time: Double) {
        play(BuzzerPattern.pattern(for: callout), urgent: callout.isUrgent, at: time)
    }

    /// When the line next changes, if anything is playing.
    public var nextChange: Double? {
        guard let current else { return quietUntil }
        return current.start + current.pattern.steps.prefix(current.step + 1).reduce(0, +)
    }

    /// Level changes due by `time`, in order: (time, on).
    public mutating func advance(to time: Double) -> [(time: Double, on: Bool)] {
        var changes: [(Double, Bool)] = []
        while let due = nextChange, due <= time {
            guard var playing = current else {
                // The gap after a pattern is over.
                quietUntil = nil
                changes += startNext(at: due)
                continue
            }
            playing.step += 1
            if playing.step >= playing.pattern.steps.count {
                current = nil
                if isOn { changes.append((due, false)) }
                isOn = false
                if !queue.isEmpty { quietUntil = due + Self.gapBetweenPatterns }
            } else {
                current = playing
                isOn = playing.step % 2 == 0
                changes.append((due, isOn))
            }
        }
        return changes
    }

    @discardableResult
    private mutating func startNext(at time: Double) -> [(time: Double, on: Bool)] {
        guard !queue.isEmpty else {
            return []
        }
        let next = queue.removeFirst()
        current = (next.pattern, next.urgent, time, 0)
        isOn = true
        return [(time, true)]
    }
}
