import RunWayCore
import RunWayHardware
import RunWayVoice

/// Words synthesised ahead of their turn, by their text: the voice thread's only store of audio.
///
/// The phrases without numbers (the countdown, ROTATE, GPS lost and back, pause, resume, each
/// fault, …) are synthesised once while the board idles in preflight and kept: on the emulated
/// board (qemu without KVM) synthesis took 1.4 s for SIGNAL LOST, which the words then waited
/// for; kept, they start at once. Phrases with numbers are synthesised as their cue arrives
/// (during the pattern's lead-in) and kept only while their turn may come.
struct SpeechCache {
    /// Every phrase a flight may say whose words never change, in `language`.
    static func fixedTexts(_ language: VoiceLanguage) -> [String] {
        var phrases: [Phrase] = [.countdown(3), .countdown(2), .countdown(1), .rotate, .signalLost, .gpsBack]
        phrases += [
            .pause(.stopped), .pause(.manual), .resume, .tooShort, .gpsReady, .exportDone, .exportFailed,
        ]
        phrases += BoardFault.allCases.map { .fault($0) }
        phrases += Phrase.Sensor.allCases.flatMap { [Phrase.sensorLost($0), .sensorBack($0)] }
        return phrases.map { Phrasebook.text($0, in: language) }
    }

    /// The recent phrases with numbers kept (a few cues queued at most).
    static let recentLimit = 8

    private let fixed: Set<String>
    private var kept: [String: PCMBuffer] = [:]
    private var recent: [(text: String, audio: PCMBuffer)] = []
    private var warmups: [String]

    init(language: VoiceLanguage) {
        let texts = Self.fixedTexts(language)
        fixed = Set(texts)
        warmups = texts
    }

    func audio(for text: String) -> PCMBuffer? {
        kept[text] ?? recent.last { $0.text == text }?.audio
    }

    mutating func store(_ audio: PCMBuffer, for text: String) {
        if fixed.contains(text) {
            kept[text] = audio
            warmups.removeAll { $0 == text }
        } else if !recent.contains(where: { $0.text == text }) {
            recent.append((text, audio))
            if recent.count > Self.recentLimit { recent.removeFirst() }
        }
    }

    /// The next fixed phrase not yet synthesised, if any.
    var nextWarmup: String? { warmups.first }

    /// A phrase that would not synthesise is not tried again (its error is said when it is due).
    mutating func skipWarmup(_ text: String) { warmups.removeAll { $0 == text } }
}
