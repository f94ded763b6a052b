import Foundation
import RunWayCore
import RunWayHardware
import RunWayStore
import RunWayVoice
import Synchronization

/// Everything the runner hears: the engine's outputs (through `Narration`) and the recorder's
/// failures (news), as an observer of the engine; the board's faults, the END hold's
/// confirmation, the export's end and the on-demand status, called directly by the service that
/// finds them — a fault must sound even while the engine's thread is stuck in a write (the case
/// the watchdog is for). Each cue goes to the voice's queue (`Voice`), which buzzes and speaks
/// it on its own thread; without a voice (tests of other parts) the buzzer plays it at once.
/// Each fault is also a log line, each callout an info line (`callout: NAME`). It never waits,
/// so it may be called on the engine's thread and from any other.
final class Annunciator: FlightObserver, Sendable {
    private let narration = Mutex(Narration())
    let driver: BuzzerDriver
    let voice: Voice?
    private let log: DaemonLog

    init(driver: BuzzerDriver, voice: Voice? = nil, log: DaemonLog) {
        self.driver = driver
        self.voice = voice
        self.log = log
    }

    func engine(_ engine: isolated FlightEngine, told event: FlightEvent) {
        switch event {
        case .flew(_, let outputs): heard(outputs)
        case .news(let report as FlightRecorder.Report):
            switch report {
            case .recordingFailed(let error):
                fault(.storage, "recording paused: \(error.logDescription)")
            case .storeFailed(let error, _, let until):
                fault(
                    .storage,
                    "the flight could not be stored (\(error.logDescription)); raw log committed up to \(until.map(UTCTime.format) ?? "its start")"
                )
            case .stored: break
            }
        case .news, .closing: break
        }
    }

    func heard(_ outputs: [EngineOutput]) {
        let cues = narration.withLock { $0.cues(for: outputs) }
        for cue in cues {
            log.log(.info, "callout: \(cue.name)")
            tell(cue)
        }
    }

    /// The cue to the voice's queue, or straight to the buzzer without a voice.
    private func tell(_ cue: Cue) {
        if let voice {
            voice.say(cue)
        } else if let pattern = cue.pattern {
            driver.play(pattern, urgent: cue.urgent)
        }
    }

    func holdConfirmed() {
        log.log(.debug, "sound: END hold confirmed")
        tell(Narration.holdConfirmed)
    }

    /// START pressed while flying: the status now (distance, time, pace, and a mission's margin).
    /// Said by the voice only; the buzzer has no pattern for numbers.
    func statusRequested(at time: Double) {
        guard let cue = narration.withLock({ $0.statusCue(at: time) }) else { return }
        log.log(.info, "callout: status")
        tell(cue)
    }

    /// The USB export ended and the stick may be pulled (or it failed: the journal says why).
    /// PAUSE in preflight chose the run START will fly: its place as pips, its name by voice.
    func runChosen(_ name: String, position: Int) {
        tell(Narration.runChosenCue(name: name, position: position))
    }

    func exportFinished(ok: Bool) {
        log.log(ok ? .notice : .error, ok ? "export to the USB stick done" : "export to the USB stick failed")
        tell(Narration.exportCue(ok: ok))
    }

    /// A paired sensor dropped in flight (the sensor thread logs `sensor lost: NAME` itself,
    /// in flight or not): its pattern and, with the voice, its kind by name.
    func sensorLost(_ name: String, kind: Phrase.Sensor) {
        log.log(.info, "callout: sensor lost")
        tell(Narration.sensorLostCue(kind, name: name))
    }

    /// A sensor said lost in this flight is back: the voice says so; the buzzer stays quiet.
    func sensorBack(_ name: String, kind: Phrase.Sensor) {
        log.log(.info, "callout: sensor back")
        tell(Narration.sensorBackCue(kind, name: name))
    }

    /// Sounds `fault`'s pattern and says its name with what to do, and logs `detail` under it.
    func fault(_ fault: BoardFault, _ detail: String) {
        log.log(
            fault == .batteryLow ? .warning : .error, "\(fault.rawValue): \(detail)",
            fields: ["fault": "\(fault)"])
        tell(Narration.cue(for: fault))
    }
}

/// The voice as a service: its thread starts in `run()` and ends on cancellation.
struct VoiceService: Service {
    let name = "voice"
    let voice: Voice
    let parts: Voice.Parts

    func run() async throws {
        let (voice, parts) = (self.voice, self.parts)
        await runOnOwnThread("voice", { voice.run(parts) }, stop: { voice.stop() })
    }
}

/// The buzzer as a service: its line is opened and driven on a thread of its own, started in
/// `run()`; on cancellation the thread switches the line off and is joined. Without a buzzer line
/// (a board wired without one, a line in use) the daemon says so and runs silent.
struct BuzzerService: Service {
    let name = "buzzer"
    let driver: BuzzerDriver
    /// Opens the line (called on the buzzer's thread).
    let open: @Sendable () throws -> any BuzzerLine
    let log: DaemonLog

    func run() async throws {
        let (driver, open, log) = (self.driver, self.open, self.log)
        await runOnOwnThread(
            "buzzer",
            {
                do {
                    driver.run(line: try open())
                } catch {
                    log.log(.error, "buzzer: \(error); the runner will hear nothing")
                }
            }, stop: { driver.stop() })
        await waitForCancellation()
    }
}

/// The simulated board's buzzer: no line to drive (the sounds are in the debug log).
final class SilentBuzzerLine: BuzzerLine {
    func set(_ on: Bool) {}
}
