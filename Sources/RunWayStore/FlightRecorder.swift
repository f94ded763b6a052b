import RunWayCore

/// Records a flight as it flies: every engine input goes into the raw log, committed every
/// `commitInterval` seconds of flight time, so a power cut loses at most that much (bound: < 5 s).
///
/// Why 4 s: the bound allows up to 5 s, less the time a commit takes; each commit is one
/// `fdatasync` of one 512-byte sector (at 1 Hz GPS) of the logbook's raw-log journal, so 900
/// commits an hour write 0.47 MiB (`make bench`). A failed write (disk full when the full journal must
/// move into SQLite, or no journal and SQLite is full) keeps the inputs in memory, is reported
/// once through `onWriteFailure` (and, observing an engine, as `Report.recordingFailed`), and
/// everything is written at the next commit that succeeds.
///
/// As a `FlightObserver` of the `FlightEngine` it is the pipeline's recording: a flight that
/// began (`.began`) opens its row at its ROTATE time — not at the input's, which may come later,
/// so a replay starts exactly where the live flight did; every input of a flight is recorded; a
/// landed flight's raw log is committed at once and the flight stored (smoothed) at the next event
/// (`landingDue`), or removed when under 100 m; at `.closing` a due landing is stored, a flight in the air is
/// committed and stays open, so a restart within the window continues it. What became of each
/// flight is posted to the engine as a `Report`, which the buzzer, the log and the demo hear.
public final class FlightRecorder {
    /// What the recorder did beyond the engine's outputs: news the engine's observers hear.
    public enum Report: FlightNews, Equatable {
        /// The landed flight is in the logbook, or was not recorded (under 100 m).
        case stored(Landing)
        /// Storing the landed flight failed: the raw log is kept up to `committedUntil`.
        case storeFailed(StoreError, flight: Flight, committedUntil: Double?)
        /// Recording paused (a full card, a failed device): said once until a write succeeds.
        case recordingFailed(StoreError)
    }

    public let logbook: Logbook
    /// What the logbook says the flights came from (`live`, `demo`, `fly FILE`).
    public let source: String
    public let commitInterval: Double
    public private(set) var flightID: Int64?
    public private(set) var pending: [EngineInput] = []
    /// The flight time up to which the raw log is durably committed: what a power cut now would
    /// leave for recovery.
    public private(set) var committedUntil: Double?
    private var lastCommit: Double = -.infinity
    private var failing = false
    /// A write failure not yet posted to the engine observed.
    private var unposted: StoreError?
    private let onWriteFailure: (StoreError) -> Void

    public init(
        logbook: Logbook, source: String = "live", commitInterval: Double = 4,
        onWriteFailure: @escaping (StoreError) -> Void = { _ in }
    ) {
        self.logbook = logbook
        self.source = source
        self.commitInterval = commitInterval
        self.onWriteFailure = onWriteFailure
    }

    /// The flight began (ROTATE at `time`).
    public func begin(
        at time: Double, mission: Mission?, workout: Workout? = nil, run: String? = nil
    ) throws(StoreError) {
        flightID = try logbook.begin(
            startTime: time, mission: mission, workout: workout, run: run, source: source)
        lastCommit = time
        committedUntil = time
        pending.removeAll()
    }

    /// Continues recording a flight the logbook already holds (see `Logbook.startUp`).
    public func resume(flight id: Int64, at time: Double) {
        flightID = id
        lastCommit = time
        committedUntil = time
        pending.removeAll()
    }

    /// Records one input; commits when a commit is due.
    public func record(_ input: EngineInput) {
        guard flightID != nil else { return }
        switch input {
        case .start, .end: return
        default: break
        }
        pending.append(input)
        if input.time - lastCommit >= commitInterval { commit(until: input.time) }
    }

    /// Writes what is pending. Returns false when the write failed (kept for the next try).
    @discardableResult
    public func commit(until time: Double) -> Bool {
        guard let id = flightID, !pending.isEmpty else { return true }
        do {
            try logbook.append(flight: id, inputs: pending, until: time)
            pending.removeAll(keepingCapacity: true)
            lastCommit = time
            committedUntil = time
            failing = false
            return true
        } catch {
            if !failing {
                onWriteFailure(error)
                unposted = error
            }
            failing = true
            lastCommit = time  // try again one interval later, not on every input
            return false
        }
    }

    /// What became of a landed flight.
    public enum Landing: Sendable, Equatable {
        case saved(Int64)
        /// Under 100 m: not recorded (SPEC); the row and its raw log were removed.
        case notRecorded
    }

    /// Touchdown: the rest of the raw log, then the derived data. If this throws (a full disk),
    /// the flight stays open with its raw log committed up to `committedUntil`, and the next
    /// start recovers that much; the inputs after it are still `pending` here.
    ///
    /// The flight stored is the touchdown smoother's (`FlightSmoothing`) over the raw log just
    /// committed, flown with `configuration` (the engine's) in the zones the live flight was
    /// counted in; the live figures go beside it.
    @discardableResult
    public func land(_ flight: Flight, configuration: EngineConfiguration) throws(StoreError) -> Landing? {
        guard let id = flightID else { return nil }
        if flight.status == .tooShort { return try discard(flight: id) }
        try commitRest(of: flight, id: id)
        try store(flight, id: id, configuration: configuration)
        flightID = nil
        return .saved(id)
    }

    /// A landed flight whose raw log is committed to its end, waiting to be smoothed and stored.
    /// As the engine's observer the recorder stores it at its next event (runwayd's next GPS
    /// report, within a second) or at shutdown, not inside the END: the smoother's passes over
    /// a long run take seconds on the board, and the runner's STOP is answered first (its
    /// deadline is 3 s). A power cut before it is stored loses nothing: the raw log is whole
    /// and the next start recovers the flight from it.
    public private(set) var landingDue: (id: Int64, flight: Flight, configuration: EngineConfiguration)?

    private func discard(flight id: Int64) throws(StoreError) -> Landing {
        try logbook.discard(flight: id)
        flightID = nil
        pending.removeAll()
        return .notRecorded
    }

    /// The raw log to the flight's end, durably.
    private func commitRest(of flight: Flight, id: Int64) throws(StoreError) {
        guard !commit(until: flight.endTime) else { return }
        try logbook.append(flight: id, inputs: pending, until: flight.endTime)
        pending.removeAll()
        committedUntil = flight.endTime
    }

    /// The saved flight: smoothed over the raw log read back a page at a time (a long flight's
    /// raw log is never all in memory), then its derived data in one transaction.
    private func store(_ flight: Flight, id: Int64, configuration: EngineConfiguration) throws(StoreError) {
        let inputs = try logbook.rawInputSequence(flight: id)
        let saved = Logbook.saved(flight, inputs: inputs, configuration: configuration)
        if let error = inputs.failure.error { throw error }
        try logbook.finish(flight: id, with: saved)
    }

    /// Touchdown as the engine's observer: the raw log now, the stored flight later
    /// (`landingDue`). Under 100 m, and with no flight open, as `land`.
    private func touchdown(_ flight: Flight, configuration: EngineConfiguration) throws(StoreError)
        -> Landing?
    {
        guard let id = flightID else { return nil }
        if flight.status == .tooShort { return try discard(flight: id) }
        try commitRest(of: flight, id: id)
        landingDue = (id, flight, configuration)
        flightID = nil
        return nil
    }

    /// Stores the landing that is due, if one is; what became of it.
    private func storeDueLanding() -> Report? {
        guard let due = landingDue else { return nil }
        landingDue = nil
        do {
            try store(due.flight, id: due.id, configuration: due.configuration)
            return .stored(.saved(due.id))
        } catch {
            return .storeFailed(error, flight: due.flight, committedUntil: due.flight.endTime)
        }
    }
}

extension FlightRecorder: FlightObserver {
    public func engine(_ engine: isolated FlightEngine, told event: FlightEvent) {
        for report in take(event, after: engine.computer) { engine.post(report) }
    }

    /// What the recorder does with one event of the flight, `computer` being the engine as the
    /// event left it; returns what it has to report. (The observer is this and nothing else; a
    /// test may drive a recorder with it directly.)
    public func take(_ event: FlightEvent, after computer: FlightComputer) -> [Report] {
        var reports: [Report] = []
        /// A commit that failed is said where it failed, before what followed it.
        func sayWriteFailure() {
            if let failure = unposted {
                unposted = nil
                reports.append(.recordingFailed(failure))
            }
        }
        if let stored = storeDueLanding() { reports.append(stored) }
        switch event {
        case .flew(let input, let outputs):
            let wasRecording = flightID != nil
            for case .began(let rotate, _, let mission, let workout, let run) in outputs {
                do {
                    try begin(at: rotate, mission: mission, workout: workout, run: run)
                } catch {
                    reports.append(.recordingFailed(error))
                }
            }
            // The input a forgotten stop landed at is the flight's too: a replay of the raw log
            // must reach the same standstill to land where the live flight did.
            let landedByItself =
                !computer.isFlying && computer.landedByItself != nil
                && outputs.contains { if case .ended(.landed) = $0 { true } else { false } }
            if computer.isFlying || landedByItself {
                if case .start(let time, _, _, _, _) = input {
                    // START on a flight already recording can only resume it (the engine's rule,
                    // issue 27; flying unpaused it does nothing): kept as the resume it is, or the
                    // flight flown again from its raw log stays paused from the bump to the end.
                    if wasRecording { record(.resume(at: time)) }
                } else {
                    record(input)
                }
            }
            sayWriteFailure()
            for case .ended(.landed(let flight)) in outputs {
                do {
                    let landing = try touchdown(flight, configuration: computer.configuration)
                    sayWriteFailure()
                    if let landing { reports.append(.stored(landing)) }
                } catch {
                    sayWriteFailure()
                    reports.append(.storeFailed(error, flight: flight, committedUntil: committedUntil))
                }
            }
        case .closing:
            // Shutdown with a flight in the air: committed up to the last input, left open.
            if computer.isFlying { commit(until: computer.now) }
        case .news: break
        }
        sayWriteFailure()
        return reports
    }
}
