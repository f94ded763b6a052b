import CFlite
import Synchronization

/// flite, English only: `flite_text_to_wave` gives the whole utterance as a `cst_wave`, copied
/// out and deleted. flite's voices are process-wide objects whose feature tables synthesis reads
/// and writes, so one lock (`FliteSynthesizer.engine`) guards `flite_init`, the voices'
/// registration and every synthesis.
public final class FliteSynthesizer: SpeechSynthesizer, Sendable {
    /// The voices Debian's flite links here: "slt" (female, 16 kHz) and "kal" (male diphone,
    /// 8 kHz).
    public static let voices = ["slt", "kal"]

    /// The words per minute taken to be flite's own pace (a duration stretch of 1): flite has
    /// no rate setting, only the stretch. Measured: unstretched, slt says "sink rate, pace six
    /// ten, target five thirty" in 3.38 s, espeak-ng at 160 wpm in 3.51 s, so 175 is within
    /// 10 % of espeak-ng's meaning of a rate.
    static let naturalRate = 175
    /// The rates accepted (stretch 2.2 … 0.5): a bound on nonsense, not a listening result
    /// (the tests speak at 120, 175 and 240).
    public static let rates = 80...350

    /// The engine's state, owned by its lock: registered voices. The pointers are flite's and
    /// live for the process (flite never frees a registered voice).
    struct Engine {
        var initialised = false
        var voices: [String: UnsafeMutablePointer<cst_voice>] = [:]
    }

    static let engine = Mutex(Engine())

    public let voice: String
    public let rate: Int

    /// A synthesiser speaking with flite's voice `voice` ("slt" or "kal") at `rate` words per
    /// minute.
    public init(voice: String, rate: Int = 175) throws(VoiceError) {
        guard Self.rates.contains(rate) else { throw .rateOutOfRange(rate: rate, range: Self.rates) }
        let found = Self.engine.withLock { engine in Self.register(voice, in: &engine) != nil }
        guard found else { throw .voiceUnavailable(engine: .flite, voice: voice) }
        self.voice = voice
        self.rate = rate
    }

    public var description: String { "flite \(voice) \(rate) wpm" }

    private static func register(_ name: String, in engine: inout Engine) -> UnsafeMutablePointer<cst_voice>?
    {
        if !engine.initialised {
            _ = flite_init()
            engine.initialised = true
        }
        if let voice = engine.voices[name] { return voice }
        let voice: UnsafeMutablePointer<cst_voice>? =
            switch name {
            case "slt": register_cmu_us_slt(nil)
            case "kal": register_cmu_us_kal(nil)
            default: nil
            }
        if let voice { engine.voices[name] = voice }
        return voice
    }

    public func synthesize(_ text: String) throws(VoiceError) -> PCMBuffer {
        try Speech.check(text)
        let stretch = Float(Self.naturalRate) / Float(rate)
        let result = Self.engine.withLock { engine -> PCMBuffer? in
            guard let voice = Self.register(voice, in: &engine) else { return nil }
            feat_set_float(voice.pointee.features, "duration_stretch", stretch)
            guard let wave = flite_text_to_wave(text, voice) else { return nil }
            defer { delete_wave(wave) }
            let channels = max(1, Int(wave.pointee.num_channels))
            let count = max(0, Int(wave.pointee.num_samples))
            var samples = [Int16](repeating: 0, count: count)
            if let source = wave.pointee.samples {
                for index in 0..<count { samples[index] = source[index * channels] }
            }
            return PCMBuffer(sampleRate: Int(wave.pointee.sample_rate), samples: samples)
        }
        guard let result else { throw .engineFailed(engine: .flite, code: -1) }
        return result.trimmingSilence()
    }
}
