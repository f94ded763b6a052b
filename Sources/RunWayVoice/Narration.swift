import RunWayCore
import RunWayHardware

/// The one decision of what the runner hears from the engine's outputs: `Annunciation`'s buzzer
/// patterns, names, urgency and order exactly, each with the phrase the voice says and its
/// numbers taken from the outputs — the PFD for an alert's pace, the mission for its target, the
/// landed flight for TOUCHDOWN.
public struct Narration: Sendable {
    private var gpsReadySaid = false
    /// The flight's mission, from `.began`; kept until the next flight begins.
    private var mission: Mission?
    /// The workout step being run, from its `.workoutStep`: its bands are the alerts' targets.
    private var step: Workout.Step?
    /// The newest PFD seen.
    private var pfd: PFD?
    /// The flight is paused because the signal was lost: its RESUME says the GPS is back.
    private var pausedBySignal = false

    public init() {}

    /// The cues for one input's outputs, in order.
    public mutating func cues(for outputs: [EngineOutput]) -> [Cue] {
        let landed = outputs.lazy.compactMap { output -> Flight? in
            if case .ended(.landed(let flight)) = output { flight } else { nil }
        }.first
        // The PFD of this input, for the alerts' pace: the engine appends it after the callouts.
        let state = outputs.lazy.compactMap { output -> PFD? in
            if case .state(let pfd) = output { pfd } else { nil }
        }.last
        var cues: [Cue] = []
        for output in outputs {
            switch output {
            case .callout(let timed):
                cues += self.cues(for: timed, state: state ?? pfd, landed: landed)
            case .state(let pfd):
                self.pfd = pfd
                if let cue = gpsReady(pfd) { cues.append(cue) }
            case .began(_, _, let mission, _, _):
                self.mission = mission
                step = nil
                pausedBySignal = false
            case .ended: break
            }
        }
        return cues
    }

    /// `Annunciation`'s rule: GPS ready once per acquisition (said again only after the signal
    /// was lost), heard in preflight or after a touchdown.
    private mutating func gpsReady(_ pfd: PFD) -> Cue? {
        if pfd.signal == .noSignal {
            gpsReadySaid = false
        } else if pfd.signal.passesChecklist, !gpsReadySaid {
            gpsReadySaid = true
            if pfd.phase == .preflight || pfd.phase == .touchdown {
                return Cue(
                    name: "GPS ready", pattern: .gpsReady, urgent: false, phrase: .gpsReady, time: pfd.time)
            }
        }
        return nil
    }

    private mutating func cues(for timed: TimedCallout, state: PFD?, landed: Flight?) -> [Cue] {
        let callout = timed.callout
        func cue(_ phrase: Phrase?) -> Cue {
            Cue(
                name: callout.text, pattern: .pattern(for: callout), urgent: callout.isUrgent, phrase: phrase,
                time: timed.time)
        }
        let target = step?.pace?.targetPace ?? mission?.targetPace ?? 0
        switch callout {
        case .countdown(let n): return [cue(.countdown(n))]
        case .rotate: return [cue(.rotate)]
        case .split(let order, let pace):
            return [cue(.split(order: order, time: pace ?? 0, pace: pace))]
        case .sinkRate:
            return [cue(.sinkRate(pace: state.flatMap { $0.alertPace ?? $0.pace }, target: target))]
        case .overspeed:
            return [cue(.overspeed(pace: state.flatMap { $0.alertPace ?? $0.pace }, target: target))]
        case .minimums:
            if let duration = mission?.targetDuration {
                return [cue(.minimumsTime(secondsToGo: max(0, duration - (state?.movingTime ?? 0))))]
            }
            let togo = (mission?.targetDistance ?? 0) - (state?.distance ?? 0)
            return [cue(.minimums(metresToGo: max(0, togo)))]
        case .heartRateHigh, .heartRateLow:
            let bpm = state.flatMap { $0.alertHeartRate ?? $0.heartRate }
            let band = step?.heartRate ?? mission?.heartRate ?? Mission.HeartRateBand(low: 0, high: 0)
            let high = callout == .heartRateHigh
            return [
                cue(
                    high
                        ? .heartRateHigh(heartRate: bpm, low: band.low, high: band.high)
                        : .heartRateLow(heartRate: bpm, low: band.low, high: band.high))
            ]
        case .missionComplete: return [cue(.missionComplete(time: state?.movingTime ?? 0))]
        case .pause(let reason):
            pausedBySignal = reason == .signalLost
            return [cue(reason == .signalLost ? .signalLost : .pause(reason))]
        case .signalLost:
            pausedBySignal = true
            return [cue(.signalLost)]
        case .resume:
            defer { pausedBySignal = false }
            // GPS back only with a signal: PAUSE pressed during a signal loss resumes too, and
            // must not say the GPS is back when it is not.
            let signal = state.map { $0.signal != .noSignal } ?? false
            return [cue(pausedBySignal && signal ? .gpsBack : .resume)]
        case .touchdown: return touchdown(timed, state: state, landed: landed)
        case .error:
            // Its pattern only: the engine's errors are the board's faults seen in flight (a
            // barometer lost), whose words the fault's own cue says with what to do; the same
            // words twice would hold up the next callout.
            return [cue(nil)]
        case .stillPaused: return [cue(.stillPaused)]
        case .standstill(let minutes, let landing):
            return [cue(.standstill(minutes: minutes, landing: landing))]
        case .workoutStep(let index, let count, let step):
            self.step = step
            return [cue(.workoutStep(index: index, count: count, step: step))]
        case .workoutComplete:
            step = nil
            return [cue(.workoutComplete)]
        case .lap(let number, let time, let pace): return [cue(.lap(number: number, time: time, pace: pace))]
        }
    }

    /// TOUCHDOWN from the landed flight: its last split first when that was a partial one (speech
    /// only), then the totals; the too-short pattern and words instead when it is not recorded.
    private func touchdown(_ timed: TimedCallout, state: PFD?, landed: Flight?) -> [Cue] {
        if let landed, landed.status == .tooShort {
            return [
                Cue(name: "too short", pattern: .tooShort, urgent: false, phrase: .tooShort, time: timed.time)
            ]
        }
        var cues: [Cue] = []
        if let last = landed?.splits.last, last.distance > 0, last.distance < 1000 {
            let phrase = Phrase.lastSplit(metres: last.distance, time: last.movingDuration, pace: last.pace)
            cues.append(
                Cue(
                    name: "LAST SPLIT \(Int(last.distance.rounded())) M \(Pace.format(last.pace))",
                    pattern: nil,
                    urgent: false, phrase: phrase, time: timed.time))
        }
        let distance = landed?.distance ?? state?.distance ?? 0
        let time = landed?.movingTime ?? state?.movingTime ?? 0
        let pace = landed?.averagePace ?? Pace.secondsPerKilometre(duration: time, distance: distance)
        cues.append(
            Cue(
                name: timed.callout.text, pattern: .pattern(for: timed.callout),
                urgent: timed.callout.isUrgent,
                phrase: .touchdown(distance: distance, time: time, pace: pace), time: timed.time))
        return cues
    }

    /// The on-demand status (START pressed while flying), from the newest PFD and the mission;
    /// nil unless a flight is in the air. `ahead`: the seconds the runner is ahead of the
    /// mission's target pace at this distance.
    public func statusCue(at time: Double) -> Cue? {
        guard let pfd, pfd.phase == .cruise || pfd.phase == .approach else { return nil }
        let ahead = mission?.targetPace.map { $0 * pfd.distance / 1000 - pfd.movingTime }
        let phrase = Phrase.status(distance: pfd.distance, time: pfd.movingTime, pace: pfd.pace, ahead: ahead)
        return Cue(name: "STATUS", pattern: nil, urgent: false, phrase: phrase, time: time)
    }

    /// A board fault: its blink code, urgent (as the annunciator plays it today), and what to do.
    public static func cue(for fault: BoardFault) -> Cue {
        Cue(
            name: fault.rawValue, pattern: BuzzerPattern.pattern(for: fault), urgent: true,
            phrase: .fault(fault))
    }

    /// A USB export's end: done (pull the stick) or failed.
    /// PAUSE in preflight chose a run: as many pips as its place, then a long tone; its name.
    public static func runChosenCue(name: String, position: Int) -> Cue {
        Cue(
            name: "run chosen: \(name)", pattern: .runChosen(position: position), urgent: false,
            phrase: .runChosen(name: name, position: position))
    }

    public static func exportCue(ok: Bool) -> Cue {
        ok
            ? Cue(name: "export done", pattern: .exportDone, urgent: false, phrase: .exportDone)
            : Cue(name: "export failed", pattern: .exportFailed, urgent: false, phrase: .exportFailed)
    }

    /// A paired sensor dropped in flight: its pattern, and its kind by name ("heart rate strap
    /// lost"); information, not a warning: nothing to act on now, so it never cuts a callout.
    public static func sensorLostCue(_ sensor: Phrase.Sensor, name: String) -> Cue {
        Cue(name: "sensor lost: \(name)", pattern: .sensorLost, urgent: false, phrase: .sensorLost(sensor))
    }

    /// A sensor said lost is back: words only ("heart rate strap back").
    public static func sensorBackCue(_ sensor: Phrase.Sensor, name: String) -> Cue {
        Cue(name: "sensor back: \(name)", pattern: nil, urgent: false, phrase: .sensorBack(sensor))
    }

    /// An END hold reached: the buzzer's confirmation beep, nothing said (TOUCHDOWN follows).
    public static let holdConfirmed = Cue(
        name: "END hold confirmed", pattern: .holdConfirmed, urgent: true, phrase: nil)
}
