import Foundation
import RunWayControl
import RunWayCore
import RunWayVoice

extension RunWayCommand {
    /// `runway say`.
    struct Say: Subcommand {
        static let declaration = CommandDeclaration(
            "say", group: .board,
            abstract: "speak any callout (with example numbers) or any text, as the board says it",
            discussion:
                "NAME is a callout as runwayd says it, with example numbers. The language, the engine, its voice and rate and the ALSA device are the configuration's voice settings unless given here. With --to the speech is written to a WAV file instead of played.",
            arguments: [.init("NAME", help: Phrase.exampleNames.joined(separator: ", "), required: false)],
            options: [
                .init("--text", value: "TEXT", help: "say this text instead of a callout"),
                .init(
                    "--lang", value: "L",
                    help: "en or ko (default: the configuration's voice.language, else en)"),
                .init(
                    "--to", value: "FILE.wav", help: "write the speech to this WAV file instead of playing it"
                ),
                .init("--device", value: "ALSA", help: "the ALSA device to play on (default: voice.device)"),
                .init("--config", value: "FILE", help: "runwayd's configuration, for its voice settings"),
            ],
            examples: [
                "runway say split", "runway say sink-rate --lang ko",
                "runway say touchdown --to /tmp/touchdown.wav",
                "runway say --text \"five kilometres to go\"",
            ])

        let request: SayCommand.Request

        init(_ arguments: ParsedArguments) throws(CLIError) {
            var request = SayCommand.Request()
            request.voice = try arguments.configuration().voice
            let configured = request.voice.language
            switch (arguments.argument("NAME"), arguments.value("--text")) {
            case (let name?, nil):
                guard let phrase = Phrase.example(named: name) else {
                    throw .usage(
                        "unknown callout \"\(name)\" (\(Phrase.exampleNames.joined(separator: ", ")))")
                }
                request.phrase = phrase
            case (nil, let text?): request.phrase = .text(text)
            case (nil, nil): throw .usage("say needs a callout's NAME or --text TEXT")
            case (_?, _?): throw .usage("say takes a callout's NAME or --text TEXT, not both")
            }
            if arguments.value("--lang") != nil {
                request.voice.language = try arguments.language()
                // The configured engine and voice are for the configured language: another
                // language takes its own defaults (flite speaks no Korean).
                if request.voice.language != configured {
                    request.voice.engine = nil
                    request.voice.name = nil
                }
            }
            if let device = arguments.value("--device") { request.voice.device = device }
            request.file = arguments.value("--to")
            self.request = request
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try SayCommand.run(request, console: console)
        }
    }
}
