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

    /// A forgotten stop lands the flight by itself (issue 27): the recorder keeps the input it
    /// landed at, so the touchdown smoother, reprocess and the live flight all land at the last
    /// movement (without it the saved flight ran on to the end of the raw log, 30 minutes late).
    @Test func aForgottenStopIsStoredLandedAtItsLastMovementAndReprocessesSo() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let recorder = FlightRecorder(logbook: logbook)
        var computer = FlightComputer()
        var reports: [FlightRecorder.Report] = []
        for event in ScenarioRunner.events(for: .forgottenStop.ending(at: 1200)).events {
            guard case .input(let input) = event else { continue }  // its END finds nothing
            reports += recorder.take(.flew(input, computer.handle(input)), after: computer)
        }
        reports += recorder.take(.closing, after: computer)
        let id = try #require(try logbook.entries().first?.id)
        let stored = try #require(try logbook.flight(id: id))
        #expect(stored.status == .finished, "\(reports)")
        #expect(stored.flight.landing == .standstill)
        #expect(stored.flight.distanceMethod == .smoothed)
        #expect(abs(stored.flight.elapsed - 400) < 5, "\(stored.flight.elapsed)")
        let again = try #require(try logbook.replay(flight: id))
        #expect(again.landing == .standstill)
        #expect(abs(again.elapsed - stored.flight.elapsed) < 1)
    }
}
