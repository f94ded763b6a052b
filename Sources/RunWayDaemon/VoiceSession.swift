import RunWayCore
import RunWayHardware
import RunWayVoice

/// The voice thread's state (`Voice.run`): the queue, the synthesiser, and what to do with the
/// queue's actions. Touched by the voice thread only.
struct VoiceSession {
    let parts: Voice.Parts
    let voice: Voice
    private(set) var queue = VoiceQueue(output: .buzzer)
    private var synthesizer: (any SpeechSynthesizer)?
    /// The output the queue runs with when the device works (after the start-up probe).
    private var working = VoiceOutput.buzzer
    /// An utterance whose turn came.
    private var pending: Cue?
    /// The queue asked to cut the utterance playing short.
    private var stopRequested = false
    /// The `.audio` fault was said; said again only after an utterance played.
    private var faulted = false
    /// When the device failed; it is tried again `retryAfter` later.
    private var failedAt: Double?
    /// When each cue arrived, for the latency figure (bounded like the inbox).
    private var arrivals: [(cue: Cue, at: Double)] = []
    /// Speech synthesised ahead: the fixed phrases while idle, the others during their lead-in.
    private var cache: SpeechCache
    /// Cues with words not yet synthesised (bounded likewise).
    private var unprepared: [Cue] = []

    /// A device that failed is tried again after this long (s): a dongle plugged back in or
    /// headphones that connect are heard within half a minute, and a missing device costs one
    /// failed open per 30 s, not one per callout.
    static let retryAfter = 30.0

    init(parts: Voice.Parts, voice: Voice) {
        self.parts = parts
        self.voice = voice
        cache = SpeechCache(language: parts.language)
    }

    /// Synthesises one fixed phrase ahead, when nothing is due; false when there is nothing to do
    /// (all done, only the buzzer speaks, or the queue has something coming).
    mutating func warmUp() -> Bool {
        guard let synthesizer, queue.output != .buzzer, queue.nextDeadline == nil, queue.speaking == nil,
            let text = cache.nextWarmup
        else { return false }
        if let audio = try? synthesizer.synthesize(text) {
            cache.store(audio, for: text)
        } else {
            cache.skipWarmup(text)
        }
        return true
    }

    /// Chooses the output: the configured one, or `both` when the device opens and the buzzer
    /// alone when it does not (a board without audio out is not at fault).
    mutating func start() {
        guard parts.output != .buzzer else {
            voice.note { $0.output = .buzzer }
            return
        }
        do {
            synthesizer = try parts.synthesizer()
            let device = try parts.open(parts.device)
            device.close()
            working = parts.output ?? .both
            voice.logLine(
                .info, "voice: \(working.rawValue) on \(parts.device), \(synthesizer?.description ?? "")")
        } catch {
            working = parts.output ?? .both
            if parts.output == nil, synthesizer != nil {
                // Not a fault: the buzzer alone, and the device is looked for every 30 s.
                voice.logLine(.info, "voice: no audio device (\(error)); the buzzer alone tells the runner")
                faulted = true
                failedAt = voice.now()
                voice.note { $0.output = .buzzer }
                return
            }
            queue = VoiceQueue(output: working)
            fail(error, at: voice.now())
            return
        }
        queue = VoiceQueue(output: working)
        voice.note { $0.output = working }
    }

    /// Takes new cues and whatever is due, speaking each utterance whose turn comes.
    ///
    /// The order is the runner's: the queue first, so each pattern sounds at once and its lead-in
    /// counts from the buzz (synthesising first delayed the buzz and not the words, which then
    /// started over the pattern: the board test caught it); then whatever must be said now; then
    /// the words of cues waiting in their lead-in, one at a time, the queue advanced after each.
    /// Synthesising the whole batch first held up an utterance due now behind the others' words
    /// (the last split behind TOUCHDOWN's: 1.5 s under the board test's emulation).
    mutating func receive(_ cues: [Cue]) {
        take(cues, at: voice.now())
        if synthesizer != nil, queue.output != .buzzer {
            unprepared += cues.filter { $0.phrase != nil }
            if unprepared.count > 8 { unprepared.removeFirst(unprepared.count - 8) }
        }
        while !voice.isStopped {
            if let cue = pending {
                pending = nil
                speak(cue)
            } else if !unprepared.isEmpty {
                prepare(unprepared.removeFirst())
                take([], at: voice.now())
            } else {
                return
            }
        }
    }

    /// Synthesises a waiting cue's words during its lead-in. Never while playing: the chunks
    /// would wait for it.
    private mutating func prepare(_ cue: Cue) {
        guard let synthesizer, let phrase = cue.phrase else { return }
        let text = Phrasebook.text(phrase, in: parts.language, units: parts.units)
        guard cache.audio(for: text) == nil, let audio = try? synthesizer.synthesize(text) else {
            return  // ready already, or said when its turn comes, with the error
        }
        cache.store(audio, for: text)
    }

    /// When a device that failed is next tried, if it is.
    var nextRetry: Double? { failedAt.map { $0 + Self.retryAfter } }

    private mutating func take(_ cues: [Cue], at now: Double) {
        var actions: [VoiceQueue.Action] = []
        for cue in cues {
            arrivals.append((cue, now))
            if arrivals.count > Voice.inboxLimit { arrivals.removeFirst() }
            actions += queue.add(cue, at: now)
        }
        actions += queue.advance(to: now)
        perform(actions)
        if let failedAt, now - failedAt >= Self.retryAfter, queue.speaking == nil, pending == nil {
            retry(at: now)
        }
    }

    private mutating func perform(_ actions: [VoiceQueue.Action]) {
        for action in actions {
            switch action {
            case .buzz(let pattern, let urgent): voice.buzzer.play(pattern, urgent: urgent)
            case .speak(let cue): pending = cue
            case .stopSpeaking: stopRequested = true
            case .dropped(let cue, let reason):
                voice.note {
                    $0.dropped += 1
                    if reason == .interrupted { $0.interrupted += 1 }
                }
                voice.logLine(.debug, "voice: \(cue.name) not said (\(reason.rawValue))")
            }
        }
    }

    private mutating func speak(_ cue: Cue) {
        guard let phrase = cue.phrase, let synthesizer else {
            perform(queue.speechEnded(at: voice.now()))
            return
        }
        let text = Phrasebook.text(phrase, in: parts.language, units: parts.units)
        let audio: PCMBuffer
        let device: AlsaOutput
        do {
            unprepared.removeAll { $0 == cue }
            if let ready = cache.audio(for: text) {
                audio = ready
            } else {
                audio = try synthesizer.synthesize(text)
                cache.store(audio, for: text)
            }
            device = try parts.open(parts.device)
        } catch {
            fail(error, at: voice.now())
            return
        }
        defer { device.close() }
        let started = voice.now()
        let arrived = arrivals.last { $0.cue == cue }?.at
        voice.logLine(
            .info, "voice: speaking \(phrase.kind.rawValue): \(text)",
            fields: ["VOICE_KIND": phrase.kind.rawValue])
        voice.note { $0.lastLatency = arrived.map { started - $0 } }
        stopRequested = false
        var stopping = false
        var heard = audio
        heard.append(.silence(VoiceQueue.gapAfterWords, sampleRate: audio.sampleRate))
        do {
            let finished = try device.play(heard) {
                guard let cues = voice.takeWhilePlaying() else {
                    stopping = true
                    return true
                }
                take(cues, at: voice.now())
                unprepared += cues.filter { $0.phrase != nil }  // synthesised after this utterance
                if unprepared.count > 8 { unprepared.removeFirst(unprepared.count - 8) }
                return stopRequested
            }
            if finished { voice.note { $0.spoken += 1 } }
        } catch {
            fail(error, at: voice.now())
            return
        }
        faulted = false
        failedAt = nil
        if stopping { voice.restop() }
        perform(queue.speechEnded(at: voice.now()))
    }

    /// The device (or the synthesiser) failed: the `.audio` fault once, and the buzzer alone until
    /// the device works again.
    private mutating func fail(_ error: VoiceError, at now: Double) {
        failedAt = now
        voice.note { $0.faults += 1 }
        if !faulted {
            faulted = true
            voice.logLine(
                .error, "\(BoardFault.audio.rawValue): \(error); the buzzer alone tells the runner",
                fields: ["fault": "\(BoardFault.audio)"])
            voice.buzzer.play(BuzzerPattern.pattern(for: .audio), urgent: true)
        }
        perform(queue.voiceFailed(at: now))
        voice.note { $0.output = .buzzer }
    }

    /// Tries the device again; when it opens, the configured output is back.
    private mutating func retry(at now: Double) {
        do {
            if synthesizer == nil { synthesizer = try parts.synthesizer() }
            let device = try parts.open(parts.device)
            device.close()
            failedAt = nil
            queue = VoiceQueue(output: working)
            voice.note { $0.output = working }
            voice.logLine(.notice, "voice: \(parts.device) works again; \(working.rawValue) from now on")
        } catch {
            failedAt = now
        }
    }
}
