import Foundation
import RunWayTestSupport
import Testing

@testable import RunWayVoice

/// The English callouts as an independent listener hears them: every `runway say` example, said
/// by the real default synthesiser (`Speech.synthesizer(language: .english)`), transcribed by
/// pocketsphinx's default en-us model (scripts/interop-venv.sh; Fixtures/voice/recognise.py adds
/// the faint noise a microphone would and says why). An offline recogniser is a harsher listener
/// than a runner: it knows nothing of the callouts and has a general language model, so its word
/// errors are a bound on the wording and the voice, not a runner's experience.
@Suite("English callouts heard by a speech recogniser")
struct RecognitionTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let root = fixtures.deletingLastPathComponent().deletingLastPathComponent()

    /// Word errors over every phrase. Measured with flite kal16 and pocketsphinx 5.1.1 (default
    /// en-us model, noise seeded from the file name): 0.199 (34 of 171 words; 0.263 before
    /// the wording was tuned to it); the bound leaves 10 points for a library update's drift.
    /// espeak-ng en-us at 175 wpm, far harder to follow, scores 0.760 and fails it (and 8 of the
    /// 10 callouts' key words).
    static let maximumWordErrorRate = 0.30

    /// The callouts a runner must not mistake, and the words of each a listener must hear (in
    /// this order; other words may come between).
    static let keyWords: [String: [String]] = [
        "countdown": ["three"],
        "split": ["kilometer", "three", "five", "thirty", "eight"],
        "sink-rate": ["too", "slow", "six", "ten", "five", "thirty"],
        "overspeed": ["too", "fast", "five", "five", "thirty"],
        "signal-lost": ["gps", "lost"],
        "gps-back": ["gps", "back"],
        "touchdown": ["touchdown"],
        "pause": ["stopped"],
        "resume": ["resume"],
        "gps-ready": ["gps", "ready"],
    ]

    /// Lower case, hyphens and punctuation to spaces, and the recogniser's spellings of the
    /// callouts' own words: "g p s" is GPS; "overspeed" is not in its dictionary, so it can only
    /// hear "over speed" and both sides say it that way.
    static func words(_ text: String) -> [String] {
        let lowered = text.lowercased().map { $0.isLetter || $0.isNumber || $0 == "'" ? $0 : " " }
        var words = String(lowered).split(separator: " ").map(String.init)
        var index = 0
        while index < words.count {
            if words[index] == "overspeed" {
                words.replaceSubrange(index...index, with: ["over", "speed"])
            } else if index + 2 < words.count, words[index...index + 2] == ["g", "p", "s"] {
                words.replaceSubrange(index...index + 2, with: ["gps"])
            }
            index += 1
        }
        return words
    }

    /// Levenshtein distance over words: substitutions, deletions and insertions.
    static func errors(_ reference: [String], _ heard: [String]) -> Int {
        var previous = Array(0...heard.count)
        for (i, word) in reference.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: heard.count)
            for (j, other) in heard.enumerated() {
                current[j + 1] = min(
                    previous[j + 1] + 1, current[j] + 1, previous[j] + (word == other ? 0 : 1))
            }
            previous = current
        }
        return previous[heard.count]
    }

    /// True when `keys` occur in `heard` in order.
    static func hears(_ keys: [String], in heard: [String]) -> Bool {
        var rest = heard[...]
        for key in keys {
            guard let at = rest.firstIndex(of: key) else { return false }
            rest = rest[(at + 1)...]
        }
        return true
    }

    @Test func theErrorMeasureCountsWords() {
        #expect(Self.words("GPS signal lost, paused") == ["gps", "signal", "lost", "paused"])
        #expect(Self.words("g p s back to overspeed") == ["gps", "back", "to", "over", "speed"])
        #expect(Self.words("five thirty-eight") == ["five", "thirty", "eight"])
        #expect(Self.errors(["a", "b", "c"], ["a", "x", "c", "d"]) == 2)
        #expect(Self.errors(["a", "b"], []) == 2)
        #expect(Self.hears(["gps", "lost"], in: ["the", "gps", "is", "lost"]))
        #expect(!Self.hears(["gps", "lost"], in: ["lost", "gps"]))
    }

    @Test func aRecogniserHearsTheEnglishCallouts() async throws {
        let venv = try await offPool {
            try runToEnd(
                Self.root.appendingPathComponent("scripts/interop-venv.sh").path,
                [Self.root.appendingPathComponent(".build/interop-venv").path])
        }
        try #require(venv.status == 0, "\(venv.stderr)")
        let python = venv.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        // One utterance per distinct text ("fault" is "fault-barometer-missing" again).
        var phrases: [(name: String, text: String)] = []
        for name in Phrase.exampleNames {
            let text = Phrasebook.text(try #require(Phrase.example(named: name)), in: .english)
            if !phrases.contains(where: { $0.text == text }) { phrases.append((name, text)) }
        }
        let folder = NSTemporaryDirectory() + "runway-recognition-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let synthesizer = try Speech.synthesizer(language: .english)
        var paths: [String] = []
        for phrase in phrases {
            let pcm = try synthesizer.synthesize(phrase.text).resampled(to: 16_000)
            let path = folder + "/\(phrase.name).wav"
            try WAVFile.write(pcm, to: path)
            paths.append(path)
        }
        let script = Self.fixtures.appendingPathComponent("voice/recognise.py").path
        let arguments = [script] + paths
        let result = try await offPool { try runToEnd(python, arguments) }
        try #require(result.status == 0, "\(result.stderr)")
        let heard = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: String])

        var totalErrors = 0
        var totalWords = 0
        var report = "\(synthesizer.description), heard by pocketsphinx:\n"
        for phrase in phrases {
            let reference = Self.words(phrase.text)
            let hypothesis = Self.words(heard[phrase.name + ".wav"] ?? "")
            let errors = Self.errors(reference, hypothesis)
            totalErrors += errors
            totalWords += reference.count
            report +=
                "  \(phrase.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(errors)/\(reference.count)"
                + "  \"\(phrase.text)\" → \"\(hypothesis.joined(separator: " "))\"\n"
            if let keys = Self.keyWords[phrase.name] {
                #expect(
                    Self.hears(keys, in: hypothesis),
                    "\(phrase.name): \"\(phrase.text)\" heard as \"\(hypothesis.joined(separator: " "))\", without \(keys)"
                )
            }
        }
        let rate = Double(totalErrors) / Double(max(1, totalWords))
        report += "  word error rate \(String(format: "%.3f", rate)) (\(totalErrors)/\(totalWords))"
        print(report)
        #expect(Set(Self.keyWords.keys).isSubset(of: phrases.map(\.name)))
        #expect(rate < Self.maximumWordErrorRate, "\(report)")
    }
}
