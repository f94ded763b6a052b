import CFlite
import Synchronization

/// flite, English only: `flite_text_to_wave` gives the whole utterance as a `cst_wave`, copied
/// out and deleted. flite's voices are process-wide objects whose feature tables synthesis reads
/// and writes, so one lock (`FliteSynthesizer.engine`) guards the voices' registration and every
/// synthesis (libflite is opened and `flite_init` called once, `opened`). Nothing of flite is linked (see CFlite's shim):
/// libflite and the one voice that speaks are opened the first time it speaks.
public final class FliteSynthesizer: SpeechSynthesizer, Sendable {
    /// The voices Debian's libflite1 installs, each a library of its own opened only when it first
    /// speaks (`library(of:)`): "kal16" (male diphone, 16 kHz: the best understood
    /// in the listening test, `Speech.defaults`), "rms" (male, 16 kHz), "slt" (female, 16 kHz)
    /// and "kal" (the 8 kHz diphone).
    public static let voices = ["kal16", "rms", "slt", "kal"]

    /// The words per minute taken to be flite's own pace (a duration stretch of 1): flite has
    /// no rate setting, only the stretch. Measured: unstretched, slt says "sink rate, pace six
    /// ten, target five thirty" in 3.38 s, espeak-ng at 160 wpm in 3.51 s, so 175 is within
    /// 10 % of espeak-ng's meaning of a rate.
    static let naturalRate = 175
    /// The rates accepted (stretch 2.2 … 0.5): a bound on nonsense, not a listening result
    /// (the tests speak at 120, 175 and 240).
    public static let rates = 80...350

    /// The Debian package that installs libflite and the voices' libraries.
    static let package = "libflite1"
    /// libflite's own file name (the engine; each voice is `library(of:)`).
    static let engineLibrary = "libflite.so.1"

    /// libflite's functions, from the library opened when a voice first speaks.
    struct Library: Sendable {
        let textToWave: runway_flite_text_to_wave_f
        let setFloat: runway_feat_set_float_f
        let deleteWave: runway_delete_wave_f

        /// Opens libflite and calls `flite_init`.
        static func open() throws(VoiceError) -> Library {
            let flite = try SharedLibrary.open(
                FliteSynthesizer.engineLibrary, package: FliteSynthesizer.package)
            let initialise = try flite.function("flite_init", as: runway_flite_init_f.self)
            let library = Library(
                textToWave: try flite.function("flite_text_to_wave", as: runway_flite_text_to_wave_f.self),
                setFloat: try flite.function("feat_set_float", as: runway_feat_set_float_f.self),
                deleteWave: try flite.function("delete_wave", as: runway_delete_wave_f.self))
            _ = initialise()
            return library
        }
    }

    /// libflite, opened (and `flite_init` called) once, when a voice first speaks; a missing one
    /// stays `.libraryMissing` for the process. Kept apart from the engine's state, as
    /// EspeakSynthesizer's `opened` must be.
    static let opened = Result { () throws(VoiceError) in try Library.open() }

    /// The engine's state, owned by its lock: the voices registered. The pointers are flite's and
    /// live for the process (flite never frees a registered voice, and its library is never
    /// closed).
    struct Engine {
        var voices: [String: UnsafeMutablePointer<cst_voice>] = [:]
    }

    static let engine = Mutex(Engine())

    public let voice: String
    public let rate: Int

    /// A synthesiser speaking with flite's voice `voice` (one of `voices`) at `rate` words per
    /// minute. Nothing is loaded yet: libflite and the voice's library are opened when it first
    /// speaks (a missing one is then `.libraryMissing`, naming the file and the package).
    public init(voice: String, rate: Int = 175) throws(VoiceError) {
        guard Self.rates.contains(rate) else { throw .rateOutOfRange(rate: rate, range: Self.rates) }
        guard Self.voices.contains(voice) else { throw .voiceUnavailable(engine: .flite, voice: voice) }
        self.voice = voice
        self.rate = rate
    }

    public var description: String { "flite \(voice) \(rate) wpm" }

    /// The voice's library, e.g. "libflite_cmu_us_kal16.so.1" (Debian's libflite1 installs each
    /// voice as a library of its own).
    static func library(of voice: String) -> String { "libflite_cmu_us_\(voice).so.1" }

    /// libflite and the voice `name`, each opened and registered the first time (under the lock).
    private static func load(_ name: String, in engine: inout Engine) throws(VoiceError) -> (
        Library, UnsafeMutablePointer<cst_voice>
    ) {
        let library = try opened.get()
        if let voice = engine.voices[name] { return (library, voice) }
        let file = try SharedLibrary.open(Self.library(of: name), package: package)
        let register = try file.function("register_cmu_us_\(name)", as: runway_flite_register_voice_f.self)
        guard let voice = register(nil) else { throw .voiceUnavailable(engine: .flite, voice: name) }
        engine.voices[name] = voice
        return (library, voice)
    }

    public func synthesize(_ text: String) throws(VoiceError) -> PCMBuffer {
        try Speech.check(text)
        let stretch = Float(Self.naturalRate) / Float(rate)
        let result = Self.engine.withLock { engine -> Result<PCMBuffer?, VoiceError> in
            Result { () throws(VoiceError) -> PCMBuffer? in
                let (flite, voice) = try Self.load(voice, in: &engine)
                flite.setFloat(voice.pointee.features, "duration_stretch", stretch)
                guard let wave = flite.textToWave(text, voice) else { return nil }
                defer { flite.deleteWave(wave) }
                let channels = max(1, Int(wave.pointee.num_channels))
                let count = max(0, Int(wave.pointee.num_samples))
                var samples = [Int16](repeating: 0, count: count)
                if let source = wave.pointee.samples {
                    for index in 0..<count { samples[index] = source[index * channels] }
                }
                return PCMBuffer(sampleRate: Int(wave.pointee.sample_rate), samples: samples)
            }
        }
        guard let result = try result.get() else { throw .engineFailed(engine: .flite, code: -1) }
        return result.trimmingSilence()
    }
}
