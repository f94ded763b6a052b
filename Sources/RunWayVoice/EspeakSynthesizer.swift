import CEspeakNG
import Glibc
import Synchronization

/// libespeak-ng, synchronous: `espeak_Synth` returns when the whole utterance has been passed
/// to the synth callback, which appends it to a collector reached through espeak's `user_data`.
///
/// libespeak-ng keeps its state (the voice, the rate, the callback, the synthesis buffers) in
/// globals and is not thread-safe, so `EspeakSynthesizer.engine` — one process-wide lock —
/// guards opening the library (when the first synthesiser is made), initialisation and every
/// call into it, and each synthesiser sets its own voice and
/// rate under that lock before it speaks (skipped when they are already the engine's).
public final class EspeakSynthesizer: SpeechSynthesizer, Sendable {
    /// espeak-ng's accepted rates, words per minute (speak_lib.h's espeakRATE_MINIMUM/MAXIMUM).
    public static let rates = Int(espeakRATE_MINIMUM)...Int(espeakRATE_MAXIMUM)

    /// libespeak-ng's file name, as Debian's libespeak-ng1 installs it.
    static let library = "libespeak-ng.so.1"

    /// libespeak-ng's functions, from the library opened when the first synthesiser is made
    /// (nothing of espeak-ng is linked: see CEspeakNG's shim).
    struct Library: Sendable {
        let initialize: runway_espeak_initialize_f
        let setSynthCallback: runway_espeak_set_synth_callback_f
        let setVoiceByName: runway_espeak_set_voice_by_name_f
        let setParameter: runway_espeak_set_parameter_f
        let synth: runway_espeak_synth_f

        static func open() throws(VoiceError) -> Library {
            let espeak = try SharedLibrary.open(EspeakSynthesizer.library, package: "libespeak-ng1")
            return Library(
                initialize: try espeak.function("espeak_Initialize", as: runway_espeak_initialize_f.self),
                setSynthCallback: try espeak.function(
                    "espeak_SetSynthCallback", as: runway_espeak_set_synth_callback_f.self),
                setVoiceByName: try espeak.function(
                    "espeak_SetVoiceByName", as: runway_espeak_set_voice_by_name_f.self),
                setParameter: try espeak.function(
                    "espeak_SetParameter", as: runway_espeak_set_parameter_f.self),
                synth: try espeak.function("espeak_Synth", as: runway_espeak_synth_f.self))
        }
    }

    /// libespeak-ng, opened once, when the first synthesiser is made (a missing one stays
    /// `.libraryMissing` for the process). Apart from the engine's state: with the library an
    /// optional inside `Engine`, Swift 6.3's release build laid the lock's initial value out as
    /// zeros, `sampleRate` read as 0 rather than nil, and espeak-ng was never initialised.
    static let opened = Result { () throws(VoiceError) in try Library.open() }

    /// The engine's state, owned by its lock: the sample rate once initialised, and the voice and
    /// rate it was last given.
    struct Engine {
        var sampleRate: Int?
        var voice: String?
        var rate: Int?
    }

    static let engine = Mutex(Engine())

    public let voice: String
    public let rate: Int
    /// The engine's output rate (22 050 Hz for every espeak-ng voice).
    public let sampleRate: Int

    /// A synthesiser speaking with espeak-ng's voice `voice` ("en-us", "ko", … as
    /// `espeak-ng --voices` lists them) at `rate` words per minute.
    public init(voice: String, rate: Int = 160) throws(VoiceError) {
        guard Self.rates.contains(rate) else { throw .rateOutOfRange(rate: rate, range: Self.rates) }
        let result = Self.engine.withLock { engine -> Result<Int, VoiceError> in
            Result { () throws(VoiceError) in
                let (library, sampleRate) = try Self.initialise(&engine)
                try Self.select(voice: voice, rate: rate, with: library, in: &engine)
                return sampleRate
            }
        }
        self.voice = voice
        self.rate = rate
        self.sampleRate = try result.get()
    }

    public var description: String { "espeak-ng \(voice) \(rate) wpm" }

    /// Initialises libespeak-ng once per process (under the lock). DONT_EXIT: without it a
    /// missing espeak-ng-data makes the library call exit() instead of returning an error.
    private static func initialise(_ engine: inout Engine) throws(VoiceError) -> (Library, Int) {
        let library = try opened.get()
        if let sampleRate = engine.sampleRate { return (library, sampleRate) }
        let rate = library.initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, Int32(espeakINITIALIZE_DONT_EXIT))
        guard rate > 0 else { throw .engineFailed(engine: .espeak, code: rate) }
        library.setSynthCallback(collect)
        engine.sampleRate = Int(rate)
        return (library, Int(rate))
    }

    private static func select(
        voice: String, rate: Int, with library: Library, in engine: inout Engine
    ) throws(VoiceError) {
        if engine.voice != voice {
            engine.voice = nil
            guard library.setVoiceByName(voice) == EE_OK else {
                throw .voiceUnavailable(engine: .espeak, voice: voice)
            }
            engine.voice = voice
            engine.rate = nil  // a new voice resets the rate to its own
        }
        if engine.rate != rate {
            let status = library.setParameter(espeakRATE, Int32(rate), 0)
            guard status == EE_OK else { throw .engineFailed(engine: .espeak, code: status.rawValue) }
            engine.rate = rate
        }
    }

    public func synthesize(_ text: String) throws(VoiceError) -> PCMBuffer {
        try Speech.check(text)
        let collector = Collector()
        let status = Self.engine.withLock { engine -> Result<espeak_ERROR, VoiceError> in
            Result { () throws(VoiceError) in
                let (library, _) = try Self.initialise(&engine)
                try Self.select(voice: voice, rate: rate, with: library, in: &engine)
                let context = Unmanaged.passUnretained(collector).toOpaque()
                return text.withCString { bytes in
                    library.synth(
                        bytes, strlen(bytes) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, context)
                }
            }
        }
        let code = try status.get()
        guard code == EE_OK else { throw .engineFailed(engine: .espeak, code: code.rawValue) }
        return PCMBuffer(sampleRate: sampleRate, samples: collector.samples).trimmingSilence()
    }

    /// Where one utterance's samples go. Only the synth callback touches it, on the calling
    /// thread, while `synthesize` holds the engine's lock and keeps it alive.
    final class Collector {
        var samples: [Int16] = []
    }

    /// espeak-ng's synth callback: a C function pointer, so it captures nothing; the collector
    /// comes back through the events' `user_data`. Returns 0 to go on.
    private static let collect:
        @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?)
            -> Int32 = { samples, count, events in
                guard let context = events?.pointee.user_data else { return 0 }
                let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
                if let samples, count > 0 {
                    collector.samples.append(
                        contentsOf: UnsafeBufferPointer(start: samples, count: Int(count)))
                }
                return 0
            }
}
