import CAlsa
import Glibc
import RunWayCore

/// Why the board cannot speak. One case per cause, each carrying the code the library or the
/// system gave, and a message that says what to do about it.
public enum VoiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configuration names a language runway has no voice for.
    case unknownLanguage(String)
    /// The engine has no voice by that name (or cannot speak the language asked of it).
    case voiceUnavailable(engine: SpeechEngine, voice: String)
    /// The engine failed to start or to synthesise; `code` is its own error code.
    case engineFailed(engine: SpeechEngine, code: Int32)
    /// An engine's library (or one of its functions) could not be loaded when a voice first
    /// needed it (`SharedLibrary`): `library` the file, `package` the Debian package that installs
    /// it, `reason` the dynamic loader's words.
    case libraryMissing(library: String, package: String, reason: String)
    /// A speaking rate outside what the engine accepts.
    case rateOutOfRange(rate: Int, range: ClosedRange<Int>)
    /// Nothing to say (empty, or only white space).
    case textEmpty
    /// More text than `Speech.maximumTextLength` characters.
    case textTooLong(length: Int, limit: Int)
    /// No ALSA device by that name (`code`: ALSA's negative errno).
    case deviceMissing(device: String, code: Int32)
    /// The device exists but another program has it open.
    case deviceBusy(device: String)
    /// The device failed (at set-up or mid-play: unplugged, I/O error); `code` is ALSA's negative
    /// errno and `message` its snd_strerror text.
    case deviceFailed(device: String, code: Int32, message: String)
    /// The device accepted no audio for `seconds`: a write or a drain made no progress.
    case deviceStalled(device: String, seconds: Double)
    /// ALSA configuration text (`AlsaOutput(configuration:pcm:)`) did not parse.
    case configurationInvalid(code: Int32, message: String)
    /// Bytes that are not a WAV file runway reads (16-bit PCM, mono or stereo).
    case badWAV(String)
    /// A file could not be read or written; `errno` is the system's code.
    case fileFailed(path: String, errno: Int32)
    /// The path names something that is not a regular file (a device, a folder).
    case notAFile(path: String)
    /// More audio than a WAV file's 32-bit sizes can hold.
    case tooLong(path: String, frames: Int, sampleRate: Int)

    /// The Debian package that provides an engine's voices.
    static func package(for engine: SpeechEngine) -> String {
        switch engine {
        case .espeak: "espeak-ng-data"
        case .flite: "flite (libflite1: slt, kal)"
        }
    }

    public var description: String {
        switch self {
        case .unknownLanguage(let code):
            "unknown language \"\(code)\" (runway speaks "
                + VoiceLanguage.allCases.map(\.rawValue).joined(separator: ", ") + ")"
        case .voiceUnavailable(let engine, let voice):
            "\(engine.rawValue) has no voice \"\(voice)\" (it comes with the Debian package "
                + "\(Self.package(for: engine)); `espeak-ng --voices` lists espeak-ng's)"
        case .engineFailed(let engine, let code):
            "\(engine.rawValue) failed (error \(code)); is \(Self.package(for: engine)) installed intact?"
        case .libraryMissing(let library, let package, let reason):
            "\(library) could not be loaded (\(reason)); install the Debian package \(package)"
        case .rateOutOfRange(let rate, let range):
            "a speaking rate of \(rate) words per minute is outside \(range.lowerBound)–\(range.upperBound)"
        case .textEmpty:
            "there is no text to speak"
        case .textTooLong(let length, let limit):
            "\(length) characters is more than the \(limit) a callout may have (split it)"
        case .deviceMissing(let device, let code):
            "no sound device \"\(device)\" (\(Self.alsaMessage(code))); see `aplay -L` for the names"
        case .deviceBusy(let device):
            "the sound device \"\(device)\" is busy: another program holds it (`fuser -v /dev/snd/*`)"
        case .deviceFailed(let device, let code, let message):
            "the sound device \"\(device)\" failed: \(message) (ALSA error \(code)); is it still plugged in?"
        case .deviceStalled(let device, let seconds):
            "the sound device \"\(device)\" took no audio for \(seconds) s (a stuck driver or a paused server)"
        case .configurationInvalid(let code, let message):
            "the ALSA configuration does not parse: \(message) (ALSA error \(code))"
        case .badWAV(let reason):
            "not a WAV file runway can play: \(reason) (16-bit PCM, mono or stereo, is what it reads)"
        case .fileFailed(let path, let errno):
            "\(path): \(String(cString: strerror(errno))) (errno \(errno))"
        case .notAFile(let path):
            "\(path) exists and is not a regular file: give the path of a .wav file to write"
        case .tooLong(let path, let frames, let sampleRate):
            "\(path): \(frames / max(1, sampleRate) / 3600) hours of audio is more than a WAV file can hold (37 h at 16 kHz)"
        }
    }

    /// ALSA's text for one of its (negative errno) codes.
    static func alsaMessage(_ code: Int32) -> String {
        guard let text = snd_strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
