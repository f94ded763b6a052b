import Testing

@testable import RunWayVoice

@Suite struct PCMBufferTests {
    @Test func durationAndLevel() {
        let tone = PCMBuffer.tone(frequency: 440, seconds: 1, sampleRate: 16_000, amplitude: 0.5)
        #expect(tone.samples.count == 16_000)
        #expect(tone.duration == 1)
        #expect(abs(tone.rms - 0.5 / 2.0.squareRoot()) < 0.005)  // a sine's RMS is its peak / √2
        #expect(!tone.isSilent)
        #expect(PCMBuffer.silence(0.5, sampleRate: 8000).isSilent)
        #expect(PCMBuffer.silence(0.5, sampleRate: 8000).samples.count == 4000)
        #expect(PCMBuffer(sampleRate: 8000).rms == 0)
        #expect(PCMBuffer(sampleRate: 0, samples: [1]).duration == 0)
    }

    @Test func toneFadesInAndOut() {
        let tone = PCMBuffer.tone(frequency: 1000, seconds: 0.1, sampleRate: 48_000, amplitude: 1)
        #expect(tone.samples.first == 0)
        #expect(abs(Int(tone.samples.last!)) < 200)
        // Over the first 5 ms (240 samples) no step exceeds a sine's own slope at full level.
        let steps = zip(tone.samples, tone.samples.dropFirst()).map { abs(Int($0) - Int($1)) }
        #expect(steps.max()! <= Int(2 * Double.pi * 1000 / 48_000 * 32_767) + 2)
        #expect(abs(Int(tone.samples[10])) < 32_767 / 20)
    }

    @Test func resamplingKeepsLengthAndShape() {
        let tone = PCMBuffer.tone(frequency: 300, seconds: 0.5, sampleRate: 16_000)
        let up = tone.resampled(to: 22_050)
        #expect(up.sampleRate == 22_050)
        #expect(up.samples.count == 11_025)
        #expect(abs(up.rms - tone.rms) < 0.01)
        let back = up.resampled(to: 16_000)
        #expect(back.samples.count == 8000)
        #expect(tone.resampled(to: 16_000) == tone)
        #expect(tone.resampled(to: 0) == tone)
    }

    @Test func mixSaturatesGrowsAndResamples() {
        var loud = PCMBuffer(sampleRate: 8000, samples: [30_000, -30_000, 100])
        loud.mix(PCMBuffer(sampleRate: 8000, samples: [10_000, -10_000, 1, 7]), at: 0)
        #expect(loud.samples == [32_767, -32_768, 101, 7])
        var base = PCMBuffer.silence(0.1, sampleRate: 8000)
        base.mix(PCMBuffer(sampleRate: 8000, samples: [5, 5]), at: 0.2)
        #expect(base.samples.count == 1602)
        #expect(base.samples[1600] == 5)
        var other = PCMBuffer.silence(0.1, sampleRate: 8000)
        other.mix(PCMBuffer.tone(frequency: 200, seconds: 0.1, sampleRate: 16_000), at: 0)
        #expect(other.samples.count == 800)
        var joined = PCMBuffer.silence(0.1, sampleRate: 8000)
        joined.append(PCMBuffer.silence(0.1, sampleRate: 16_000))
        #expect(joined.samples.count == 1600)
    }

    @Test func onsetsFindSoundAfterSilence() {
        var pcm = PCMBuffer.silence(3, sampleRate: 16_000)
        pcm.mix(.tone(frequency: 400, seconds: 0.2, sampleRate: 16_000), at: 0.5)
        pcm.mix(.tone(frequency: 400, seconds: 0.2, sampleRate: 16_000), at: 0.8)  // 0.1 s gap: same onset
        pcm.mix(.tone(frequency: 400, seconds: 0.2, sampleRate: 16_000), at: 2.0)
        let onsets = pcm.onsets()
        #expect(onsets.count == 2)
        #expect(abs(onsets[0] - 0.5) <= 0.02)
        #expect(abs(onsets[1] - 2.0) <= 0.02)
        #expect(PCMBuffer.tone(frequency: 400, seconds: 0.2, sampleRate: 8000).onsets() == [0])
        #expect(PCMBuffer.silence(1, sampleRate: 8000).onsets().isEmpty)
    }
}
