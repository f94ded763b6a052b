import RunWayCore

/// Records a flight as it flies: every engine input goes into the raw log, committed every
/// `commitInterval` seconds of flight time, so a power cut loses at most that much (bound: < 5 s).
///
/// Why 4 s: the bound allows up to 5 s, less the time a commit takes; each commit is one
/// `fdatasync` of one 512-byte sector (at 1 Hz GPS) of the logbook's raw-log journal, so 900
/// commits an hour write 0.47 MiB (`make bench`). A failed write (disk full when the full journal must
/// move into SQLite, or no journal and SQLite is full) keeps the inputs in memory, is reported
/// once through `onWriteFailure`, and everything is written at the next commit that succeeds.
public final class FlightRecorder {
    public let logbook: Logbook
    public let commitInterval: Double
    public private(set) var flightID: Int64?
    public private(set) var pending: [EngineInput] = []
    /// The flight time up to which the raw log is durably committed: what a power cut now would
    /// leave for recovery.
    public private(set) var committedUntil: Double?
    private var lastCommit: Double = -.infinity
    private var failing = false
    private let onWriteFailure: (StoreError) -> Void

    public init(
        logbook: Logbook, commitInterval: Double = 4,
        onWriteFailure: @escaping (StoreError) -> Void = { _ in }
    ) {
        self.logbook = logbook
        self.commitInterval = commitInterval
        self.onWriteFailure = onWriteFailure
    }

    /// The flight began (ROTATE at `time`).
    public func begin(at time: Double, mission: Mission?, source: String = "live") throws(StoreError) {
        flightID = try logbook.begin(startTime: time, mission: mission, source: source)
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

    /// Records `input` after the engine has handled it: the first time the engine is flying, the
    /// flight row is opened at the flight's ROTATE time with its mission — not at the input's
    /// time, which may come later, so a replay starts exactly where the live flight did.
    public func record(
        _ input: EngineInput, flying: Bool, rotateTime: Double?, mission: Mission?, source: String = "live"
    ) throws(StoreError) {
        guard flying else { return }
        if flightID == nil, let rotateTime { try begin(at: rotateTime, mission: mission, source: source) }
        record(input)
    }

    /// `record(_:flying:rotateTime:mission:)` for an engine driven directly.
    public func record(_ input: EngineInput, handledBy computer: FlightComputer, source: String = "live")
        throws(StoreError)
    {
        try record(
            input, flying: computer.isFlying, rotateTime: computer.rotateTime, mission: computer.mission,
            source: source)
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
            if !failing { onWriteFailure(error) }
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
    @discardableResult
    public func land(_ flight: Flight) throws(StoreError) -> Landing? {
        guard let id = flightID else { return nil }
        if flight.status == .tooShort {
            try logbook.discard(flight: id)
            flightID = nil
            pending.removeAll()
            return .notRecorded
        }
        if !commit(until: flight.endTime), let id = flightID {
            try logbook.append(flight: id, inputs: pending, until: flight.endTime)
            pending.removeAll()
            committedUntil = flight.endTime
        }
        try logbook.finish(flight: id, with: flight)
        flightID = nil
        return .saved(id)
    }
}
