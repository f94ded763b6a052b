import RunWayCore
import RunWaySimulator
import Testing

@testable import RunWayStore

/// What the recorder reports, in the order it happened: a commit that fails at touchdown is said
/// (recording paused) before what became of the landing, as the recorder did before it was an
/// observer (the review found the order turned round).
@Suite("The recorder's reports come in the order of what happened")
struct RecorderReportTests {
    @Test func aCommitThatFailsAtTouchdownIsSaidBeforeTheLanding() throws {
        let logbook = try Logbook(path: temporaryLogbookPath(), journalCapacity: 0)
        let recorder = FlightRecorder(logbook: logbook)
        var computer = FlightComputer()
        var reports: [FlightRecorder.Report] = []
        for event in ScenarioRunner.events(for: .flat5k.ending(at: 600)).events {
            switch event {
            case .input(let input):
                reports += recorder.take(.flew(input, computer.handle(input)), after: computer)
            case .end(let sentAt):
                // The logbook takes no write from here on (as a failed card): the last commit
                // and the summary both fail at touchdown.
                #expect(!recorder.pending.isEmpty)
                try logbook.database.execute("PRAGMA query_only = 1")
                let (result, outputs) = computer.end(sentAt: sentAt)
                let end = EngineInput.end(at: computer.now, sentAt: sentAt)
                reports += recorder.take(.flew(end, outputs + [.ended(result)]), after: computer)
            }
        }
        #expect(reports.count == 2, "\(reports)")
        guard reports.count == 2 else { return }
        if case .recordingFailed = reports[0] {} else { Issue.record("first: \(reports[0])") }
        if case .storeFailed = reports[1] {} else { Issue.record("second: \(reports[1])") }
    }

    /// The END commits the raw log and returns; the smoothed flight is stored at the recorder's
    /// next event (or at shutdown), so runwayd answers STOP before the smoother runs.
    @Test(arguments: [false, true])
    func theLandedFlightIsStoredAtTheNextEventOrAtShutdown(shutdown: Bool) throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let recorder = FlightRecorder(logbook: logbook)
        var computer = FlightComputer()
        var reports: [FlightRecorder.Report] = []
        var endTime = 0.0
        for event in ScenarioRunner.events(for: .flat5k.ending(at: 600)).events {
            switch event {
            case .input(let input):
                reports += recorder.take(.flew(input, computer.handle(input)), after: computer)
            case .end(let sentAt):
                let (result, outputs) = computer.end(sentAt: sentAt)
                let end = EngineInput.end(at: computer.now, sentAt: sentAt)
                reports += recorder.take(.flew(end, outputs + [.ended(result)]), after: computer)
                endTime = computer.now
            }
        }
        #expect(reports.isEmpty, "\(reports)")
        let due = try #require(recorder.landingDue)
        #expect(recorder.flightID == nil && recorder.pending.isEmpty)
        // Durable already: the whole raw log, the row still open (a cut now is recovered whole).
        #expect(try logbook.recordedUntil(flight: due.id) == due.flight.endTime)
        #expect(try logbook.entries().first?.status == .flying)
        let next: FlightEvent = shutdown ? .closing : .flew(.tick(endTime + 1), [])
        reports += recorder.take(next, after: computer)
        #expect(reports == [.stored(.saved(due.id))])
        #expect(recorder.landingDue == nil)
        let stored = try #require(try logbook.flight(id: due.id))
        #expect(stored.status == .finished && stored.flight.distanceMethod == .smoothed)
        #expect(stored.flight.liveDistance == due.flight.distance)
    }
}
