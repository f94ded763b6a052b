import RunWayCore

/// The two offline synthesisers Debian packages.
public enum SpeechEngine: String, Sendable, CaseIterable {
    /// libespeak-ng: formant synthesis, every language runway speaks (22 050 Hz).
    case espeak = "espeak-ng"
    /// flite (CMU): diphone and cluster-unit English voices, "slt" and "kal" (16 kHz / 8 kHz).
    case flite
}

/// How the board speaks (the `voice.*` settings). Every nil means "the language's default"
/// (`Speech.defaults(for:)`).
public struct VoiceSettings: Sendable, Equatable {
    public var engine: SpeechEngine?
    /// The engine's voice name (espeak-ng: "en-us", "ko", …; flite: "slt", "kal").
    public var voice: String?
    /// Words per minute (espeak-ng takes 80–450).
    public var rate: Int?

    public init(engine: SpeechEngine? = nil, voice: String? = nil, rate: Int? = nil) {
        self.engine = engine
        self.voice = voice
        self.rate = rate
    }
}

/// Text to audio. Each call is synchronous and returns the whole utterance.
public protocol SpeechSynthesizer: AnyObject {
    /// What speaks, e.g. "espeak-ng ko 160 wpm".
    var description: String { get }
    func synthesize(_ text: String) throws(VoiceError) -> PCMBuffer
}

/// Choosing and checking a synthesiser.
public enum Speech {
    /// The longest text a synthesiser takes, in characters. Synthesis is synchronous and holds
    /// its engine's process-wide lock for the whole utterance, so one long text would hold up
    /// every callout behind it. Measured on the x86 development machine, 986 characters is 70 s of
    /// speech and took 0.04 s of CPU with espeak-ng, 0.85 s with flite "slt" (a board is a few
    /// times slower): the limit keeps the worst case to seconds. A callout is under 100
    /// characters. Longer text is refused (`.textTooLong`), never cut.
    public static let maximumTextLength = 1000

    /// The default engine, voice and rate for a language: the one place they are written down
    /// (to be revised after a listening test). English: flite's "slt" (the clearer of the two
    /// English voices Debian ships). Korean: espeak-ng's "ko", the only Korean voice there is.
    public static func defaults(for language: VoiceLanguage) -> (
        engine: SpeechEngine, voice: String, rate: Int
    ) {
        switch language {
        case .english: (.flite, "slt", 170)
        case .korean: (.espeak, "ko", 160)
        }
    }

    /// espeak-ng's default voice for a language when the settings pick espeak-ng but no voice.
    static func espeakVoice(for language: VoiceLanguage) -> String {
        switch language {
        case .english: "en-us"
        case .korean: "ko"
        }
    }

    /// The language a configuration code names ("en", "ko").
    public static func language(_ code: String) throws(VoiceError) -> VoiceLanguage {
        guard let language = VoiceLanguage(rawValue: code) else { throw .unknownLanguage(code) }
        return language
    }

    /// The synthesiser for a language: the settings' engine, voice and rate, each falling back
    /// to `defaults(for:)`.
    public static func synthesizer(
        language: VoiceLanguage, settings: VoiceSettings = .init()
    ) throws(VoiceError) -> any SpeechSynthesizer {
        let fallback = defaults(for: language)
        let engine = settings.engine ?? fallback.engine
        let rate = settings.rate ?? fallback.rate
        switch engine {
        case .espeak:
            let voice =
                settings.voice ?? (engine == fallback.engine ? fallback.voice : espeakVoice(for: language))
            return try EspeakSynthesizer(voice: voice, rate: rate)
        case .flite:
            guard language == .english else {
                throw .voiceUnavailable(engine: .flite, voice: settings.voice ?? language.rawValue)
            }
            let voice = settings.voice ?? (engine == fallback.engine ? fallback.voice : "slt")
            return try FliteSynthesizer(voice: voice, rate: rate)
        }
    }

    /// Refuses text no synthesiser should be given: empty, or longer than `maximumTextLength`.
    static func check(_ text: String) throws(VoiceError) {
        let length = text.count
        guard length <= maximumTextLength else {
            throw .textTooLong(length: length, limit: maximumTextLength)
        }
        guard text.contains(where: { !$0.isWhitespace }) else { throw .textEmpty }
    }
}
