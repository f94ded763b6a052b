import RunWayControl
import RunWayCore
import RunWayVoice

/// `runway say`: one phrase through the board's own phrase tables, synthesiser and ALSA output.
public enum SayCommand {
    public struct Request: Sendable {
        public var phrase = Phrase.voiceCheck
        public var voice = DaemonConfiguration.Voice()
        /// A WAV file to write instead of playing.
        public var file: String?

        public init() {}
    }

    public static func run(_ request: Request, console: Console) throws(CLIError) -> Int32 {
        let text = Phrasebook.text(request.phrase, in: request.voice.language)
        do {
            let synthesizer = try Speech.synthesizer(
                language: request.voice.language, settings: settings(request.voice))
            let audio = try synthesizer.synthesize(text)
            if let file = request.file {
                try WAVFile.write(audio, to: file)
                console.out(
                    "\(file): \"\(text)\" (\(String(format: "%.2f", audio.duration)) s, \(synthesizer.description))"
                )
            } else {
                let device = try AlsaOutput(device: request.voice.device)
                defer { device.close() }
                _ = try device.play(audio) { false }
                console.out("\"\(text)\" on \(request.voice.device) (\(synthesizer.description))")
            }
        } catch {
            throw CLIError("\(error)")
        }
        return 0
    }

    /// The configuration's voice settings as the synthesiser takes them.
    public static func settings(_ voice: DaemonConfiguration.Voice) -> VoiceSettings {
        VoiceSettings(
            engine: voice.engine.flatMap(SpeechEngine.init(rawValue:)), voice: voice.name, rate: voice.rate)
    }
}
