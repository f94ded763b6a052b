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
    /// Speech synthesised as its cue arrived, during the buzzer's lead-in, so the words follow
    /// the pattern without the synthesis's delay (bounded: a few queued utterances at most).
    private var prepared: [(cue: Cue, audio: PCMBuffer)] = []

    /// A device that failed is tried again after this long (s): a dongle plugged back in or
    /// headphones that connect are heard within half a minute, and a missing device costs one
    /// failed open per 30 s, not one per callout.
    static let retryAfter = 30.0

    init(parts: Voice.Parts, voice: Voice) {
        self.parts = parts
        self.voice = voice
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
    mutating func receive(_ cues: [Cue]) {
        let now = voice.now()
        prepare(cues)
        take(cues, at: now)
        while let cue = pending {
            pending = nil
            speak(cue)
        }
    }

    /// Synthesises the new cues' words now, unless only the buzzer speaks. Never while playing:
    /// the chunks would wait for it.
    private mutating func prepare(_ cues: [Cue]) {
        guard let synthesizer, queue.output != .buzzer else { return }
        for cue in cues {
            guard let phrase = cue.phrase else { continue }
            guard let audio = try? synthesizer.synthesize(Phrasebook.text(phrase, in: parts.language)) else {
                continue  // said when its turn comes, with the error
            }
            prepared.append((cue, audio))
            if prepared.count > 8 { prepared.removeFirst() }
        }
    }

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
        let text = Phrasebook.text(phrase, in: parts.language)
        let audio: PCMBuffer
        let device: AlsaOutput
        do {
            if let ready = prepared.firstIndex(where: { $0.cue == cue }) {
                audio = prepared.remove(at: ready).audio
            } else {
                audio = try synthesizer.synthesize(text)
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
        do {
            let finished = try device.play(audio) {
                guard let cues = voice.takeWhilePlaying() else {
                    stopping = true
                    return true
                }
                take(cues, at: voice.now())
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
