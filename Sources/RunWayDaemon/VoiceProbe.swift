import Foundation
import RunWayCore
import RunWayHardware
import RunWaySystem
import RunWayVoice

/// runwayd's voice thread driven from outside the daemon, for the bench (`runway-bench voice`):
/// `Voice` itself stays internal, this is the one way in.
public enum VoiceProbe {
    /// What `latencies` saw.
    public struct Run: Sendable {
        /// Seconds from each cue's arrival to its first sample handed to ALSA
        /// (`Voice.Counters.lastLatency`), in the order said.
        public var latencies: [Double]
        /// The output the queue ran with (after the start-up probe).
        public var output: VoiceOutput?
        /// Bytes the `file` PCM wrote (16-bit mono samples).
        public var captured: Int
        /// Wall seconds each utterance took from `say` to `spoken` going up.
        public var turns: [Double]
    }

    /// Says `cue` `count` times through a `Voice` on a thread of its own, each after the last one
    /// was spoken to the end, into an ALSA `file` PCM that writes raw samples to `capture` (the
    /// `null` slave under it takes samples as fast as they come: no real-time pacing). nil when an
    /// utterance was not spoken within 30 s.
    public static func latencies(
        of cue: Cue, count: Int, output: VoiceOutput, language: VoiceLanguage, capture: String
    ) -> Run? {
        let text = "pcm.capture { type file slave { pcm { type null } } file \"\(capture)\" format \"raw\" }"
        let parts = Voice.Parts(
            output: output, language: language, device: "capture",
            synthesizer: { () throws(VoiceError) in try Speech.synthesizer(language: language) },
            open: { (_) throws(VoiceError) in try AlsaOutput(configuration: text, pcm: "capture") })
        let voice = Voice(buzzer: BuzzerDriver(), log: DaemonLog(toJournal: false) { _ in })
        let done = Trigger()
        Thread.start(named: "voice probe") {
            voice.run(parts)
            done.fire()
        }
        defer {
            voice.stop()
            while !done.hasFired { usleep(1_000) }
        }
        var latencies: [Double] = []
        var turns: [Double] = []
        for index in 0..<count {
            let said = MonotonicClock.seconds
            voice.say(cue)
            while voice.counters.spoken <= index {
                if MonotonicClock.seconds - said > 30 { return nil }
                usleep(2_000)
            }
            turns.append(MonotonicClock.seconds - said)
            if let latency = voice.counters.lastLatency { latencies.append(latency) }
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: capture))?[.size] as? Int
        return Run(latencies: latencies, output: voice.counters.output, captured: size ?? 0, turns: turns)
    }
}
