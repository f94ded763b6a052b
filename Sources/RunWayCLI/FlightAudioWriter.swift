import Foundation
import RunWayCore
import RunWayVoice
import Synchronization

/// `--audio DIR` of `runway demo` and `runway fly`: hears the flight as the board would (an
/// observer of the engine, `Narration` as runwayd's), and afterwards writes what it would have
/// said: `DIR/callouts.json`, one WAV per utterance and `DIR/track.wav`, the whole flight as
/// heard (buzzer tones and speech).
final class FlightAudioWriter: FlightObserver, Sendable {
    private struct Heard {
        var narration = Narration()
        var cues: [Cue] = []
        var rotate: Double?
    }
    private let heard = Mutex(Heard())

    func engine(_ engine: isolated FlightEngine, told event: FlightEvent) {
        guard case .flew(_, let outputs) = event else { return }
        heard.withLock { heard in
            for case .began(let rotate, _, _, _, _) in outputs { heard.rotate = rotate }
            heard.cues += heard.narration.cues(for: outputs)
        }
    }

    /// Writes the files into `directory` (made if missing); returns the lines to print.
    func write(
        to directory: String, language: VoiceLanguage, units: DistanceUnit = .kilometre,
        settings: VoiceSettings = .init(), output: VoiceOutput = .both
    ) throws(CLIError) -> [String] {
        let (cues, rotate) = heard.withLock { ($0.cues, $0.rotate) }
        guard let rotate else { throw CLIError("--audio: the flight never took off, so nothing was said") }
        let audio: FlightAudio
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CLIError("--audio: cannot make \(directory): \(error.localizedDescription)")
        }
        do {
            let synthesizer = try Speech.synthesizer(language: language, settings: settings)
            audio = try FlightAudio.render(
                cues, rotate: rotate, language: language, units: units, output: output,
                synthesizer: synthesizer)
            var entries: [JSONValue] = []
            for (index, utterance) in audio.utterances.enumerated() {
                let file = String(format: "%03d-%@.wav", index + 1, utterance.kind.rawValue)
                try WAVFile.write(utterance.audio, to: (directory as NSString).appendingPathComponent(file))
                entries.append(
                    .object([
                        ("elapsed_s", .number(utterance.elapsed, places: 2)),
                        ("kind", .string(utterance.kind.rawValue)), ("text", .string(utterance.text)),
                        ("file", .string(file)), ("duration_s", .number(utterance.audio.duration, places: 2)),
                        ("interrupted", .bool(utterance.interrupted)),
                    ]))
            }
            try WAVFile.write(
                sampleRate: audio.sampleRate, frames: audio.trackFrames,
                to: (directory as NSString).appendingPathComponent("track.wav"),
                fill: audio.samples(from:count:))
            let document = JSONValue.object([
                ("language", .string(language.rawValue)), ("output", .string(output.rawValue)),
                ("track", .string("track.wav")), ("track_offset_s", .number(audio.trackOffset, places: 2)),
                ("utterances", .array(entries)),
            ])
            let path = (directory as NSString).appendingPathComponent("callouts.json")
            guard
                FileManager.default.createFile(
                    atPath: path, contents: Data((document.rendered() + "\n").utf8))
            else {
                throw CLIError("--audio: cannot write \(path)")
            }
        } catch let error as VoiceError {
            throw CLIError("--audio: \(error)")
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("--audio: \(error)")
        }
        return [
            "Audio: \(audio.utterances.count) utterances and the track (\(audio.trackFrames / max(1, audio.sampleRate)) s) in \(directory)"
        ]
    }
}
