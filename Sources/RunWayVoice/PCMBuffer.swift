import Foundation

/// Mono 16-bit PCM: what the synthesisers produce, the WAV files hold and ALSA plays.
public struct PCMBuffer: Sendable, Equatable {
    /// Frames per second (> 0 for any buffer that holds samples).
    public var sampleRate: Int
    public var samples: [Int16]

    public init(sampleRate: Int, samples: [Int16] = []) {
        self.sampleRate = sampleRate
        self.samples = samples
    }

    /// The RMS below which a buffer counts as silent (`isSilent`): 0.003 of full scale, about
    /// −50 dBFS. Measured here: the quietest phrase espeak-ng or flite made (of those in
    /// SynthesizerTests) had an RMS of 0.084 or more, digital silence is 0, and a 16-bit signal's
    /// own dither is about 0.00002 — the threshold sits far from both.
    public static let silenceThreshold = 0.003

    /// Length in seconds.
    public var duration: Double {
        sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0
    }

    /// Root mean square, 0…1 of full scale (32 768).
    public var rms: Double {
        Self.rms(samples[...])
    }

    static func rms(_ window: ArraySlice<Int16>) -> Double {
        guard !window.isEmpty else { return 0 }
        var sum = 0.0
        for sample in window {
            let value = Double(sample)
            sum += value * value
        }
        return (sum / Double(window.count)).squareRoot() / 32_768
    }

    /// True when `rms` is below `silenceThreshold`.
    public var isSilent: Bool { rms < Self.silenceThreshold }

    /// The same sound at `rate` frames per second, by linear interpolation between neighbours
    /// (no anti-alias filter: the engines' speech has little energy near the Nyquist frequency
    /// of 8 kHz and up). A rate that is not positive returns the buffer unchanged.
    public func resampled(to rate: Int) -> PCMBuffer {
        guard rate > 0, sampleRate > 0 else { return self }
        guard rate != sampleRate, !samples.isEmpty else {
            return PCMBuffer(sampleRate: rate, samples: samples)
        }
        let count = Int((Double(samples.count) * Double(rate) / Double(sampleRate)).rounded())
        let step = Double(sampleRate) / Double(rate)
        var output = [Int16](repeating: 0, count: count)
        let last = samples.count - 1
        for index in 0..<count {
            let position = Double(index) * step
            let left = min(Int(position), last)
            let right = min(left + 1, last)
            let fraction = position - Double(left)
            let value = Double(samples[left]) * (1 - fraction) + Double(samples[right]) * fraction
            output[index] = Self.clamp(value)
        }
        return PCMBuffer(sampleRate: rate, samples: output)
    }

    static func clamp(_ value: Double) -> Int16 {
        Int16(max(-32_768, min(32_767, value.rounded())))
    }

    /// `seconds` of digital silence.
    public static func silence(_ seconds: Double, sampleRate: Int) -> PCMBuffer {
        PCMBuffer(sampleRate: sampleRate, samples: [Int16](repeating: 0, count: frames(seconds, sampleRate)))
    }

    static func frames(_ seconds: Double, _ sampleRate: Int) -> Int {
        guard seconds.isFinite, seconds > 0, sampleRate > 0 else { return 0 }
        return Int((seconds * Double(sampleRate)).rounded())
    }

    /// A sine tone at `amplitude` (0…1 of full scale), faded in and out over 5 ms: a tone that
    /// starts or stops at full level is a step, which a speaker plays as a click.
    public static func tone(
        frequency: Double, seconds: Double, sampleRate: Int, amplitude: Double = 0.5
    ) -> PCMBuffer {
        let count = frames(seconds, sampleRate)
        let fade = max(1, min(count / 2, frames(0.005, sampleRate)))
        let level = max(0, min(1, amplitude)) * 32_767
        var output = [Int16](repeating: 0, count: count)
        for index in 0..<count {
            let phase = 2 * Double.pi * frequency * Double(index) / Double(sampleRate)
            let edge = min(index, count - 1 - index)
            let gain = edge < fade ? Double(edge) / Double(fade) : 1
            output[index] = clamp(sin(phase) * level * gain)
        }
        return PCMBuffer(sampleRate: sampleRate, samples: output)
    }

    /// Adds `other` into this buffer from `offset` seconds on, saturating at full scale, growing
    /// this buffer as needed; `other` is resampled first when its rate differs.
    public mutating func mix(_ other: PCMBuffer, at offset: Double) {
        let source = other.sampleRate == sampleRate ? other : other.resampled(to: sampleRate)
        let start = Self.frames(offset, sampleRate)
        let end = start + source.samples.count
        if samples.count < end {
            samples.append(contentsOf: repeatElement(0, count: end - samples.count))
        }
        for (index, sample) in source.samples.enumerated() {
            let (sum, overflow) = samples[start + index].addingReportingOverflow(sample)
            samples[start + index] = overflow ? (sample < 0 ? .min : .max) : sum
        }
    }

    /// Appends `other` (resampled first when its rate differs).
    public mutating func append(_ other: PCMBuffer) {
        let source = other.sampleRate == sampleRate ? other : other.resampled(to: sampleRate)
        samples.append(contentsOf: source.samples)
    }

    /// Without the silence before the first frame of sound and after the last, but for `margin`
    /// seconds each side: flite pads every utterance with ~0.25 s at each end (measured on the
    /// demo's callouts: a split's 2.45 s held 0.49 s of it), which is latency before the words
    /// and a longer wait before the next callout. Frames as in `onsets`.
    public func trimmingSilence(threshold: Double = 0.01, margin: Double = 0.03) -> PCMBuffer {
        guard sampleRate > 0, !samples.isEmpty else { return self }
        let window = max(1, sampleRate / 50)
        let frames = stride(from: 0, to: samples.count, by: window).map { start in
            Self.rms(samples[start..<min(start + window, samples.count)]) >= threshold
        }
        guard let first = frames.firstIndex(of: true), let last = frames.lastIndex(of: true) else {
            return self
        }
        let pad = Int(margin * Double(sampleRate))
        let from = max(0, first * window - pad)
        let to = min(samples.count, (last + 1) * window + pad)
        return PCMBuffer(sampleRate: sampleRate, samples: Array(samples[from..<to]))
    }

    /// Times (s) where sound starts after at least `gap` s of silence. The buffer is cut into
    /// 20 ms frames (long enough to hold two periods of a low voice's 100 Hz pitch, short enough
    /// to place a word to a frame); a frame is sound when its RMS reaches `threshold`. The start
    /// of the buffer counts as silence, so a buffer that opens with sound has an onset at 0.
    public func onsets(threshold: Double = 0.02, gap: Double = 0.3) -> [Double] {
        guard sampleRate > 0, !samples.isEmpty else { return [] }
        let window = max(1, sampleRate / 50)
        let frameSeconds = Double(window) / Double(sampleRate)
        var result: [Double] = []
        var quiet = Double.infinity
        var start = 0
        while start < samples.count {
            let end = min(start + window, samples.count)
            if Self.rms(samples[start..<end]) >= threshold {
                if quiet >= gap - frameSeconds / 2 { result.append(Double(start) / Double(sampleRate)) }
                quiet = 0
            } else {
                quiet += Double(end - start) / Double(sampleRate)
            }
            start = end
        }
        return result
    }
}
