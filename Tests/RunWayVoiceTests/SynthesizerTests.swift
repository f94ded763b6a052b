import Foundation
import Synchronization
import Testing

@testable import RunWayVoice

/// Real libespeak-ng and flite. Length bounds: measured, each phrase takes 0.25–0.6 s per
/// word (English) or syllable group (Korean, counted as space-separated groups); the bounds
/// 0.15–0.9 s leave room for a voice or library update without passing silence or a stuck
/// engine.
@Suite struct SynthesizerTests {
    static let english = [
        ("kilometre three, five thirty-eight", 5),
        ("sink rate, pace six ten, target five thirty", 8),
        ("GPS signal lost", 3),
    ]
    static let korean = [("삼 킬로미터, 오 분 삼십팔 초", 6), ("GPS 신호 끊김", 3)]

    static func expectPlausible(_ pcm: PCMBuffer, _ text: String, words: Int, by name: String) {
        let perWord = pcm.duration / Double(words)
        print(
            "\(name): \"\(text)\" \(String(format: "%.2f", pcm.duration)) s, "
                + "\(String(format: "%.2f", perWord)) s/word, rms \(String(format: "%.3f", pcm.rms))")
        #expect(!pcm.isSilent, "\(name) said \"\(text)\" as silence")
        #expect(
            perWord > 0.15 && perWord < 0.9, "\(name): \(pcm.duration) s for \(words) words of \"\(text)\"")
    }

    @Test func espeakSpeaksBothLanguages() throws {
        let english = try EspeakSynthesizer(voice: "en-us", rate: 160)
        for (text, words) in Self.english {
            let pcm = try english.synthesize(text)
            #expect(pcm.sampleRate == 22_050)
            Self.expectPlausible(pcm, text, words: words, by: english.description)
        }
        let korean = try EspeakSynthesizer(voice: "ko", rate: 160)
        for (text, words) in Self.korean {
            Self.expectPlausible(try korean.synthesize(text), text, words: words, by: korean.description)
        }
    }

    @Test(arguments: ["kal16", "rms", "slt", "kal"]) func fliteSpeaksEnglish(voice: String) throws {
        let synthesizer = try FliteSynthesizer(voice: voice)
        for (text, words) in Self.english {
            let pcm = try synthesizer.synthesize(text)
            #expect(pcm.sampleRate == (voice == "kal" ? 8_000 : 16_000))
            Self.expectPlausible(pcm, text, words: words, by: synthesizer.description)
        }
    }

    @Test func defaultsAreFliteForEnglishAndEspeakForKorean() throws {
        #expect(try Speech.synthesizer(language: .english).description == "flite kal16 175 wpm")
        #expect(try Speech.synthesizer(language: .korean).description == "espeak-ng ko 160 wpm")
        let espeakEnglish = try Speech.synthesizer(
            language: .english, settings: .init(engine: .espeak, rate: 200))
        #expect(espeakEnglish.description == "espeak-ng en-us 200 wpm")
        #expect(try Speech.language("ko") == .korean)
        #expect(throws: VoiceError.unknownLanguage("fr")) { try Speech.language("fr") }
    }

    @Test func rateChangesTheLength() throws {
        let text = "sink rate, pace six ten, target five thirty"
        let slow = try EspeakSynthesizer(voice: "en-us", rate: 120).synthesize(text)
        let fast = try EspeakSynthesizer(voice: "en-us", rate: 240).synthesize(text)
        #expect(slow.duration > fast.duration * 1.4)
        let slowFlite = try FliteSynthesizer(voice: "slt", rate: 120).synthesize(text)
        let fastFlite = try FliteSynthesizer(voice: "slt", rate: 240).synthesize(text)
        #expect(slowFlite.duration > fastFlite.duration * 1.4)
    }

    /// The engines' libraries are opened, not linked (issue 29): one that is missing is a typed
    /// error naming the file and the Debian package, said when the library is first needed.
    @Test func aMissingLibraryIsNamedWithItsPackage() throws {
        let error = #expect(throws: VoiceError.self) {
            try SharedLibrary.open("libflite_cmu_us_nowhere.so.1", package: "libflite1")
        }
        guard case .libraryMissing(let library, let package, let reason)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(library == "libflite_cmu_us_nowhere.so.1" && package == "libflite1")
        #expect(reason.contains("libflite_cmu_us_nowhere.so.1"), "\(reason)")
        #expect(error?.description.contains("install the Debian package libflite1") == true)
        let flite = try SharedLibrary.open(FliteSynthesizer.engineLibrary, package: FliteSynthesizer.package)
        typealias Entry = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
        #expect(throws: VoiceError.self) { try flite.function("no_such_function", as: Entry.self) }
        // Each voice's library is the one Debian installs under that name.
        for voice in FliteSynthesizer.voices {
            let library = try SharedLibrary.open(FliteSynthesizer.library(of: voice), package: "libflite1")
            _ = try library.function("register_cmu_us_\(voice)", as: Entry.self)
        }
    }

    /// scripts/cross-check.sh opens, for x86_64 and aarch64, the libraries each shim's "opened at
    /// run time:" line names: they are the ones the synthesisers open.
    @Test func theCrossCheckOpensEveryLibraryTheEnginesOpen() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        func opened(_ module: String) throws -> [String] {
            let shim = try String(
                contentsOf: sources.appendingPathComponent("\(module)/shim.h"), encoding: .utf8)
            let marker = " * opened at run time: "
            let line = shim.split(separator: "\n").first { $0.hasPrefix(marker) }
            return line.map { $0.dropFirst(marker.count).split(separator: " ").map(String.init) } ?? []
        }
        #expect(
            try opened("CFlite") == [FliteSynthesizer.engineLibrary]
                + FliteSynthesizer.voices.map(FliteSynthesizer.library(of:)))
        #expect(try opened("CEspeakNG") == [EspeakSynthesizer.library])
    }

    @Test func badRequestsAreRefused() throws {
        #expect(throws: VoiceError.voiceUnavailable(engine: .espeak, voice: "xx-nowhere")) {
            try EspeakSynthesizer(voice: "xx-nowhere")
        }
        #expect(throws: VoiceError.voiceUnavailable(engine: .flite, voice: "awb-nope")) {
            try FliteSynthesizer(voice: "awb-nope")
        }
        #expect(throws: VoiceError.voiceUnavailable(engine: .flite, voice: "ko")) {
            try Speech.synthesizer(language: .korean, settings: .init(engine: .flite))
        }
        #expect(throws: VoiceError.rateOutOfRange(rate: 900, range: 80...450)) {
            try EspeakSynthesizer(voice: "ko", rate: 900)
        }
        let espeak = try EspeakSynthesizer(voice: "en-us")
        let flite = try FliteSynthesizer(voice: "slt")
        for synthesizer in [espeak, flite] as [any SpeechSynthesizer] {
            #expect(throws: VoiceError.textEmpty) { try synthesizer.synthesize("") }
            #expect(throws: VoiceError.textEmpty) { try synthesizer.synthesize("  \n") }
            #expect(throws: VoiceError.textTooLong(length: 10_000, limit: 1000)) {
                try synthesizer.synthesize(String(repeating: "a", count: 10_000))
            }
        }
        // A voice switch after a failed one leaves the engine usable.
        #expect(try !espeak.synthesize("five").isSilent)
    }

    /// Three threads synthesising at once with different voices: the locks serialise them, and
    /// each gets a take like its lone one. Not sample for sample: measured, neither engine
    /// repeats itself exactly even on one thread (flite dithers with libc's rand(); espeak-ng
    /// differs by a few samples from take to take), and espeak-ng's English, interleaved with
    /// Korean on other threads, came out 4.7 % longer than alone (not explained yet). So the
    /// check is: the same rate, length within 10 %, speech (not silence) of a like level. An
    /// engine entered by two threads at once would crash or give garbage.
    @Test func concurrentSynthesisIsSerialisedAndRepeatable() throws {
        let english = try EspeakSynthesizer(voice: "en-us")
        let korean = try EspeakSynthesizer(voice: "ko")
        let flite = try FliteSynthesizer(voice: "slt")
        let alone = [
            try english.synthesize("pace six ten"), try korean.synthesize("오 분 삼십팔 초"),
            try flite.synthesize("pace six ten"),
        ]
        let results = ThreadResults()
        let threads = (0..<3).map { index in
            Thread {
                var mine: [PCMBuffer] = []
                for _ in 0..<4 {
                    switch index {
                    case 0: mine.append((try? english.synthesize("pace six ten")) ?? PCMBuffer(sampleRate: 0))
                    case 1: mine.append((try? korean.synthesize("오 분 삼십팔 초")) ?? PCMBuffer(sampleRate: 0))
                    default: mine.append((try? flite.synthesize("pace six ten")) ?? PCMBuffer(sampleRate: 0))
                    }
                }
                results.lock.withLock { $0[index] = mine }
            }
        }
        for thread in threads { thread.start() }
        while results.lock.withLock({ $0.count }) < 3 { usleep(10_000) }
        for index in 0..<3 {
            let got = results.lock.withLock { $0[index] ?? [] }
            #expect(got.count == 4)
            for pcm in got {
                let reference = alone[index]
                let lengthRatio = Double(pcm.samples.count) / Double(reference.samples.count)
                #expect(pcm.sampleRate == reference.sampleRate)
                #expect(
                    abs(lengthRatio - 1) < 0.1, "thread \(index): \(lengthRatio) of the lone take's length")
                #expect(!pcm.isSilent)
                #expect(abs(pcm.rms - reference.rms) < 0.3 * reference.rms)
            }
        }
    }

    /// Real-time factor and memory, printed (not asserted): see the report.
    @Test func measureRealTimeFactorAndMemory() throws {
        let before = Self.residentKiB()
        let phrases = Self.english.map(\.0)
        for (name, synthesizer) in [
            ("espeak-ng en-us", try EspeakSynthesizer(voice: "en-us") as any SpeechSynthesizer),
            ("espeak-ng ko", try EspeakSynthesizer(voice: "ko")),
            ("flite slt", try FliteSynthesizer(voice: "slt")),
            ("flite kal", try FliteSynthesizer(voice: "kal")),
        ] {
            let texts = name.hasSuffix("ko") ? Self.korean.map(\.0) : phrases
            _ = try synthesizer.synthesize(texts[0])
            var audio = 0.0
            let cpu0 = Self.cpuSeconds()
            for _ in 0..<3 { for text in texts { audio += try synthesizer.synthesize(text).duration } }
            let cpu = Self.cpuSeconds() - cpu0
            print("RTF \(name): \(String(format: "%.1f", audio / cpu)) s of audio per CPU second")
        }
        let long = String(repeating: "pace six ten, target five thirty. ", count: 29)
        let cpu0 = Self.cpuSeconds()
        let pcm = try EspeakSynthesizer(voice: "en-us").synthesize(long)
        let cpu1 = Self.cpuSeconds()
        let pcm2 = try FliteSynthesizer(voice: "slt").synthesize(long)
        print(
            "\(long.count) characters: espeak \(String(format: "%.1f", pcm.duration)) s in "
                + "\(String(format: "%.3f", cpu1 - cpu0)) s CPU, flite \(String(format: "%.1f", pcm2.duration)) s in "
                + "\(String(format: "%.3f", Self.cpuSeconds() - cpu1)) s CPU")
        print("VmRSS before \(before) KiB, after all four voices \(Self.residentKiB()) KiB")
    }

    static func cpuSeconds() -> Double {
        // This thread's CPU time: the tests run in parallel in one process.
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    static func residentKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

/// What each thread synthesised, behind a lock (a class, so escaping closures can share it).
final class ThreadResults: Sendable {
    let lock = Mutex<[Int: [PCMBuffer]]>([:])
}
