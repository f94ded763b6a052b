import Foundation
import Glibc
import RunWayCore
import RunWayDaemon
import RunWayHardware
import RunWaySystem
import RunWayVoice

/// `runway-bench voice`: what the voice costs (issue 24). Synthesis per utterance for every
/// example phrase (thread CPU and wall time, the audio's length, the real-time factor), an
/// estimate of the same on a Pi Zero 2 W, runwayd's voice thread from a split cue to its first
/// sample, and the memory the two default synthesisers take and keep.
struct VoiceBench {
    /// Each phrase is synthesised this many times after a warm-up; the median counts.
    static let repeats = 5
    /// Split cues said through runwayd's voice thread per output.
    static let latencyCues = 12
    /// Utterances after which the memory must not have grown.
    static let soak = 200
    /// The issue's floor: synthesis at least this many times faster than the audio it makes.
    static let targetRTF = 20.0
    /// This machine's core to a Pi Zero 2 W's (Cortex-A53 at 1.0 GHz): an estimate, not measured
    /// on a board. Clock × work per clock: this core runs at ~2.6 GHz (its TSC; the host may boost
    /// higher) and a current out-of-order x86 core does ~5–6× the work per clock of the in-order,
    /// dual-issue A53 on integer and floating-point code, so 2.6 × ~5.8 ≈ 15. `piPessimistic`
    /// doubles it, for a board that is thermally throttled or busy with the flight.
    static let piFactor = 15.0
    static let piPessimistic = 30.0
    /// A 1 km-split run at 6:00/km: 10 splits an hour, and a handful of other callouts (a pace
    /// alert or two, a status, the start and the end).
    static let splitsPerHour = 10.0
    static let othersPerHour = 6.0

    private struct Engine {
        var label: String
        var language: VoiceLanguage
        var settings: VoiceSettings
    }

    private static let engines = [
        Engine(label: "English, flite kal16 (default)", language: .english, settings: .init()),
        Engine(label: "Korean, espeak-ng ko (default)", language: .korean, settings: .init()),
        Engine(
            label: "English, espeak-ng en-us (comparison)", language: .english,
            settings: .init(engine: .espeak)),
    ]

    private struct Measured {
        var name: String
        var text: String
        var cpu: Double
        var wall: Double
        var audio: Double
        var worstCPU: Double
        var rtf: Double { audio / max(cpu, 1e-9) }
    }

    func run() {
        print("")
        print("== Voice: synthesis per utterance, split callout → sound, the voice's memory ==")
        voiceMemory()
        var splitCPU: [String: Double] = [:]
        var medianCPU: [String: Double] = [:]
        synthesis(splitCPU: &splitCPU, medianCPU: &medianCPU)
        piEstimate(splitCPU: splitCPU, medianCPU: medianCPU)
        latency()
    }

    // MARK: Memory

    /// VmRSS, VmHWM and RssAnon (the heap: what a leak grows) from /proc/self/status, MiB.
    private struct Reading {
        var rss = 0.0
        var hwm = 0.0
        var anon = 0.0
        var file = 0.0

        static var now: Reading {
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
                return Reading()
            }
            func field(_ name: String) -> Double {
                for line in status.split(separator: "\n") where line.hasPrefix(name) {
                    return (line.split(separator: " ").compactMap { Double($0) }.first ?? 0) / 1024
                }
                return 0
            }
            return Reading(
                rss: field("VmRSS:"), hwm: field("VmHWM:"), anon: field("RssAnon:"), file: field("RssFile:"))
        }
    }

    /// RSS/HWM before any synthesiser, after the two defaults spoke once, after `soak` utterances
    /// and after `soak` more. The first utterances page in the voices' data (flite's kal16 is
    /// compiled into its shared library, file-backed pages), so the leak test is the second soak.
    private func voiceMemory() {
        let phrases = Phrase.exampleNames.compactMap(Phrase.example(named:))
        let before = Reading.now
        var readings: [(String, Reading)] = [("before any synthesiser", before)]
        do {
            let startCPU = Self.threadCPU()
            let english = try Speech.synthesizer(language: .english)
            let korean = try Speech.synthesizer(language: .korean)
            _ = try english.synthesize(Phrasebook.text(phrases[0], in: .english))
            _ = try korean.synthesize(Phrasebook.text(phrases[0], in: .korean))
            let cold = Self.threadCPU() - startCPU
            readings.append(
                (
                    "flite kal16 + espeak-ng ko created, spoke once (\(format(cold * 1000, 0)) ms CPU)",
                    Reading.now
                ))
            for round in 1...2 {
                for index in 0..<Self.soak {
                    let phrase = phrases[index / 2 % phrases.count]
                    if index % 2 == 0 {
                        _ = try english.synthesize(Phrasebook.text(phrase, in: .english))
                    } else {
                        _ = try korean.synthesize(Phrasebook.text(phrase, in: .korean))
                    }
                }
                readings.append(("after \(round * Self.soak) utterances (both, alternating)", Reading.now))
            }
        } catch {
            print("  memory: no figure (\(error))")
            return
        }
        print("  memory of this process, MiB (VmRSS / VmHWM; RssAnon is the heap, RssFile mapped files):")
        var last: Reading?
        for (label, reading) in readings {
            let change = last.map {
                "  Δ RSS \(format(reading.rss - $0.rss, 2)), anon \(format(reading.anon - $0.anon, 2))"
            }
            print(
                "    \(pad(label, 58))\(format(reading.rss, 1)) / \(format(reading.hwm, 1))  "
                    + "anon \(format(reading.anon, 1)), file \(format(reading.file, 1))\(change ?? "")")
            last = reading
        }
        if let first = readings.first?.1, let voices = readings.dropFirst().first?.1,
            let soaked = readings.last?.1
        {
            let second = readings[readings.count - 2].1
            print(
                "    the voices: +\(format(voices.rss - first.rss, 1)) MiB once created, +\(format(second.rss - first.rss, 1)) "
                    + "after their vocabulary was used; growth over the last \(Self.soak) utterances "
                    + "\(format(soaked.rss - second.rss, 2)) MiB (should be ~0)")
        }
    }

    // MARK: Synthesis

    private static func threadCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }

    private func synthesis(splitCPU: inout [String: Double], medianCPU: inout [String: Double]) {
        let names = Phrase.exampleNames.filter { Phrase.example(named: $0) != nil }
        print("")
        print(
            "  synthesis per utterance: \(names.count) example phrases, each the median of \(Self.repeats) after a warm-up, "
                + "on the calling thread (thread CPU ms; wall in brackets; worst run: the slowest single synthesis)"
        )
        print(
            "  target: real-time factor (audio s ÷ CPU s) ≥ \(format(Self.targetRTF, 0))× for every utterance"
        )
        print(
            "    \(pad("language, engine", 40))\(pad("median ms", 16))\(pad("worst ms", 16))"
                + "\(pad("worst run", 11))\(pad("median RTF", 12))worst RTF")
        var slowest: [(String, Measured)] = []
        for engine in Self.engines {
            let synthesizer: any SpeechSynthesizer
            do {
                synthesizer = try Speech.synthesizer(language: engine.language, settings: engine.settings)
            } catch {
                print("    \(pad(engine.label, 40))no figure: \(error)")
                continue
            }
            var measured: [Measured] = []
            for name in names {
                guard let phrase = Phrase.example(named: name) else { continue }
                let text = Phrasebook.text(phrase, in: engine.language)
                var cpu: [Double] = []
                var wall: [Double] = []
                var audio = 0.0
                for run in 0...Self.repeats {
                    let startCPU = Self.threadCPU()
                    let startWall = MonotonicClock.seconds
                    guard let buffer = try? synthesizer.synthesize(text) else { break }
                    let spentCPU = Self.threadCPU() - startCPU
                    let spentWall = MonotonicClock.seconds - startWall
                    if run == 0 { continue }  // the warm-up
                    cpu.append(spentCPU)
                    wall.append(spentWall)
                    audio = buffer.duration
                }
                guard !cpu.isEmpty else { continue }
                measured.append(
                    Measured(
                        name: name, text: text, cpu: Self.median(cpu), wall: Self.median(wall), audio: audio,
                        worstCPU: cpu.max() ?? .nan))
            }
            guard !measured.isEmpty else { continue }
            let cpus = measured.map(\.cpu)
            let walls = measured.map(\.wall)
            let rtfs = measured.map(\.rtf)
            let worst = measured.max { $0.cpu < $1.cpu }!
            let worstRTF = rtfs.min() ?? .nan
            print(
                "    \(pad(engine.label, 40))"
                    + pad(
                        "\(format(Self.median(cpus) * 1000, 1)) [\(format(Self.median(walls) * 1000, 1))]", 16
                    )
                    + pad("\(format(cpus.max()! * 1000, 1)) [\(format(walls.max()! * 1000, 1))]", 16)
                    + pad(format((measured.map(\.worstCPU).max() ?? .nan) * 1000, 1), 11)
                    + pad(format(Self.median(rtfs), 0) + "×", 12)
                    + "\(format(worstRTF, 0))× \(worstRTF >= Self.targetRTF ? "meets" : "MISSES")")
            slowest.append((engine.label, worst))
            medianCPU[engine.label] = Self.median(cpus)
            splitCPU[engine.label] = measured.first { $0.name == Phrase.Kind.split.rawValue }?.cpu
        }
        for (label, worst) in slowest {
            print(
                "    slowest, \(label): \(worst.name) \"\(worst.text)\" — \(format(worst.cpu * 1000, 1)) ms CPU "
                    + "(worst run \(format(worst.worstCPU * 1000, 1))) for \(format(worst.audio, 2)) s of audio"
            )
        }
    }

    // MARK: Pi Zero 2 W

    private func piEstimate(splitCPU: [String: Double], medianCPU: [String: Double]) {
        print("")
        print(
            "  Pi Zero 2 W (Cortex-A53 1.0 GHz), an ESTIMATE: this machine's CPU × \(format(Self.piFactor, 0)) "
                + "(clock 2.6 vs 1.0 GHz × ~5.8 the work per clock; × \(format(Self.piPessimistic, 0)) pessimistic); "
                + "not measured on a board")
        print(
            "  per running hour: a 6:00/km run with 1 km splits, \(format(Self.splitsPerHour, 0)) splits + "
                + "\(format(Self.othersPerHour, 0)) other callouts (each synthesised once: runwayd reuses the audio it "
                + "prepared during the lead-in)")
        for engine in Self.engines.prefix(2) {
            guard let split = splitCPU[engine.label], let typical = medianCPU[engine.label] else { continue }
            let hour = split * Self.splitsPerHour + typical * Self.othersPerHour
            print(
                "    \(pad(engine.label, 40))split \(format(split * Self.piFactor * 1000, 0)) ms "
                    + "(\(format(split * Self.piPessimistic * 1000, 0)) pessimistic) per utterance; "
                    + "\(format(hour * Self.piFactor, 2)) CPU s per hour "
                    + "(\(format(hour * Self.piPessimistic, 2)); here \(format(hour, 3)))")
        }
    }

    // MARK: Latency

    private func latency() {
        print("")
        let cue = Cue(
            name: "SPLIT 3 KM 5:38", pattern: BuzzerPattern.pattern(for: .split(order: 3, pace: 338)),
            urgent: false,
            phrase: .split(order: 3, time: 338, pace: 338), time: 100)
        let leadIn = (cue.pattern?.duration ?? 0) + VoiceQueue.Configuration().gapAfterPattern
        print(
            "  split callout → first sample handed to ALSA: runwayd's voice thread (Voice), \(Self.latencyCues) split cues "
                + "each, into an ALSA file PCM")
        print(
            "  (a file PCM over the null plugin takes samples as fast as they come, so playback is not paced in real time:"
        )
        print(
            "  the figure is the voice thread's own delay — queue, synthesis, opening the device — not a sound card's buffer)"
        )
        print("  target: speech starts within 1 s of the split's callout")
        let runs: [(String, VoiceOutput, VoiceLanguage)] = [
            ("both (pattern, gap, words), English", .both, .english),
            ("voice (words only), English", .voice, .english),
            ("both, Korean", .both, .korean),
            ("voice, Korean", .voice, .korean),
        ]
        for (label, output, language) in runs {
            let capture = NSTemporaryDirectory() + "runway-bench-voice-\(getpid()).raw"
            defer { try? FileManager.default.removeItem(atPath: capture) }
            guard
                let run = VoiceProbe.latencies(
                    of: cue, count: Self.latencyCues, output: output, language: language, capture: capture),
                run.latencies.count == Self.latencyCues, run.output == output, run.captured > 0
            else {
                print("    \(pad(label, 38))no figure: not every cue was spoken into the file")
                continue
            }
            let median = Self.median(run.latencies)
            let worst = run.latencies.max() ?? .nan
            var line =
                "    \(pad(label, 38))median \(format(median * 1000, 0)) ms, worst \(format(worst * 1000, 0)) ms"
            if output == .both {
                line +=
                    " (lead-in \(format(leadIn * 1000, 0)) ms by design: beyond it median "
                    + "\(format((median - leadIn) * 1000, 0)), worst \(format((worst - leadIn) * 1000, 0)) ms)"
            }
            print(line + (worst <= 1 ? " — meets" : " — MISSES"))
            let audio =
                (try? Speech.synthesizer(language: language).synthesize(
                    Phrasebook.text(cue.phrase!, in: language)))?.duration ?? .nan
            print(
                "    \(pad("", 38))say → spoken to the end: median \(format(Self.median(run.turns) * 1000, 0)) ms "
                    + "for \(format(audio, 2)) s of words (the file PCM does not pace)")
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text.padding(toLength: width, withPad: " ", startingAt: 0)
    }
}
