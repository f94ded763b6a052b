import RunWayCore
import RunWayHardware

/// What a flight would have sounded like (`runway demo --audio`, `runway fly --audio`): the cues
/// of a whole flight run through the same `VoiceQueue` as on the board, on a virtual clock, with
/// each utterance's real synthesised length — so an utterance a warning cut short is cut here
/// too, a stale one is not said, and the buzzer's tones sit where the board would play them.
public struct FlightAudio: Sendable {
    /// One utterance as heard.
    public struct Utterance: Sendable {
        /// Seconds from ROTATE when it began.
        public var elapsed: Double
        public var kind: Phrase.Kind
        public var text: String
        /// What was played: cut short when a warning interrupted it.
        public var audio: PCMBuffer
        public var interrupted: Bool
    }

    public var utterances: [Utterance] = []
    /// The whole flight as heard, buzzer tones and speech, as what sounds where: each at its
    /// offset (s) from the track's start, at `sampleRate`. The track itself is mixed a window at
    /// a time (`samples(from:count:)`): a day-long flight's is gigabytes, never whole in memory.
    public var placements: [(audio: PCMBuffer, at: Double)] = []
    public var sampleRate: Int
    /// Seconds from ROTATE at which the track begins (negative: before it, the countdown).
    public var trackOffset: Double
    public var language: VoiceLanguage

    /// The track's length in samples: to the end of its last sound.
    public var trackFrames: Int {
        placements.map { Int(($0.at * Double(sampleRate)).rounded()) + $0.audio.samples.count }.max() ?? 0
    }

    /// The track's samples `start ..< start + count`: every sound overlapping them, mixed.
    public func samples(from start: Int, count: Int) -> [Int16] {
        var mixed = [Int32](repeating: 0, count: count)
        for (audio, at) in placements {
            let offset = Int((at * Double(sampleRate)).rounded())
            let from = max(start, offset)
            let to = min(start + count, offset + audio.samples.count)
            guard from < to else { continue }
            for index in from..<to { mixed[index - start] += Int32(audio.samples[index - offset]) }
        }
        return mixed.map { Int16(clamping: $0) }
    }

    /// The whole track at once (a short flight, tests).
    public var track: PCMBuffer {
        PCMBuffer(sampleRate: sampleRate, samples: samples(from: 0, count: trackFrames))
    }

    /// The buzzer's tone in the track: an active buzzer's typical pitch (2.3 kHz) is shrill
    /// through headphones; 1.8 kHz at a third of full scale sits under the voice.
    static let buzzerPitch = 1800.0
    static let buzzerLevel = 0.3

    /// Renders `cues` (their `time` on the flight's axis) heard through `output`.
    /// - Parameter rotate: the flight's ROTATE time on that axis.
    public static func render(
        _ cues: [Cue], rotate: Double, language: VoiceLanguage, units: DistanceUnit = .kilometre,
        output: VoiceOutput, synthesizer: any SpeechSynthesizer
    ) throws(VoiceError) -> FlightAudio {
        let ordered = cues.sorted { $0.time < $1.time }
        let start = min(rotate, ordered.first?.time ?? rotate) - 0.5
        var run = Run(
            queue: VoiceQueue(output: output), language: language, units: units, synthesizer: synthesizer)
        try run.fly(ordered)
        let sampleRate = run.utterances.first?.audio.sampleRate ?? 22_050
        var placements: [(audio: PCMBuffer, at: Double)] = run.tones(sampleRate: sampleRate).map {
            ($0.0, $0.1 - start)
        }
        var utterances: [Utterance] = []
        for heard in run.utterances {
            let audio =
                heard.audio.sampleRate == sampleRate ? heard.audio : heard.audio.resampled(to: sampleRate)
            placements.append((audio, heard.at - start))
            utterances.append(
                Utterance(
                    elapsed: heard.at - rotate, kind: heard.kind, text: heard.text, audio: heard.audio,
                    interrupted: heard.interrupted))
        }
        return FlightAudio(
            utterances: utterances, placements: placements, sampleRate: sampleRate,
            trackOffset: start - rotate,
            language: language)
    }

    /// The queue on a virtual clock.
    private struct Run {
        var queue: VoiceQueue
        let language: VoiceLanguage
        let units: DistanceUnit
        let synthesizer: any SpeechSynthesizer
        var buzzes: [(pattern: BuzzerPattern, urgent: Bool, at: Double)] = []
        var utterances: [(at: Double, kind: Phrase.Kind, text: String, audio: PCMBuffer, interrupted: Bool)] =
            []
        /// The utterance playing and when it ends.
        var speaking: (index: Int, end: Double)?

        mutating func fly(_ cues: [Cue]) throws(VoiceError) {
            var next = 0
            var now = -Double.infinity
            // Each step handles one event; a flight has a few hundred cues at most, and every
            // step either takes a cue, ends an utterance or passes a deadline.
            for _ in 0..<(cues.count * 16 + 64) {
                let cueAt = next < cues.count ? cues[next].time : Double.infinity
                let endAt = speaking?.end ?? .infinity
                let deadline = queue.nextDeadline.map { max($0, now) } ?? .infinity
                now = min(cueAt, endAt, deadline)
                guard now.isFinite else { return }
                if endAt <= now {
                    speaking = nil
                    try perform(queue.speechEnded(at: now), at: now)
                } else if deadline <= now, deadline < cueAt {
                    try perform(queue.advance(to: now), at: now)
                    if let still = queue.nextDeadline, still <= now { now = now.nextUp }
                } else {
                    try perform(queue.add(cues[next], at: now), at: now)
                    next += 1
                }
            }
        }

        mutating func perform(_ actions: [VoiceQueue.Action], at now: Double) throws(VoiceError) {
            for action in actions {
                switch action {
                case .buzz(let pattern, let urgent): buzzes.append((pattern, urgent, now))
                case .speak(let cue):
                    guard let phrase = cue.phrase else { continue }
                    let text = Phrasebook.text(phrase, in: language, units: units)
                    let audio = try synthesizer.synthesize(text)
                    utterances.append((now, phrase.kind, text, audio, false))
                    speaking = (utterances.count - 1, now + audio.duration + VoiceQueue.gapAfterWords)
                case .stopSpeaking:
                    guard let (index, _) = speaking else { continue }
                    let heard = utterances[index]
                    let kept = Int(max(0, now - heard.at) * Double(heard.audio.sampleRate))
                    utterances[index].audio.samples = Array(heard.audio.samples.prefix(kept))
                    utterances[index].interrupted = true
                    speaking = nil
                    try perform(queue.speechEnded(at: now), at: now)
                case .dropped: break
                }
            }
        }

        /// The buzzer's tones as the board's `PatternPlayer` plays the queued patterns.
        func tones(sampleRate: Int) -> [(PCMBuffer, Double)] {
            var player = PatternPlayer()
            var changes: [(time: Double, on: Bool)] = []
            for buzz in buzzes {
                changes += player.advance(to: buzz.at)
                let wasOn = player.isOn
                player.play(buzz.pattern, urgent: buzz.urgent, at: buzz.at)
                if player.isOn != wasOn {
                    changes.append((buzz.at, player.isOn))
                }
            }
            changes += player.advance(to: .infinity)
            var tones: [(PCMBuffer, Double)] = []
            var onSince: Double?
            for change in changes {
                if change.on {
                    if onSince == nil { onSince = change.time }
                } else if let since = onSince {
                    let tone = PCMBuffer.tone(
                        frequency: FlightAudio.buzzerPitch, seconds: change.time - since,
                        sampleRate: sampleRate,
                        amplitude: FlightAudio.buzzerLevel)
                    tones.append((tone, since))
                    onSince = nil
                }
            }
            return tones
        }
    }
}
