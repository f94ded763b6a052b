import Foundation
import Glibc
import RunWayCore
import Testing

@testable import RunWayVoice

/// Real libasound, no sound card: an ALSA `file` PCM over a `null` slave, defined in
/// configuration text, writes what it is given to a raw file, which is compared with what was
/// played. (The file plugin pads the last period with silence on drain, so a capture is the
/// played samples and then up to one period — ≤ 25 ms at the 100 ms latency — of zeros.)
@Suite struct AlsaOutputTests {
    static func capture(_ name: String) -> (configuration: String, path: String) {
        let path = NSTemporaryDirectory() + "runway-alsa-\(getpid())-\(name).raw"
        unlink(path)
        return ("pcm.capture { type file slave { pcm { type null } } file \"\(path)\" format \"raw\" }", path)
    }

    static func captured(_ path: String) -> [Int16] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    @Test func playsEverySampleIntoAFilePCM() throws {
        let (configuration, path) = Self.capture("speech")
        defer { unlink(path) }
        let speech = try EspeakSynthesizer(voice: "en-us").synthesize("kilometre three, five thirty-eight")
        let output = try AlsaOutput(configuration: configuration, pcm: "capture")
        #expect(output.device == "capture")
        let finished = try output.play(speech) { false }
        output.close()
        #expect(finished)
        let samples = Self.captured(path)
        let period = speech.sampleRate / 40  // 25 ms
        #expect(samples.count >= speech.samples.count && samples.count <= speech.samples.count + period)
        #expect(Array(samples.prefix(speech.samples.count)) == speech.samples)
        #expect(samples.dropFirst(speech.samples.count).allSatisfy { $0 == 0 })
    }

    @Test func playsTwiceAtDifferentRates() throws {
        let (configuration, path) = Self.capture("twice")
        defer { unlink(path) }
        let output = try AlsaOutput(configuration: configuration, pcm: "capture")
        defer { output.close() }
        let first = PCMBuffer.tone(frequency: 440, seconds: 0.3, sampleRate: 16_000)
        let second = PCMBuffer.tone(frequency: 660, seconds: 0.2, sampleRate: 8000)
        #expect(try output.play(first) { false })
        #expect(try output.play(second) { false })
        let samples = Self.captured(path)
        #expect(Array(samples.prefix(first.samples.count)) == first.samples)
        #expect(samples.count >= first.samples.count + second.samples.count)
    }

    @Test func stoppingMidPlayReturnsFalseWithAPrefix() throws {
        let (configuration, path) = Self.capture("stop")
        defer { unlink(path) }
        let tone = PCMBuffer.tone(frequency: 440, seconds: 5, sampleRate: 22_050)
        let output = try AlsaOutput(configuration: configuration, pcm: "capture")
        var asked = 0
        let clock = ContinuousClock()
        let start = clock.now
        let finished = try output.play(tone) {
            asked += 1
            return asked > 10
        }
        let elapsed = clock.now - start
        output.close()
        #expect(!finished)
        #expect(elapsed < .milliseconds(500))
        let samples = Self.captured(path)
        #expect(samples.count < tone.samples.count / 2)
        #expect(samples == Array(tone.samples.prefix(samples.count)))
    }

    @Test func stoppingBeforeTheStartPlaysNothing() throws {
        let (configuration, path) = Self.capture("never")
        defer { unlink(path) }
        let output = try AlsaOutput(configuration: configuration, pcm: "capture")
        #expect(try !output.play(.tone(frequency: 440, seconds: 1, sampleRate: 8000)) { true })
        output.close()
        #expect(Self.captured(path).isEmpty)
    }

    @Test(arguments: ["hw:99", "plughw:42,0", "no-such-device-runway"])
    func aMissingDeviceIsDeviceMissing(name: String) {
        #expect {
            try AlsaOutput(device: name)
        } throws: { error in
            guard case .deviceMissing(let device, _) = error as? VoiceError else { return false }
            return device == name
        }
    }

    @Test func badConfigurationIsAClearError() {
        #expect {
            try AlsaOutput(configuration: "pcm.broken { type file slave {", pcm: "broken")
        } throws: { error in
            guard case .configurationInvalid = error as? VoiceError else { return false }
            return true
        }
        #expect {
            try AlsaOutput(configuration: "pcm.other { type null }", pcm: "capture")
        } throws: { error in
            guard case .deviceMissing = error as? VoiceError else { return false }
            return true
        }
    }

    /// A busy device needs a real card (a second open of a `hw` PCM another process holds): this
    /// machine has none, and neither `file` nor `null` PCMs are ever busy. What is testable
    /// without one is that ALSA's codes map to the right cases.
    @Test func openingCodesMapToCauses() {
        #expect(AlsaOutput.openingError(-EBUSY, device: "hw:0") == .deviceBusy(device: "hw:0"))
        #expect(AlsaOutput.openingError(-ENOENT, device: "x") == .deviceMissing(device: "x", code: -ENOENT))
        #expect(AlsaOutput.openingError(-ENODEV, device: "x") == .deviceMissing(device: "x", code: -ENODEV))
        guard case .deviceFailed(_, -EIO, let message) = AlsaOutput.openingError(-EIO, device: "x") else {
            Issue.record("EIO is not a device failure")
            return
        }
        #expect(message == "Input/output error")
        #expect(VoiceError.deviceMissing(device: "hw:99", code: -EINVAL).description.contains("aplay -L"))
        #expect(VoiceError.deviceBusy(device: "hw:0").description.contains("another program holds it"))
    }
}
