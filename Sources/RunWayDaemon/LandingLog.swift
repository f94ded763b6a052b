import RunWayCore
import RunWayStore

/// What the recorder made of each landing, in runwayd's log: the flight's number when it is
/// saved (and the landing marker the USB drive's rebuild watches), or that it was too short to
/// record. The recorder's failures are the annunciator's: they are faults the runner hears.
final class LandingLog: FlightObserver, Sendable {
    let log: DaemonLog
    let logbookPath: String

    init(log: DaemonLog, logbookPath: String) {
        self.log = log
        self.logbookPath = logbookPath
    }

    func engine(_ engine: isolated FlightEngine, told event: FlightEvent) {
        guard case .news(let report as FlightRecorder.Report) = event else { return }
        switch report {
        case .stored(.saved(let id)):
            log.log(.notice, "flight \(id) saved", fields: ["flight_id": "\(id)"])
            LandingMarker.mark(flight: id, beside: logbookPath)
        case .stored(.notRecorded): log.log(.notice, "flight under 100 m: not recorded")
        case .recordingFailed, .storeFailed: break
        }
    }
}
