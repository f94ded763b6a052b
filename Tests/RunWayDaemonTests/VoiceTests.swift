import Foundation
import RunWayCore
import RunWayHardware
import RunWaySystem
import RunWayVoice
import Synchronization
import Testing

@testable import RunWayDaemon

/// runwayd's voice thread with real libespeak-ng/flite and real libasound: speech played into an
/// ALSA `file` PCM (no sound card here), and the device failing.
@Suite("runwayd's voice: its own thread; a failing device is one fault, and the buzzer goes on")
struct VoiceTests {
    static let split = Cue(
        name: "SPLIT 3 KM 5:38", pattern: BuzzerPattern.pattern(for: .split(order: 3, pace: 338)),
        urgent: false,
        phrase: .split(order: 3, time: 338, pace: 338), time: 100)

    /// A `file` PCM writing raw samples to a fresh file.
    static func capture() -> (parts: Voice.Parts, path: String) {
        let path = NSTemporaryDirectory() + "runway-voice-\(UUID().uuidString).raw"
        let text = "pcm.capture { type file slave { pcm { type null } } file \"\(path)\" format \"raw\" }"
        let parts = Voice.Parts(
            output: .both, language: .english, device: "capture",
            synthesizer: { () throws(VoiceError) in try Speech.synthesizer(language: .english) },
            open: { (_) throws(VoiceError) in try AlsaOutput(configuration: text, pcm: "capture") })
        return (parts, path)
    }

    static func missing(output: VoiceOutput?) -> Voice.Parts {
        Voice.Parts(
            output: output, language: .english, device: "hw:99",
            synthesizer: { () throws(VoiceError) in try Speech.synthesizer(language: .english) },
            open: { (device) throws(VoiceError) in throw .deviceMissing(device: device, code: -19) })
    }

    /// Runs the voice on a thread of its own until the returned stop is called (and joined).
    static func start(_ voice: Voice, _ parts: Voice.Parts) -> @Sendable () async -> Void {
        let done = Trigger()
        Thread.start(named: "voice test") {
            voice.run(parts)
            done.fire()
        }
        return {
            voice.stop()
            await done.wait()
        }
    }

    static func wait(_ condition: () -> Bool) async throws {
        let deadline = MonotonicClock.seconds + 60
        while !condition(), MonotonicClock.seconds < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(condition())
    }

    @Test func aCalloutIsSpokenIntoTheDeviceAfterItsPattern() async throws {
        let logged = Lines()
        let voice = Voice(buzzer: BuzzerDriver(), log: DaemonLog(toJournal: false) { logged.append($0) })
        let (parts, path) = Self.capture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stop = Self.start(voice, parts)
        voice.say(Self.split)
        try await Self.wait { voice.counters.spoken == 1 }
        await stop()
        #expect(voice.counters.output == .both)
        #expect(voice.buzzer.patternsPlayed == 1)
        // The words follow the pattern (300 ms) and the gap (400 ms): never over it.
        let latency = try #require(voice.counters.lastLatency)
        #expect(latency >= 0.7 && latency < 5, "\(latency)")
        let raw = try #require(FileManager.default.contents(atPath: path))
        let samples = raw.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let heard = PCMBuffer(sampleRate: 16_000, samples: samples)
        #expect(!heard.isSilent && heard.duration > 1, "\(heard.duration) s")
        #expect(
            logged.all.contains { $0.contains("voice: speaking split: kilometer three, five thirty-eight") })
    }

    @Test func aMissingDeviceIsOneFaultAndEveryCueStillBuzzes() async throws {
        let logged = Lines()
        let voice = Voice(buzzer: BuzzerDriver(), log: DaemonLog(toJournal: false) { logged.append($0) })
        let stop = Self.start(voice, Self.missing(output: .both))
        for _ in 0..<3 { voice.say(Self.split) }
        try await Self.wait { voice.buzzer.patternsPlayed >= 1 + 3 }
        await stop()
        let faults = logged.all.filter { $0.contains(BoardFault.audio.rawValue) }
        #expect(faults.count == 1, "\(logged.all)")
        #expect(faults.first?.contains("hw:99") == true)
        #expect(voice.counters.output == .buzzer && voice.counters.spoken == 0)
    }

    @Test func noDeviceWhenNoneWasConfiguredIsTheBuzzerAloneAndNoFault() async throws {
        let logged = Lines()
        let voice = Voice(buzzer: BuzzerDriver(), log: DaemonLog(toJournal: false) { logged.append($0) })
        let stop = Self.start(voice, Self.missing(output: nil))
        voice.say(Self.split)
        try await Self.wait { voice.buzzer.patternsPlayed == 1 }
        await stop()
        #expect(!logged.all.contains { $0.contains(BoardFault.audio.rawValue) }, "\(logged.all)")
        #expect(logged.all.contains { $0.contains("no audio device") })
        #expect(voice.counters.output == .buzzer)
    }

    @Test func aFloodOfCuesIsBoundedAndSaidSo() async throws {
        let logged = Lines()
        let voice = Voice(buzzer: BuzzerDriver(), log: DaemonLog(toJournal: false) { logged.append($0) })
        for _ in 0..<1000 { voice.say(Self.split) }
        let stop = Self.start(voice, Self.missing(output: .buzzer))
        try await Self.wait { voice.buzzer.patternsPlayed == Voice.inboxLimit }
        await stop()
        #expect(logged.all.contains { $0.contains("\(1000 - Voice.inboxLimit) callouts dropped") })
    }

    /// A short START while flying says the status now (the runner asks without looking): through
    /// the button service, the annunciator (which heard the flight's outputs) and the voice.
    @Test func aShortStartWhileFlyingSpeaksTheStatus() async throws {
        let logged = Lines()
        let log = DaemonLog(toJournal: false) { logged.append($0) }
        let buzzer = BuzzerDriver()
        let voice = Voice(buzzer: buzzer, log: log)
        let annunciator = Annunciator(driver: buzzer, voice: voice, log: log)
        let (parts, path) = Self.capture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stop = Self.start(voice, parts)
        let board = TestEngine(observers: [annunciator])
        let buttons = ButtonService(
            roles: [.start, .pause, .end], open: { ManualGPIOLines(buttons: 3) }, engine: board.engine,
            clock: BoardClock(), defaultMission: nil, annunciator: annunciator, log: log)
        await board.engine.handle(.start(at: 100, mission: nil, countdown: false))
        for t in 1...60 {
            let at = Coordinate(latitude: 37, longitude: 127 + Double(t) * 3.4e-5)
            await board.engine.handle(
                .fix(Fix(time: 100 + Double(t), coordinate: at, horizontalAccuracy: 5, speed: 3)))
        }
        #expect(await board.engine.phase == .cruise)
        await buttons.handle(.short(.start, at: MonotonicClock.seconds))
        try await Self.wait { logged.all.contains { $0.contains("voice: speaking status:") } }
        // START while flying starts nothing.
        #expect(await board.engine.isFlying)
        await board.close()
        await stop()
        let said = try #require(logged.all.first { $0.contains("voice: speaking status:") }, "\(logged.all)")
        #expect(said.contains("meters") && said.contains("minute"), "\(said)")
    }

    /// The fixed phrases are kept for good once synthesised; those with numbers only the last 8.
    @Test func theCacheKeepsTheFixedPhrasesAndABoundOfTheRest() {
        var cache = SpeechCache(language: .english)
        let fixed = SpeechCache.fixedTexts(.english)
        #expect(
            fixed.contains("GPS lost, paused")
                && fixed.count == 13 + BoardFault.allCases.count + 2 * Phrase.Sensor.allCases.count)
        #expect(cache.nextWarmup == fixed.first)
        let audio = PCMBuffer.tone(frequency: 440, seconds: 0.1, sampleRate: 16_000)
        for text in fixed { cache.store(audio, for: text) }
        #expect(cache.nextWarmup == nil)
        for n in 0..<20 { cache.store(audio, for: "kilometer \(n)") }
        #expect(cache.audio(for: "kilometer 19") != nil && cache.audio(for: "kilometer 12") != nil)
        #expect(cache.audio(for: "kilometer 11") == nil)
        #expect(fixed.allSatisfy { cache.audio(for: $0) != nil })
    }
}
