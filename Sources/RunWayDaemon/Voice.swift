import RunWayControl
import RunWayCore
import RunWayHardware
import RunWaySystem
import RunWayVoice
import Synchronization

/// The runner's voice: one queue for the buzzer and the speech (`VoiceQueue`), run on a thread of
/// its own, so nothing is synthesised or played on the engine's thread and a fault sounds while
/// the engine is stuck.
///
/// `say` may be called from any thread and never waits. The voice thread synthesises each
/// utterance when its turn comes and plays it through ALSA in 20 ms chunks; between chunks it
/// reads what arrived, so a warning cuts a split short within a chunk. The device is opened for
/// each utterance and closed after it: a USB dongle unplugged and plugged back, or Bluetooth
/// headphones that connect late, are used as soon as they are there, and `runway checklist` can
/// open the device between utterances. A device that cannot be opened or fails mid-utterance
/// is the `.audio` fault, said once on the buzzer (and logged) until an utterance plays again;
/// meanwhile the queue is the buzzer's alone, so nothing the runner must hear is lost.
final class Voice: Sendable {
    /// How the voice thread reaches its parts; each closure is called on the voice thread only.
    struct Parts: Sendable {
        /// The configured output; nil: `both` if the device opens at start, else the buzzer.
        var output: VoiceOutput?
        var language: VoiceLanguage
        /// The unit distances and paces are said in (`run.units`).
        var units = DistanceUnit.kilometre
        var device: String
        var synthesizer: @Sendable () throws(VoiceError) -> any SpeechSynthesizer
        var open: @Sendable (String) throws(VoiceError) -> AlsaOutput

        static func configured(_ config: DaemonConfiguration.Voice, units: DistanceUnit = .kilometre) -> Parts
        {
            let settings = VoiceSettings(
                engine: config.engine.flatMap(SpeechEngine.init(rawValue:)), voice: config.name,
                rate: config.rate)
            let language = config.language
            return Parts(
                output: config.output, language: language, units: units, device: config.device,
                synthesizer: { () throws(VoiceError) in
                    try Speech.synthesizer(language: language, settings: settings)
                },
                open: { (device) throws(VoiceError) in try AlsaOutput(device: device) })
        }
    }

    /// What reaches the voice thread. Bounded: a runner never needs more than a handful of
    /// callouts queued, and a flood (a fault storm, a stuck thread) must not grow without bound.
    private struct Inbox {
        var cues: [Cue] = []
        var stopped = false
        var overflowed = 0
    }
    static let inboxLimit = 64

    private let inbox = Mutex(Inbox())
    private let wake = WakeSignal()
    private let tally = Mutex(Counters())
    let buzzer: BuzzerDriver
    private let log: DaemonLog
    private let clock: @Sendable () -> Double

    /// What the voice has done, for the bench and tests.
    struct Counters: Sendable, Equatable {
        var spoken = 0
        var interrupted = 0
        var dropped = 0
        var faults = 0
        /// Seconds from a cue's arrival to its first sample handed to ALSA, the latest one.
        var lastLatency: Double?
        /// The output the queue runs with (after the start-up probe).
        var output: VoiceOutput?
    }

    var counters: Counters { tally.withLock { $0 } }

    init(
        buzzer: BuzzerDriver, log: DaemonLog,
        clock: @escaping @Sendable () -> Double = { MonotonicClock.seconds }
    ) {
        self.buzzer = buzzer
        self.log = log
        self.clock = clock
    }

    /// Hands the voice a cue (any thread, never waits).
    func say(_ cue: Cue) {
        inbox.withLock { inbox in
            if inbox.cues.count >= Self.inboxLimit {
                inbox.cues.removeFirst()
                inbox.overflowed += 1
            }
            inbox.cues.append(cue)
        }
        wake.signal()
    }

    /// Makes `run` return (from any thread; also before it started).
    func stop() {
        inbox.withLock { $0.stopped = true }
        wake.signal()
    }

    private func take() -> (cues: [Cue], stopped: Bool, overflowed: Int) {
        inbox.withLock { inbox in
            defer {
                inbox.cues = []
                inbox.overflowed = 0
            }
            return (inbox.cues, inbox.stopped, inbox.overflowed)
        }
    }

    /// The voice thread's body: runs until `stop()`.
    func run(_ parts: Parts) {
        var session = VoiceSession(parts: parts, voice: self)
        session.start()
        while true {
            let (cues, stopped, overflowed) = take()
            if stopped { return }
            if overflowed > 0 {
                log.log(.warning, "voice: \(overflowed) callouts dropped (the queue was full)")
            }
            session.receive(cues)
            // While idle, one fixed phrase synthesised ahead, then the inbox looked at again.
            if session.warmUp() { continue }
            // Until the queue's next deadline or the device's next try, whichever comes first.
            let due = [session.queue.nextDeadline, session.nextRetry].compactMap { $0 }.min()
            let timeout = due.map { Int32(max(0, min(60, $0 - clock())) * 1000 + 1) } ?? -1
            wake.sleep(milliseconds: timeout)
        }
    }

    // MARK: For the session (the voice thread)

    func now() -> Double { clock() }
    /// `stop()` was called: the session says nothing more.
    var isStopped: Bool { inbox.withLock { $0.stopped } }
    func takeWhilePlaying() -> [Cue]? {
        let (cues, stopped, overflowed) = take()
        if overflowed > 0 { log.log(.warning, "voice: \(overflowed) callouts dropped (the queue was full)") }
        return stopped ? nil : cues
    }
    func note(_ change: (inout Counters) -> Void) { tally.withLock { change(&$0) } }
    func logLine(_ priority: DaemonLog.Priority, _ message: String, fields: [String: String] = [:]) {
        log.log(priority, message, fields: fields)
    }
    /// Stops `run` from outside the session's loop (a stop seen while playing).
    func restop() { inbox.withLock { $0.stopped = true } }
}
