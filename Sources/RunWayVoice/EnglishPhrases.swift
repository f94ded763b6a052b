import RunWayCore
import RunWayHardware

/// The English phrase table: short clauses separated by commas (a comma is a pause in speech),
/// every number in words.
enum EnglishPhrases {
    static func text(_ phrase: Phrase) -> String {
        switch phrase {
        case .countdown(let n): EnglishNumbers.words(n)
        case .rotate: "rotate"
        case .split(let order, let time, let pace):
            // A full kilometre's time is its pace: said once.
            clauses("kilometre " + EnglishNumbers.words(order), paceWords(pace ?? time))
        case .lastSplit(let metres, let time, let pace):
            clauses(
                "last " + distance(metres), duration(time, clock: true),
                pace.flatMap(paceWords).map { "pace " + $0 })
        case .sinkRate(let pace, let target): alert("sink rate", pace, target)
        case .overspeed(let pace, let target): alert("overspeed", pace, target)
        case .minimums(let metres): clauses("minimums", distance(max(0, metres)) + " to go")
        case .missionComplete(let time): clauses("mission complete", duration(time))
        case .pause(let reason): pause(reason)
        case .resume: "resume"
        case .signalLost: "GPS signal lost, paused"
        case .gpsBack: "GPS back, resume"
        case .touchdown(let metres, let time, let pace):
            clauses(
                "touchdown", distance(metres), duration(time),
                pace.flatMap(paceWords).map { "average pace " + $0 })
        case .tooShort: "not recorded, too short"
        case .gpsReady: "GPS ready"
        case .fault(let fault): self.fault(fault)
        case .exportDone: "export done, pull the stick"
        case .exportFailed: "export failed, the runs stay on the board"
        case .status(let metres, let time, let pace, let ahead):
            clauses(
                distance(metres), duration(time), pace.flatMap(paceWords).map { "pace " + $0 },
                ahead.flatMap(versus))
        case .voiceCheck: "voice check, can you hear me"
        case .text(let text): text
        }
    }

    static func clauses(_ parts: String?...) -> String { parts.compactMap { $0 }.joined(separator: ", ") }

    static func alert(_ name: String, _ pace: Double?, _ target: Double) -> String {
        clauses(name, pace.flatMap(paceWords).map { "pace " + $0 }, paceWords(target).map { "target " + $0 })
    }

    static func pause(_ reason: PauseReason) -> String {
        switch reason {
        case .stopped: "auto pause"
        case .manual: "paused"
        case .signalLost: "GPS signal lost, paused"
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

    /// 5180 m → "five point one eight kilometres" (two decimals, a trailing zero dropped), under
    /// a kilometre in metres: "eight hundred metres".
    static func distance(_ metres: Double) -> String {
        guard let centi = SpokenNumber.centikilometres(metres) else {
            return count(max(0, SpokenNumber.whole(metres) ?? 0), "metre")
        }
        let whole = EnglishNumbers.words(centi / 100)
        let hundredths = centi % 100
        if hundredths == 0 { return whole + (centi == 100 ? " kilometre" : " kilometres") }
        let decimals =
            hundredths % 10 == 0
            ? EnglishNumbers.digits(hundredths / 10, count: 1) : EnglishNumbers.digits(hundredths, count: 2)
        return whole + " point " + decimals + " kilometres"
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
