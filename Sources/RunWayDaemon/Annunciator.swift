import Foundation
import RunWayCore
import RunWayHardware
import RunWayStore
import Synchronization

/// Everything the runner hears: the engine's outputs (through `Annunciation`) and the recorder's
/// failures (news), as an observer of the engine; the board's faults, the END hold's
/// confirmation and the export's end, called directly by the service that finds them — a fault
/// must sound even while the engine's thread is stuck in a write (the case the watchdog is for).
/// Each fault is also a log line. It only queues patterns on the `BuzzerDriver`, never waits, so
/// it may be called on the engine's thread and from any other.
final class Annunciator: FlightObserver, Sendable {
    private let annunciation = Mutex(Annunciation())
    let driver: BuzzerDriver
    private let log: DaemonLog

    init(driver: BuzzerDriver, log: DaemonLog) {
        self.driver = driver
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
        let sounds = annunciation.withLock { $0.sounds(for: outputs) }
        for sound in sounds {
            log.log(.debug, "sound: \(sound.name)")
            driver.play(sound.pattern, urgent: sound.urgent)
        }
    }

    func holdConfirmed() {
        log.log(.debug, "sound: END hold confirmed")
        driver.play(.holdConfirmed, urgent: true)
    }

    /// The USB export ended and the stick may be pulled (or it failed: the journal says why).
    func exportFinished(ok: Bool) {
        log.log(ok ? .notice : .error, ok ? "export to the USB stick done" : "export to the USB stick failed")
        driver.play(ok ? .exportDone : .exportFailed, urgent: false)
    }

    /// Sounds `fault`'s pattern and logs `detail` under it.
    func fault(_ fault: BoardFault, _ detail: String) {
        log.log(
            fault == .batteryLow ? .warning : .error, "\(fault.rawValue): \(detail)",
            fields: ["fault": "\(fault)"])
        driver.play(BuzzerPattern.pattern(for: fault), urgent: true)
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
