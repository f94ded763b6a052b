import RunWayCore
import RunWayHardware

/// The English phrase table: short clauses separated by commas (a comma is a pause in speech),
/// every number in words.
struct EnglishPhrases {
    /// The unit distances and paces are said in (`DistanceUnit`).
    var unit = DistanceUnit.kilometre

    func text(_ phrase: Phrase) -> String {
        switch phrase {
        case .countdown(let n): EnglishNumbers.words(n)
        case .rotate: "rotate"
        case .split(let order, let time, let pace):
            // A full kilometre's time is its pace: said once.
            Self.clauses(
                unitName + " " + EnglishNumbers.words(order), pace.flatMap(self.pace) ?? Self.paceWords(time))
        case .lastSplit(let metres, let time, let pace):
            Self.clauses(
                "last " + distanceWords(metres), Self.duration(time, clock: true),
                pace.flatMap(self.pace).map { "pace " + $0 })
        case .sinkRate(let pace, let target): alert("sink rate", "too slow", pace, target)
        case .overspeed(let pace, let target): alert("overspeed", "too fast", pace, target)
        case .minimums(let metres): Self.clauses("minimums", Self.distance(max(0, metres)) + " to go")
        case .minimumsTime(let seconds): Self.clauses("minimums", Self.duration(max(0, seconds)) + " to go")
        case .heartRateHigh(let bpm, let low, let high): Self.heartRate("heart rate high", bpm, low, high)
        case .heartRateLow(let bpm, let low, let high): Self.heartRate("heart rate low", bpm, low, high)
        case .missionComplete(let time): Self.clauses("mission complete", Self.duration(time))
        case .pause(let reason): Self.pause(reason)
        case .resume: "resume"
        case .signalLost: Self.signalLost
        case .gpsBack: "GPS back, resume"
        case .touchdown(let metres, let time, let pace):
            Self.clauses(
                "touchdown", distanceWords(metres), Self.duration(time),
                pace.flatMap(self.pace).map { "average pace " + $0 })
        case .tooShort: "not recorded, too short"
        case .gpsReady: "GPS ready"
        case .fault(let fault): Self.fault(fault)
        // "export done" was heard as "exports and" (issue 24's recogniser test).
        case .exportDone: "export finished, pull the stick"
        case .exportFailed: "export failed, the runs stay on the board"
        case .status(let metres, let time, let pace, let ahead):
            Self.clauses(
                distanceWords(metres), Self.duration(time), pace.flatMap(self.pace).map { "pace " + $0 },
                ahead.flatMap(Self.versus))
        case .voiceCheck: "voice check, can you hear me"
        case .text(let text): text
        case .sensorLost(let sensor): Self.sensorName(sensor) + " lost"
        case .sensorBack(let sensor): Self.sensorName(sensor) + " back"
        case .stillPaused: "still paused, press start to run on"
        case .runChosen(let name, let position): Self.clauses("run " + EnglishNumbers.words(position), name)
        case .standstill(let minutes, let landing):
            Self.clauses(
                "stopped for " + Self.count(minutes, "minute"), landing ? "run ended" : "hold end to finish")
        case .workoutStep(let index, let count, let step): workoutStep(index, count, step)
        case .workoutComplete: "workout complete"
        case .lap(let number, let time, let pace):
            Self.clauses(
                "lap " + EnglishNumbers.words(number), Self.duration(time, clock: true),
                pace.flatMap(self.pace).map { "pace " + $0 })
        }
    }

    /// "step two of fourteen, work, four hundred meters, pace three fifty": where the runner
    /// is in the workout, what to run and how fast (a heart-rate band as its two edges).
    func workoutStep(_ index: Int, _ count: Int, _ step: Workout.Step) -> String {
        let kind: String =
            switch step.kind {
            case .warmup: "warm up"
            case .work: "work"
            case .recover: "recover"
            case .cooldown: "cool down"
            case .run: "run"
            case .walk: "walk"
            }
        let length: String =
            switch step.length {
            case .distance(let metres): distanceWords(metres)
            case .duration(let seconds): Self.duration(seconds)
            }
        return Self.clauses(
            "step " + EnglishNumbers.words(index + 1) + " of " + EnglishNumbers.words(count), kind, length,
            step.pace.flatMap { pace($0.targetPace) }.map { "pace " + $0 },
            step.heartRate.map {
                "heart rate " + EnglishNumbers.words(Int($0.low.rounded())) + " to "
                    + EnglishNumbers.words(Int($0.high.rounded()))
            })
    }

    static func sensorName(_ sensor: Phrase.Sensor) -> String {
        switch sensor {
        case .heartRateStrap: "heart rate strap"
        case .footpod: "footpod"
        }
    }

    static func clauses(_ parts: String?...) -> String { parts.compactMap { $0 }.joined(separator: ", ") }

    /// "sink rate, too slow, six ten for five thirty": the alert's name, what it means in plain
    /// words, and the pace against the target ("target five thirty" when there is no pace). The
    /// recogniser of issue 24 heard "sink rate" as "so inbred" every time and "pace" and
    /// "target" as "basic" and "carpet"; "too slow", the numbers and "for" it heard.
    func alert(_ name: String, _ meaning: String, _ pace: Double?, _ target: Double) -> String {
        let target = self.pace(target)
        guard let pace = pace.flatMap(self.pace) else {
            return Self.clauses(name, meaning, target.map { "target " + $0 })
        }
        return Self.clauses(name, meaning, pace + (target.map { " for " + $0 } ?? ""))
    }

    /// "heart rate high, one sixty-two, zone one forty to one fifty-five": the alert, the heart
    /// rate judged (left out when there is none) and the band.
    static func heartRate(_ name: String, _ bpm: Double?, _ low: Double, _ high: Double) -> String {
        clauses(
            name, bpm.flatMap(beats), beats(low).flatMap { l in beats(high).map { "zone \(l) to \($0)" } })
    }

    /// A heart rate as a runner says it: 162 → "one sixty-two", 105 → "one oh five", 100 → "one
    /// hundred", 95 → "ninety-five"; nil for a broken value.
    static func beats(_ bpm: Double) -> String? {
        guard let n = SpokenNumber.whole(bpm), n > 0 else { return nil }
        guard (100..<1000).contains(n) else { return EnglishNumbers.words(n) }
        let rest = n % 100
        let tail =
            rest == 0
            ? "hundred" : rest < 10 ? "oh " + EnglishNumbers.words(rest) : EnglishNumbers.words(rest)
        return EnglishNumbers.words(n / 100) + " " + tail
    }

    /// "GPS lost", not "GPS signal lost": "signal lost" was heard as "signal also" or "signal most".
    static let signalLost = "GPS lost, paused"

    static func pause(_ reason: PauseReason) -> String {
        switch reason {
        // flite kal16's "pause" is heard as "balls" or "follows" however it is put ("auto
        // pause", "paused", "pause", "the run is paused"); "you stopped, run on hold" was heard.
        case .stopped: "you stopped, run on hold"
        case .manual: "paused"
        case .signalLost: signalLost
        case .vehicle: "vehicle, run on hold"
        }
    }

    /// What to do about each fault (README, "The faults a runner must hear about").
    static func fault(_ fault: BoardFault) -> String {
        switch fault {
        case .gpsdUnreachable: "GPS service not answering, still trying"
        case .noFixForLong: "no GPS fix for long, move to open sky"
        case .barometerMissing: "barometer lost, the run goes on without altitude"
        case .storage: "storage failing, recording paused, it resumes by itself"
        case .batteryLow: "battery low, charge after this run"
        case .batteryCritical: "battery critical, the run is saved, charge now"
        case .audio: "audio device failing, the buzzer tells you from now on"
        }
    }

    /// The unit's name: "kilometer" (American spelling: flite reads "kilometre" badly) or "mile".
    var unitName: String { unit == .kilometre ? "kilometer" : "mile" }

    /// A pace (seconds per kilometre) said per the runner's unit.
    func pace(_ secondsPerKm: Double?) -> String? { Self.paceWords(secondsPerKm.map(unit.pace)) }

    /// A distance in the runner's unit (`distance`).
    func distanceWords(_ metres: Double) -> String { Self.distance(metres, in: unit) }

    /// A pace as a runner says it: 338 → "five thirty-eight", 305 → "five oh five", 300 →
    /// "five flat"; nil for no pace worth saying.
    static func paceWords(_ secondsPerKm: Double?) -> String? {
        guard let total = SpokenNumber.pace(secondsPerKm) else { return nil }
        let minutes = EnglishNumbers.words(total / 60)
        let seconds = total % 60
        if seconds == 0 { return minutes + " flat" }
        return minutes + (seconds < 10 ? " oh " : " ") + EnglishNumbers.words(seconds)
    }

    /// "twenty-seven minutes twelve seconds", "one hour four minutes" (past an hour the seconds
    /// are rounded away: nobody acts on them); `clock`: the seconds without their unit after
    /// minutes ("one minute forty-two"), the way a split's time is read off a watch.
    static func duration(_ time: Double, clock: Bool = false) -> String {
        let total = SpokenNumber.seconds(time)
        if total >= 3600 {
            let minutesTotal = (total + 30) / 60
            return joined(
                count(minutesTotal / 60, "hour"),
                minutesTotal % 60 > 0 ? count(minutesTotal % 60, "minute") : nil)
        }
        let minutes = total / 60
        let seconds = total % 60
        if minutes == 0 { return count(seconds, "second") }
        guard seconds > 0 else { return count(minutes, "minute") }
        return joined(
            count(minutes, "minute"), clock ? EnglishNumbers.words(seconds) : count(seconds, "second"))
    }

    /// 5180 m → "five point one eight kilometers" (two decimals, a trailing zero dropped), under
    /// a kilometre in metres: "eight hundred meters"; in miles "three point two two miles", under
    /// a mile in metres too. American spelling because it is what the
    /// synthesiser reads: flite says British "kilometre" and "metres" as "guillaume for" and
    /// "letters" to a recogniser (listening test, issue 24: 31 % → 26 % word errors).
    static func distance(_ metres: Double, in unit: DistanceUnit = .kilometre) -> String {
        guard let centi = SpokenNumber.centikilometres(metres * 1000 / unit.metres) else {
            return count(max(0, SpokenNumber.whole(metres) ?? 0), "meter")
        }
        let (one, many) = unit == .kilometre ? ("kilometer", "kilometers") : ("mile", "miles")
        let whole = EnglishNumbers.words(centi / 100)
        let hundredths = centi % 100
        if hundredths == 0 { return whole + " " + (centi == 100 ? one : many) }
        let decimals =
            hundredths % 10 == 0
            ? EnglishNumbers.digits(hundredths / 10, count: 1) : EnglishNumbers.digits(hundredths, count: 2)
        return whole + " point " + decimals + " " + many
    }

    /// Twelve seconds ahead, one minute five seconds behind, or on target within ±2 s (less
    /// than one stride's worth of time is not worth a word); nil for a broken value.
    static func versus(_ ahead: Double) -> String? {
        guard ahead.isFinite else { return nil }
        guard abs(ahead) > 2 else { return "on target" }
        return duration(abs(ahead)) + (ahead > 0 ? " ahead" : " behind")
    }

    static func count(_ n: Int, _ unit: String) -> String {
        EnglishNumbers.words(n) + " " + unit + (n == 1 ? "" : "s")
    }

    static func joined(_ parts: String?...) -> String { parts.compactMap { $0 }.joined(separator: " ") }
}
