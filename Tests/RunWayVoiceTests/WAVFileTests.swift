import Foundation
import Testing

@testable import RunWayVoice

@Suite struct WAVFileTests {
    static func header(
        format: UInt16 = 1, channels: UInt16 = 1, rate: UInt32 = 8000, bits: UInt16 = 16, dataSize: UInt32
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        func put32(_ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        func put16(_ value: UInt16) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        bytes += Array("RIFF".utf8)
        put32(36 &+ dataSize)
        bytes += Array("WAVEfmt ".utf8)
        put32(16)
        put16(format)
        put16(channels)
        put32(rate)
        put32(rate * UInt32(channels) * UInt32(bits / 8))
        put16(channels * bits / 8)
        put16(bits)
        bytes += Array("data".utf8)
        put32(dataSize)
        return bytes
    }

    @Test func roundTrips() throws {
        let pcm = PCMBuffer(sampleRate: 22_050, samples: [0, 1, -1, 32_767, -32_768, 1234])
        let bytes = WAVFile.encode(pcm)
        #expect(bytes.count == 44 + 12)
        #expect(try WAVFile.decode(bytes) == pcm)
        #expect(
            try WAVFile.decode(WAVFile.encode(PCMBuffer(sampleRate: 8000))) == PCMBuffer(sampleRate: 8000))
    }

    @Test func soxReadsWhatWeWriteAndWeReadSox() throws {
        let folder = NSTemporaryDirectory() + "runway-wav-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tone = PCMBuffer.tone(frequency: 440, seconds: 0.25, sampleRate: 16_000)
        try WAVFile.write(tone, to: folder + "/tone.wav")
        #expect(try WAVFile.read(folder + "/tone.wav") == tone)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["tone.wav"])
        try WAVFile.write(.silence(0.1, sampleRate: 8000), to: folder + "/tone.wav")  // replaces it
        #expect(try WAVFile.read(folder + "/tone.wav").samples.count == 800)
        // sox's own stereo file (with a LIST chunk before data) is downmixed.
        let sox = Process()
        sox.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
        sox.arguments = [
            "-n", "-r", "11025", "-c", "2", "-b", "16", folder + "/stereo.wav", "synth", "0.5", "sine", "300",
        ]
        try sox.run()
        sox.waitUntilExit()
        let stereo = try WAVFile.read(folder + "/stereo.wav")
        #expect(stereo.sampleRate == 11_025)
        #expect(stereo.samples.count == 5513 || stereo.samples.count == 5512)
        #expect(!stereo.isSilent)
    }

    @Test func badInputIsAClearError() {
        let good = WAVFile.encode(.tone(frequency: 440, seconds: 0.01, sampleRate: 8000))
        for cut in [0, 3, 11, 20, 43] {
            #expect(throws: VoiceError.self) { try WAVFile.decode(Array(good.prefix(cut))) }
        }
        // A data chunk cut short: the header still claims the full length.
        #expect {
            try WAVFile.decode(Array(good.dropLast(10)))
        } throws: { error in
            guard case .badWAV(let reason) = error as? VoiceError else { return false }
            return reason.contains("truncated")
        }
        // A 4 GiB data length (streaming writers' "unknown"), with 4 bytes behind it.
        #expect(throws: VoiceError.self) {
            try WAVFile.decode(Self.header(dataSize: 0xFFFF_FFFF) + [1, 2, 3, 4])
        }
        #expect(throws: VoiceError.badWAV("8-bit samples (runway reads 16-bit)")) {
            try WAVFile.decode(Self.header(bits: 8, dataSize: 4) + [128, 128, 128, 128])
        }
        #expect(throws: VoiceError.badWAV("format code 3 is not PCM")) {
            try WAVFile.decode(Self.header(format: 3, bits: 32, dataSize: 4) + [0, 0, 0, 0])
        }
        #expect(throws: VoiceError.badWAV("6 channels (runway reads mono or stereo)")) {
            try WAVFile.decode(Self.header(channels: 6, dataSize: 12) + [UInt8](repeating: 0, count: 12))
        }
        #expect(throws: VoiceError.badWAV("a sample rate of 0 Hz")) {
            try WAVFile.decode(Self.header(rate: 0, dataSize: 2) + [0, 0])
        }
        #expect(throws: VoiceError.self) {
            try WAVFile.decode(Array("RIFF\0\0\0\0WAVEdata\u{FF}\u{FF}".utf8))
        }
        #expect(throws: VoiceError.fileFailed(path: "/nonexistent/x.wav", errno: ENOENT)) {
            try WAVFile.read("/nonexistent/x.wav")
        }
        #expect(throws: VoiceError.fileFailed(path: "/nonexistent/.x.wav.partial-\(getpid())", errno: ENOENT))
        {
            try WAVFile.write(.silence(0.1, sampleRate: 8000), to: "/nonexistent/x.wav")
        }
    }

    /// Random bytes behind a valid header never trap.
    @Test func hostileBytesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<80, using: &generator)
            var bytes = Self.header(dataSize: UInt32.random(in: 0...UInt32.max, using: &generator))
            bytes = Array(bytes.prefix(Int.random(in: 0...44, using: &generator)))
            bytes += (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? WAVFile.decode(bytes)
        }
    }
}
