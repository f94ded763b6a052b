import RunWayCore
import RunWayHardware

/// One queue for the buzzer and the voice: which cue sounds when, and on which. A pure state
/// machine driven by deadlines, as `PatternPlayer`: the caller passes the time in, performs the
/// actions, tells it when an utterance ended, and calls `advance(to:)` at `nextDeadline`.
///
/// The voice says one thing at a time. A warning cuts short information being said (or in its
/// buzzer lead-in), never another warning; queued warnings go before queued information; a cue
/// too old when its turn comes is dropped, and a newer cue of the same sort replaces a queued one.
/// After `.stopSpeaking` the next utterance waits for the player's `speechEnded` (it ends every
/// utterance, a stopped one too), or `Configuration.stopTimeout`.
public struct VoiceQueue: Sendable {
    /// `voice.output` in the configuration (`VoiceOutput`): `.buzzer` patterns only, at once, as
    /// before the voice (the buzzer driver queues them itself); `.voice` phrases only, a cue
    /// without a phrase still buzzes; `.both` the pattern, then its phrase once the pattern is
    /// over, never together.
    public typealias Output = VoiceOutput

    public struct Configuration: Sendable, Equatable {
        /// A split or a status 5 s late is still the runner's; later, the next fix's numbers
        /// would already contradict it.
        public var informationStaleAfter = 5.0
        /// An alert still matters 10 s on (its pace verdict moves slowly), past that it may
        /// be over, and SINK RATE would be said while the runner is already back in the band.
        public var warningStaleAfter = 10.0
        /// The countdown's counts are a second apart: a count later than 1.5 s would be said
        /// over the next one, or after ROTATE.
        public var countdownStaleAfter = 1.5
        /// What a run says once, at its end or its goal (the last partial split, TOUCHDOWN, NOT
        /// RECORDED, MISSION COMPLETE), is never contradicted by the next fix: it waits for its
        /// turn up to a minute. At 5 s TOUCHDOWN was dropped whenever the last split ahead of it
        /// spoke longer than that (a 877 m tail: 5.4 s in English, 6.6 s in Korean).
        public var onceStaleAfter = 60.0
        /// A split's numbers are facts that stay true (that kilometre's time); said 15 s late it is
        /// still the runner's last kilometre. At 5 s one was dropped behind SIGNAL LOST and GPS
        /// back (the board test's restart): the runner never heard kilometre three.
        public var splitStaleAfter = 15.0
        /// Silence between a pattern's end and its phrase, as between two patterns: so the last
        /// tone does not run into the first word.
        public var gapAfterPattern = PatternPlayer.gapBetweenPatterns
        /// In `.both`, the longest lead-in (pattern and gap) before the words: a split's (0.3 s
        /// and the gap, 0.7 s) and the countdown's fit, so their words start within a second of
        /// the callout. A longer pattern (SINK RATE's 1.6 s, SIGNAL LOST's 1.7 s, a fault's
        /// 3.5 s) plays after the words instead: a warning is said at once and its pattern
        /// follows, still never over the words.
        public var maximumLeadIn = 0.75
        /// How long to wait for the player to confirm a stop before speaking on: a player that
        /// never answers must not silence the warnings for good. Stopping audio takes one ALSA
        /// period (tens of ms); 1 s is far beyond that.
        public var stopTimeout = 1.0

        public init() {}
    }

    public enum Action: Sendable, Equatable {
        case buzz(BuzzerPattern, urgent: Bool)
        case speak(Cue)
        case stopSpeaking
        case dropped(Cue, reason: DropReason)
    }

    public enum DropReason: String, Sendable {
        /// Its turn came later than its limit.
        case stale
        /// A newer cue of the same sort replaced it, or it and its opposite cancelled out (a
        /// pause and its resume both still queued).
        case superseded
        /// A warning cut it short; it is not resumed.
        case interrupted
        /// It has nothing the output plays (a phrase-only cue with `.buzzer`).
        case noOutput = "no output"
    }

    private struct Entry: Sendable {
        var cue: Cue
        var added: Double
        var buzzed = false
        /// Its pattern is too long to lead in: it plays once the words are over.
        var patternAfter = false
    }

    /// The cue whose turn it is: its lead-in (its pattern and the gap after it, in `.both`),
    /// then its utterance.
    private enum Turn: Sendable {
        case leadIn(Entry, until: Double)
        case speaking(Entry)
    }

    /// Silence the player ends each utterance with, before it calls `speechEnded`: so the next
    /// utterance, or the pattern that follows the words, does not run into the last word (the
    /// last split and TOUCHDOWN back to back were heard as one). As between two patterns.
    public static let gapAfterWords = PatternPlayer.gapBetweenPatterns

    public private(set) var output: Output
    public let configuration: Configuration
    private var pending: [Entry] = []
    private var turn: Turn?
    /// A `.stopSpeaking` awaits the player's `speechEnded`, until this time at the latest.
    private var stopping: Double?
    /// When the buzzer is done with the last pattern sent, gap included (`.both` only).
    private var buzzerFreeAt = -Double.infinity
    private var buzzerUrgent = false

    public init(output: Output, configuration: Configuration = .init()) {
        self.output = output
        self.configuration = configuration
    }

    /// The cue being spoken.
    public var speaking: Cue? {
        if case .speaking(let entry) = turn { entry.cue } else { nil }
    }

    /// When `advance(to:)` has something to do: a lead-in ending, a stop no longer waited for.
    public var nextDeadline: Double? {
        var due: Double? = stopping
        if case .leadIn(let entry, let until) = turn, entry.cue.phrase == nil || stopping == nil {
            due = min(due ?? until, until)
        }
        return due
    }

    /// A cue to be heard: with `.buzzer` (and a phrase-less cue with `.voice`) its pattern at
    /// once; otherwise queued, merged with what is queued, and a warning cuts information short.
    public mutating func add(_ cue: Cue, at now: Double) -> [Action] {
        switch output {
        case .buzzer:
            guard let pattern = cue.pattern else { return [.dropped(cue, reason: .noOutput)] }
            return [.buzz(pattern, urgent: cue.urgent)]
        case .voice where cue.phrase == nil:
            guard let pattern = cue.pattern else { return [.dropped(cue, reason: .noOutput)] }
            return [.buzz(pattern, urgent: cue.urgent)]
        case .voice, .both:
            guard cue.phrase != nil || cue.pattern != nil else { return [.dropped(cue, reason: .noOutput)] }
        }
        if let cancelled = cancelInFlight(by: cue, at: now) { return cancelled + pump(at: now) }
        let (merged, place) = merge(cue)
        guard let place else { return merged }
        let entry = Entry(cue: cue, added: now)
        var actions = merged
        if cue.priority == .warning { actions += interrupt(at: now) }
        if case .at(let index) = place {
            pending.insert(entry, at: index)
        } else if cue.priority == .warning {
            pending.insert(entry, at: pending.firstIndex { $0.cue.priority < .warning } ?? pending.endIndex)
        } else {
            pending.append(entry)
        }
        return actions + pump(at: now)
    }

    /// The player finished the utterance, or confirmed a `.stopSpeaking`: the next cue's turn.
    public mutating func speechEnded(at now: Double) -> [Action] {
        var actions: [Action] = []
        if stopping != nil {
            stopping = nil
        } else if case .speaking(let entry) = turn {
            turn = nil
            if entry.patternAfter, !entry.buzzed, let pattern = entry.cue.pattern {
                actions.append(.buzz(pattern, urgent: entry.cue.urgent))
                buzzerFreeAt = now + pattern.duration + configuration.gapAfterPattern
                buzzerUrgent = entry.cue.urgent
            }
        } else {
            return []
        }
        return actions + pump(at: now)
    }

    /// What `nextDeadline` was for: a lead-in over, a stop no longer waited for. Staleness is
    /// judged when a cue's turn comes.
    public mutating func advance(to now: Double) -> [Action] {
        if let until = stopping, until <= now { stopping = nil }
        return pump(at: now)
    }

    /// The audio device failed: from now on `.buzzer`. What was waiting to be said gets its
    /// pattern if it had not had it (a phrase-only cue is dropped: the buzzer has nothing for it).
    public mutating func voiceFailed(at now: Double) -> [Action] {
        guard output != .buzzer else { return [] }
        output = .buzzer
        var entries = pending
        switch turn {
        case .speaking(let entry), .leadIn(let entry, _): entries.insert(entry, at: 0)
        case nil: break
        }
        pending = []
        turn = nil
        stopping = nil
        return entries.compactMap { entry in
            if entry.buzzed { return nil }
            guard let pattern = entry.cue.pattern else { return .dropped(entry.cue, reason: .noOutput) }
            return .buzz(pattern, urgent: entry.cue.urgent)
        }
    }
}

extension VoiceQueue {
    /// Where a new cue goes after `merge`: in the place of the queued one it replaced, or by its
    /// priority.
    private enum Place {
        case at(Int)
        case byPriority
    }

    /// A new cue against the queued ones: it replaces a queued cue of the same sort (the newer
    /// numbers are the ones to say); a resume cancels a queued pause, and GPS back a queued
    /// signal lost, leaving nothing to say (nil place: the new cue is not queued).
    private mutating func merge(_ cue: Cue) -> (actions: [Action], place: Place?) {
        if let phrase = cue.phrase,
            let index = pending.firstIndex(where: { Self.cancels(phrase, $0.cue.phrase) })
        {
            let old = pending.remove(at: index)
            return ([.dropped(old.cue, reason: .superseded), .dropped(cue, reason: .superseded)], nil)
        }
        guard let key = Self.sort(of: cue),
            let index = pending.firstIndex(where: { Self.sort(of: $0.cue) == key })
        else { return ([], .byPriority) }
        let old = pending.remove(at: index)
        return ([.dropped(old.cue, reason: .superseded)], .at(index))
    }

    /// The sorts of cue where only the newest is worth saying: a countdown's count, a split, a
    /// status, an alert said again, a fault said again (one sort per fault).
    private static func sort(of cue: Cue) -> String? {
        switch cue.phrase {
        case .fault(let fault): "fault-" + Phrase.slug(for: fault)
        case let phrase?:
            [.countdown, .split, .status, .sinkRate, .overspeed].contains(phrase.kind)
                ? phrase.kind.rawValue : nil
        case nil: nil
        }
    }

    /// `new` undoes `queued`: a resume after a pause, GPS back after signal lost.
    private static func cancels(_ new: Phrase, _ queued: Phrase?) -> Bool {
        switch (new, queued) {
        case (.resume, .pause(let reason)?): reason != .signalLost
        case (.gpsBack, .signalLost?), (.gpsBack, .pause(.signalLost)?): true
        default: false
        }
    }

    /// `cue` undoes what is being said or led in (GPS back while "GPS lost" plays: the board's
    /// restart lost and found the signal within 30 ms and said both, holding up the split
    /// behind them 6 s): both dropped, the utterance cut short.
    private mutating func cancelInFlight(by cue: Cue, at now: Double) -> [Action]? {
        guard let phrase = cue.phrase else { return nil }
        switch turn {
        case .speaking(let entry) where Self.cancels(phrase, entry.cue.phrase):
            turn = nil
            stopping = now + configuration.stopTimeout
            return [
                .stopSpeaking, .dropped(entry.cue, reason: .superseded), .dropped(cue, reason: .superseded),
            ]
        case .leadIn(let entry, _) where Self.cancels(phrase, entry.cue.phrase):
            turn = nil
            return [.dropped(entry.cue, reason: .superseded), .dropped(cue, reason: .superseded)]
        default:
            return nil
        }
    }

    /// A warning's arrival: information being said is stopped, or in its lead-in dropped (its
    /// pattern was played, its words will not be).
    private mutating func interrupt(at now: Double) -> [Action] {
        switch turn {
        case .speaking(let entry) where entry.cue.priority < .warning:
            turn = nil
            stopping = now + configuration.stopTimeout
            return [.stopSpeaking, .dropped(entry.cue, reason: .interrupted)]
        case .leadIn(let entry, _) where entry.cue.priority < .warning:
            turn = nil
            return entry.cue.phrase == nil ? [] : [.dropped(entry.cue, reason: .interrupted)]
        default:
            return []
        }
    }

    /// Whatever is due by `now`: a lead-in over → its words; the voice free → the next cue
    /// (dropped if stale, else its pattern in `.both`, then its lead-in).
    private mutating func pump(at now: Double) -> [Action] {
        var actions: [Action] = []
        while true {
            switch turn {
            case .speaking:
                return actions
            case .leadIn(let entry, let until):
                guard until <= now else { return actions }
                guard entry.cue.phrase != nil else {
                    turn = nil
                    continue
                }
                guard stopping == nil else { return actions }
                turn = .speaking(entry)
                actions.append(.speak(entry.cue))
                return actions
            case nil:
                guard !pending.isEmpty else { return actions }
                var entry = pending.removeFirst()
                if now - entry.added > staleAfter(entry.cue) {
                    actions.append(.dropped(entry.cue, reason: .stale))
                    continue
                }
                var until = output == .both ? max(now, buzzerFreeAt) : now
                if output == .both, let pattern = entry.cue.pattern, entry.cue.phrase != nil,
                    pattern.duration + configuration.gapAfterPattern > configuration.maximumLeadIn
                {
                    entry.patternAfter = true  // the words first, once the buzzer is free
                } else if output == .both, let pattern = entry.cue.pattern {
                    actions.append(.buzz(pattern, urgent: entry.cue.urgent))
                    // An urgent pattern cuts a normal one short in the driver; else it waits.
                    let start = entry.cue.urgent && !buzzerUrgent ? now : until
                    until = start + pattern.duration + configuration.gapAfterPattern
                    buzzerFreeAt = until
                    buzzerUrgent = entry.cue.urgent
                    entry.buzzed = true
                }
                turn = .leadIn(entry, until: until)
            }
        }
    }

    private func staleAfter(_ cue: Cue) -> Double {
        if cue.phrase?.kind == .countdown { return configuration.countdownStaleAfter }
        if let kind = cue.phrase?.kind, [.lastSplit, .touchdown, .tooShort, .missionComplete].contains(kind) {
            return configuration.onceStaleAfter
        }
        if cue.phrase?.kind == .split { return configuration.splitStaleAfter }
        return cue.priority == .warning
            ? configuration.warningStaleAfter : configuration.informationStaleAfter
    }
}
