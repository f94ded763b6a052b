import RunWayControl
import RunWayCore
import RunWayVoice

/// The takeoff checklist's VOICE line: the configured ALSA device opened (runwayd opens it only
/// while it speaks, so the checklist can open it between callouts) and, with `--interactive`, a
/// phrase played and the runner asked whether it was heard.
enum ChecklistVoice: Sendable, Equatable {
    /// `voice.output` is `buzzer`: nothing to check.
    case off
    /// The device opened; `heard` is the runner's answer with `--interactive`.
    case present(device: String, engine: String, heard: Bool?)
    /// The device (or the voice) failed; `configured` when `voice.output` asks for the voice.
    case failed(device: String, reason: String, configured: Bool)

    /// Opens the device, and with `interactive` says the voice check and asks.
    static func check(_ voice: DaemonConfiguration.Voice, interactive: Bool, console: Console)
        -> ChecklistVoice
    {
        guard voice.output != .buzzer else { return .off }
        do {
            let synthesizer = try Speech.synthesizer(
                language: voice.language, settings: SayCommand.settings(voice))
            let device = try AlsaOutput(device: voice.device)
            guard interactive else {
                device.close()
                return .present(device: voice.device, engine: synthesizer.description, heard: nil)
            }
            console.out("  voice: \(Phrasebook.text(.voiceCheck, in: voice.language))")
            do {
                let words = try synthesizer.synthesize(Phrasebook.text(.voiceCheck, in: voice.language))
                _ = try device.play(words) { false }
            } catch {
                device.close()
                throw error
            }
            // Closed before the question: runwayd's callouts must not find it busy meanwhile.
            device.close()
            console.out("Did you hear the voice? [y/N]")
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            return .present(
                device: voice.device, engine: synthesizer.description, heard: ["y", "yes"].contains(answer))
        } catch {
            return .failed(device: voice.device, reason: "\(error)", configured: voice.output != nil)
        }
    }

    var item: Checklist.Item {
        switch self {
        case .off:
            return Checklist.Item(
                name: "VOICE", verdict: .unknown, required: false, detail: "off (voice.output is buzzer)")
        case .present(let device, let engine, let heard):
            let ok = heard != false
            return Checklist.Item(
                name: "VOICE", verdict: ok ? .ok : .notOK, required: heard != nil,
                detail: "\(device) opens, \(engine)" + (heard == nil ? "" : ok ? ", heard" : ": not heard"),
                note: heard == nil
                    ? "the device opens; --interactive plays a phrase and asks whether you heard it" : nil)
        case .failed(let device, let reason, let configured):
            return Checklist.Item(
                name: "VOICE", verdict: configured ? .notOK : .unknown, required: false,
                detail: configured
                    ? reason : "no audio device at \(device): the buzzer alone tells the runner",
                note: configured ? "runwayd runs with the buzzer alone until the device works" : nil)
        }
    }
}
