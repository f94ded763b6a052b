import RunWayCore
import RunWayHardware

/// Something the board says, with its numbers, before it is put into words in a language
/// (`Phrasebook`). Times are seconds, distances metres, paces seconds per kilometre.
public enum Phrase: Sendable, Equatable {
    case countdown(Int)
    case rotate
    /// A full kilometre: its number, its moving time (s) and its pace (s/km).
    case split(order: Int, time: Double, pace: Double?)
    /// The final partial split, said at touchdown before TOUCHDOWN.
    case lastSplit(metres: Double, time: Double, pace: Double?)
    /// The pace that triggered (s/km) and the mission's target pace.
    case sinkRate(pace: Double?, target: Double)
    case overspeed(pace: Double?, target: Double)
    case minimums(metresToGo: Double)
    /// MINIMUMS of a time goal: moving seconds to go.
    case minimumsTime(secondsToGo: Double)
    /// The heart rate that triggered (bpm, the verdict's average) and the mission's band.
    case heartRateHigh(heartRate: Double?, low: Double, high: Double)
    case heartRateLow(heartRate: Double?, low: Double, high: Double)
    /// The moving time the mission took.
    case missionComplete(time: Double)
    /// `.stopped` (auto-pause) or `.manual`.
    case pause(PauseReason)
    case resume
    case signalLost
    /// The RESUME that ends a signal-lost pause.
    case gpsBack
    /// Metres, moving time, average pace.
    case touchdown(distance: Double, time: Double, pace: Double?)
    /// NOT RECORDED — TOO SHORT.
    case tooShort
    case gpsReady
    /// Each with what to do; battery low and critical are faults too.
    case fault(BoardFault)
    case exportDone
    case exportFailed
    /// On demand; `ahead`: seconds ahead (+) or behind (−) of the mission's target pace at this
    /// distance, nil for a free run.
    case status(distance: Double, time: Double, pace: Double?, ahead: Double?)
    /// The checklist's "can you hear me" line.
    case voiceCheck
    /// Any text (`runway say --text`).
    case text(String)
    /// A paired Bluetooth sensor dropped in flight (said once per drop).
    case sensorLost(Sensor)
    /// A sensor said lost is connected again.
    case sensorBack(Sensor)
    /// PAUSE in preflight chose a run: its place and name ("run two, tempo").
    case runChosen(name: String, position: Int)
    /// Running while manually paused: the reminder to press START.
    case stillPaused
    /// A forgotten stop: standing `minutes`; `landing`: the flight landed at its last movement.
    case standstill(minutes: Int, landing: Bool)
    /// A workout's step began (`index` from 0 of `count`): its kind, length and target.
    case workoutStep(index: Int, count: Int, step: Workout.Step)
    /// The workout's last step is done.
    case workoutComplete
    /// The runner's lap: its number, moving time and pace.
    case lap(number: Int, time: Double, pace: Double?)

    /// A Bluetooth sensor as the runner calls it.
    public enum Sensor: String, Sendable, CaseIterable {
        case heartRateStrap = "heart-rate-strap"
        case footpod
    }

    /// The phrase without its numbers: its name in `runway say` and in logs.
    public enum Kind: String, Sendable, CaseIterable {
        case countdown, rotate, split
        case lastSplit = "last-split"
        case sinkRate = "sink-rate"
        case overspeed, minimums
        case minimumsTime = "minimums-time"
        case heartRateHigh = "hr-high"
        case heartRateLow = "hr-low"
        case missionComplete = "mission-complete"
        case pause, resume
        case signalLost = "signal-lost"
        case gpsBack = "gps-back"
        case touchdown
        case tooShort = "too-short"
        case gpsReady = "gps-ready"
        case fault
        case exportDone = "export-done"
        case exportFailed = "export-failed"
        case status
        case voiceCheck = "voice-check"
        case text
        case sensorLost = "sensor-lost"
        case sensorBack = "sensor-back"
        case stillPaused = "still-paused"
        case runChosen = "run-chosen"
        case standstill
        case workoutStep = "workout-step"
        case workoutComplete = "workout-complete"
        case lap
    }

    public var kind: Kind {
        switch self {
        case .countdown: .countdown
        case .rotate: .rotate
        case .split: .split
        case .lastSplit: .lastSplit
        case .sinkRate: .sinkRate
        case .overspeed: .overspeed
        case .minimums: .minimums
        case .minimumsTime: .minimumsTime
        case .heartRateHigh: .heartRateHigh
        case .heartRateLow: .heartRateLow
        case .missionComplete: .missionComplete
        case .pause: .pause
        case .resume: .resume
        case .signalLost: .signalLost
        case .gpsBack: .gpsBack
        case .touchdown: .touchdown
        case .tooShort: .tooShort
        case .gpsReady: .gpsReady
        case .fault: .fault
        case .exportDone: .exportDone
        case .exportFailed: .exportFailed
        case .status: .status
        case .voiceCheck: .voiceCheck
        case .text: .text
        case .sensorLost: .sensorLost
        case .sensorBack: .sensorBack
        case .stillPaused: .stillPaused
        case .standstill: .standstill
        case .runChosen: .runChosen
        case .workoutStep: .workoutStep
        case .workoutComplete: .workoutComplete
        case .lap: .lap
        }
    }

    /// Whether it may cut another phrase short (`VoiceQueue`).
    public enum Priority: Int, Sendable, Comparable {
        case information, warning

        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
    }

    /// Warning: what the runner must act on now — the GPWS alerts, a lost signal, a fault. A low
    /// battery is information: it asks for a charge after the run, not for anything now.
    public var priority: Priority {
        switch self {
        case .sinkRate, .overspeed, .minimums, .minimumsTime, .heartRateHigh, .heartRateLow, .signalLost:
            .warning
        case .fault(let fault): fault == .batteryLow ? .information : .warning
        default: .information
        }
    }
}

extension Phrase {
    /// `runway say NAME`: every phrase by name — the `Kind` raw values but `text`, and
    /// "fault-<slug>" for each `BoardFault` — with example numbers.
    public static var exampleNames: [String] {
        Kind.allCases.filter { $0 != .text }.map(\.rawValue)
            + BoardFault.allCases.map { "fault-" + slug(for: $0) }
    }

    /// The example phrase for a name of `exampleNames`; nil for any other name.
    public static func example(named name: String) -> Phrase? {
        if name.hasPrefix("fault-") {
            return BoardFault.allCases.first { "fault-" + slug(for: $0) == name }.map { .fault($0) }
        }
        guard let kind = Kind(rawValue: name) else { return nil }
        return example(of: kind)
    }

    /// The fault's name in `runway say fault-<slug>`, as `runway buzz fault-<slug>` takes it.
    public static func slug(for fault: BoardFault) -> String { fault.slug }

    /// The numbers of the demo mission (5 km at 5:30/km): what a runner would hear on it.
    static func example(of kind: Kind) -> Phrase? {
        switch kind {
        case .countdown: .countdown(3)
        case .rotate: .rotate
        case .split: .split(order: 3, time: 338, pace: 338)
        case .lastSplit: .lastSplit(metres: 320, time: 102, pace: 319)
        case .sinkRate: .sinkRate(pace: 370, target: 330)
        case .overspeed: .overspeed(pace: 300, target: 330)
        case .minimums: .minimums(metresToGo: 200)
        case .minimumsTime: .minimumsTime(secondsToGo: 30)
        case .heartRateHigh: .heartRateHigh(heartRate: 162, low: 140, high: 155)
        case .heartRateLow: .heartRateLow(heartRate: 131, low: 140, high: 155)
        case .missionComplete: .missionComplete(time: 1632)
        case .pause: .pause(.stopped)
        case .resume: .resume
        case .signalLost: .signalLost
        case .gpsBack: .gpsBack
        case .touchdown: .touchdown(distance: 5180, time: 1632, pace: 315)
        case .tooShort: .tooShort
        case .gpsReady: .gpsReady
        case .fault: .fault(.barometerMissing)
        case .exportDone: .exportDone
        case .exportFailed: .exportFailed
        case .status: .status(distance: 5200, time: 1620, pace: 330, ahead: 12)
        case .voiceCheck: .voiceCheck
        case .text: nil
        case .sensorLost: .sensorLost(.heartRateStrap)
        case .sensorBack: .sensorBack(.heartRateStrap)
        case .stillPaused: .stillPaused
        case .standstill: .standstill(minutes: 5, landing: false)
        case .runChosen: .runChosen(name: "tempo", position: 3)
        case .workoutStep:
            .workoutStep(
                index: 1, count: 14,
                step: Workout.Step(
                    kind: .work, length: .distance(400),
                    pace: Mission.PaceBand(targetPace: 230, allowedDeviation: 10)))
        case .workoutComplete: .workoutComplete
        case .lap: .lap(number: 2, time: 102, pace: 255)
        }
    }
}
