import RunWayCore
import RunWayHardware
import Testing

@testable import RunWayVoice

@Suite struct VoiceQueueTests {
    typealias Action = VoiceQueue.Action

    static let split = Narration.holdConfirmed.with(
        name: "SPLIT", pattern: BuzzerPattern([100, 100, 100]), urgent: false,
        phrase: .split(order: 1, time: 330, pace: 330))
    static let sinkRate = split.with(
        name: "SINK RATE", pattern: BuzzerPattern([400, 200, 400]), urgent: true,
        phrase: .sinkRate(pace: 370, target: 330))
    static let overspeed = split.with(
        name: "OVERSPEED", pattern: BuzzerPattern([60, 60, 60]), urgent: true,
        phrase: .overspeed(pace: 290, target: 330))
    static let status = Cue(
        name: "STATUS", pattern: nil, urgent: false,
        phrase: .status(distance: 1, time: 1, pace: nil, ahead: nil))
    static func countdown(_ n: Int) -> Cue {
        split.with(name: "\(n)", pattern: BuzzerPattern([120]), urgent: false, phrase: .countdown(n))
    }

    /// TOUCHDOWN waits behind a long last split however long it speaks: a run's end is said once
    /// and never contradicted (it was dropped as stale behind a 5.4 s last split).
    @Test func whatARunSaysOnceIsNeverStale() {
        var queue = VoiceQueue(output: .voice)
        let last = Self.status.with(
            name: "last split", pattern: nil, urgent: false,
            phrase: .lastSplit(metres: 877, time: 290, pace: 331))
        let touchdown = Self.split.with(
            name: "TOUCHDOWN", pattern: BuzzerPattern([600]), urgent: false,
            phrase: .touchdown(distance: 10_877, time: 3600, pace: 331))
        #expect(queue.add(last, at: 0) == [.speak(last)])
        #expect(queue.add(touchdown, at: 0) == [])
        #expect(queue.speechEnded(at: 30) == [.speak(touchdown)])
        // A split that waited as long is stale.
        var other = VoiceQueue(output: .voice)
        _ = other.add(last, at: 0)
        _ = other.add(Self.split, at: 0)
        #expect(other.speechEnded(at: 30) == [.dropped(Self.split, reason: .stale)])
    }

    @Test func theBuzzerAloneBuzzesEveryPatternAtOnce() {
        var queue = VoiceQueue(output: .buzzer)
        #expect(queue.add(Self.split, at: 0) == [.buzz(Self.split.pattern!, urgent: false)])
        #expect(queue.add(Self.sinkRate, at: 0) == [.buzz(Self.sinkRate.pattern!, urgent: true)])
        #expect(queue.add(Self.status, at: 0) == [.dropped(Self.status, reason: .noOutput)])
        #expect(queue.nextDeadline == nil && queue.speaking == nil)
    }

    @Test func theVoiceAloneSpeaksOneThingAtATimeAndStillBuzzesWhatHasNoWords() {
        var queue = VoiceQueue(output: .voice)
        #expect(queue.add(Self.split, at: 0) == [.speak(Self.split)])
        #expect(queue.speaking == Self.split)
        #expect(queue.add(Self.status, at: 1) == [])
        #expect(queue.add(Narration.holdConfirmed, at: 1) == [.buzz(.holdConfirmed, urgent: true)])
        #expect(queue.speechEnded(at: 2) == [.speak(Self.status)])
        #expect(queue.speechEnded(at: 3) == [])
        #expect(queue.speaking == nil)
        #expect(queue.speechEnded(at: 4) == [])  // nothing was said: ignored
    }

    @Test func bothBuzzesThenSpeaksOnceThePatternAndItsGapAreOver() {
        var queue = VoiceQueue(output: .both)
        #expect(queue.add(Self.split, at: 10) == [.buzz(Self.split.pattern!, urgent: false)])
        let due = 10 + Self.split.pattern!.duration + PatternPlayer.gapBetweenPatterns
        #expect(queue.nextDeadline == due)
        #expect(queue.advance(to: due - 0.01) == [])
        #expect(queue.advance(to: due) == [.speak(Self.split)])
        #expect(queue.nextDeadline == nil)
        // While speaking, a new cue's pattern waits for its turn.
        #expect(queue.add(Self.countdown(3), at: due + 0.1) == [])
        #expect(queue.speechEnded(at: due + 0.5) == [.buzz(BuzzerPattern([120]), urgent: false)])
        // A phrase-only cue in .both goes straight to speech once the buzzer is quiet.
        var quiet = VoiceQueue(output: .both)
        #expect(quiet.add(Self.status, at: 0) == [.speak(Self.status)])
    }

    @Test func aWarningCutsInformationShortAndIsSaidOnceTheStopIsConfirmed() {
        var queue = VoiceQueue(output: .voice)
        _ = queue.add(Self.split, at: 0)
        #expect(
            queue.add(Self.sinkRate, at: 1) == [.stopSpeaking, .dropped(Self.split, reason: .interrupted)])
        #expect(queue.speaking == nil)
        #expect(queue.nextDeadline == 1 + VoiceQueue.Configuration().stopTimeout)
        #expect(queue.speechEnded(at: 1.05) == [.speak(Self.sinkRate)])
        // The player never confirms: the warning is said after the timeout all the same.
        var deaf = VoiceQueue(output: .voice)
        _ = deaf.add(Self.split, at: 0)
        _ = deaf.add(Self.sinkRate, at: 1)
        #expect(deaf.advance(to: 1.5) == [])
        #expect(deaf.advance(to: 2) == [.speak(Self.sinkRate)])
    }

    @Test func aWarningCutsInformationsLeadInShort() {
        var queue = VoiceQueue(output: .both)
        _ = queue.add(Self.split, at: 0)
        // SINK RATE's pattern (1.0 s) is too long to lead in: its words come first, as soon as
        // the split's pattern and gap are over, and its pattern after them.
        #expect(queue.add(Self.sinkRate, at: 0.1) == [.dropped(Self.split, reason: .interrupted)])
        let free = Self.split.pattern!.duration + PatternPlayer.gapBetweenPatterns
        #expect(queue.nextDeadline == free)
        #expect(queue.advance(to: free) == [.speak(Self.sinkRate)])
        #expect(queue.speechEnded(at: 3) == [.buzz(Self.sinkRate.pattern!, urgent: true)])
        // The next cue's pattern queues behind that one in the driver; its words wait for both.
        #expect(queue.add(Self.split, at: 3.1) == [.buzz(Self.split.pattern!, urgent: false)])
        let after = 3 + Self.sinkRate.pattern!.duration + PatternPlayer.gapBetweenPatterns + free
        #expect(abs(queue.nextDeadline! - after) < 1e-9)
        #expect(queue.advance(to: after + 1e-9) == [.speak(Self.split)])
    }

    /// A pattern that fits the lead-in (a split's) goes first; a long one after the words, so a
    /// warning's words start at once: within the second of its callout.
    @Test func longPatternsFollowTheWords() {
        var queue = VoiceQueue(output: .both)
        #expect(queue.add(Self.sinkRate, at: 0) == [.speak(Self.sinkRate)])
        #expect(queue.speechEnded(at: 2.5) == [.buzz(Self.sinkRate.pattern!, urgent: true)])
        var split = VoiceQueue(output: .both)
        #expect(split.add(Self.split, at: 0) == [.buzz(Self.split.pattern!, urgent: false)])
        #expect(split.nextDeadline! <= VoiceQueue.Configuration().maximumLeadIn)
    }

    @Test func aWarningNeverCutsAWarningAndWarningsGoFirst() {
        var queue = VoiceQueue(output: .voice)
        _ = queue.add(Self.sinkRate, at: 0)
        #expect(queue.add(Self.split, at: 0.1) == [])
        #expect(queue.add(Self.status, at: 0.2) == [])
        #expect(queue.add(Self.overspeed, at: 0.3) == [])
        #expect(queue.speechEnded(at: 1) == [.speak(Self.overspeed)])
        #expect(queue.speechEnded(at: 2) == [.speak(Self.split)])
        #expect(queue.speechEnded(at: 3) == [.speak(Self.status)])
    }

    @Test func aCueTooOldWhenItsTurnComesIsDropped() {
        var queue = VoiceQueue(output: .voice)
        _ = queue.add(Self.status, at: 0)
        _ = queue.add(Self.countdown(2), at: 0)
        _ = queue.add(Self.split, at: 0)
        #expect(
            queue.speechEnded(at: 1.6) == [.dropped(Self.countdown(2), reason: .stale), .speak(Self.split)])
        _ = queue.add(Self.status.with(phrase: .voiceCheck), at: 2)
        #expect(
            queue.speechEnded(at: 7.1) == [.dropped(Self.status.with(phrase: .voiceCheck), reason: .stale)])
        var warnings = VoiceQueue(output: .voice)
        _ = warnings.add(Self.sinkRate, at: 0)
        _ = warnings.add(Self.overspeed, at: 0)
        #expect(warnings.speechEnded(at: 9.9) == [.speak(Self.overspeed)])
        _ = warnings.add(Self.sinkRate, at: 10)
        #expect(warnings.speechEnded(at: 20.1) == [.dropped(Self.sinkRate, reason: .stale)])
    }

    @Test func aNewerCueOfTheSameSortReplacesTheQueuedOne() {
        var queue = VoiceQueue(output: .voice)
        _ = queue.add(Self.sinkRate, at: 0)
        let first = Self.split
        let second = Self.split.with(phrase: .split(order: 2, time: 320, pace: 320))
        #expect(queue.add(first, at: 1) == [])
        #expect(queue.add(Self.status, at: 1) == [])
        #expect(queue.add(second, at: 2) == [.dropped(first, reason: .superseded)])
        let storage = Narration.cue(for: .storage)
        let battery = Narration.cue(for: .batteryCritical)
        #expect(queue.add(storage, at: 2) == [])
        #expect(queue.add(battery, at: 2) == [])
        #expect(queue.add(storage, at: 3) == [.dropped(storage, reason: .superseded)])
        #expect(queue.speechEnded(at: 3.2) == [.speak(storage)])  // the warning, in the old one's place
        #expect(queue.speechEnded(at: 3.4) == [.speak(battery)])
        #expect(queue.speechEnded(at: 3.6) == [.speak(second)])
        #expect(queue.speechEnded(at: 3.8) == [.speak(Self.status)])
    }

    @Test func aPauseAndItsResumeBothStillQueuedCancelOut() {
        var queue = VoiceQueue(output: .voice)
        _ = queue.add(Self.sinkRate, at: 0)
        let pause = Self.split.with(phrase: .pause(.stopped))
        let resume = Self.split.with(phrase: .resume)
        let lost = Self.sinkRate.with(phrase: .signalLost)
        let back = Self.split.with(phrase: .gpsBack)
        _ = queue.add(pause, at: 1)
        #expect(
            queue.add(resume, at: 2) == [
                .dropped(pause, reason: .superseded), .dropped(resume, reason: .superseded),
            ])
        _ = queue.add(lost, at: 3)
        #expect(
            queue.add(back, at: 4) == [
                .dropped(lost, reason: .superseded), .dropped(back, reason: .superseded),
            ])
        #expect(queue.speechEnded(at: 5) == [])
        // Being said: cut short, and the resume not said either (the board's restart lost and
        // found the signal within 30 ms, and "GPS lost … GPS back" held up the split behind).
        _ = queue.add(pause, at: 6)
        #expect(queue.speaking == pause)
        #expect(
            queue.add(resume, at: 7) == [
                .stopSpeaking, .dropped(pause, reason: .superseded), .dropped(resume, reason: .superseded),
            ])
        #expect(queue.speechEnded(at: 8) == [])
    }

    @Test func whenTheVoiceFailsTheBuzzerTakesOverWhatWasWaiting() {
        var queue = VoiceQueue(output: .voice)
        _ = queue.add(Self.split, at: 0)
        _ = queue.add(Self.status, at: 0)
        _ = queue.add(Self.countdown(1), at: 0)
        #expect(
            queue.voiceFailed(at: 1) == [
                .buzz(Self.split.pattern!, urgent: false), .dropped(Self.status, reason: .noOutput),
                .buzz(BuzzerPattern([120]), urgent: false),
            ])
        #expect(queue.output == .buzzer && queue.speaking == nil && queue.nextDeadline == nil)
        #expect(queue.add(Self.sinkRate, at: 2) == [.buzz(Self.sinkRate.pattern!, urgent: true)])
        #expect(queue.speechEnded(at: 3) == [])
        // In .both what was buzzed already is not buzzed again.
        var both = VoiceQueue(output: .both)
        _ = both.add(Self.split, at: 0)
        #expect(both.voiceFailed(at: 0.1) == [])
    }
}

extension Cue {
    func with(
        name: String? = nil, pattern: BuzzerPattern?? = nil, urgent: Bool? = nil, phrase: Phrase?? = nil
    ) -> Cue {
        Cue(
            name: name ?? self.name, pattern: pattern ?? self.pattern, urgent: urgent ?? self.urgent,
            phrase: phrase ?? self.phrase, time: time)
    }
}
