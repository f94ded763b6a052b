/// HR HIGH / HR LOW: a heart-rate mission's band alerts, with SINK RATE's bearable rules (SPEC
/// "Heart-rate missions").
///
/// - **No verdict during the warm-up.** Heart rate follows effort with a lag: from rest to a
///   steady run it climbs for minutes (the simulator's model: a 45 s first-order response plus a
///   slower drift; 60 → 150 bpm is within 1 bpm of its level after 4.5 time constants, 3.4 min),
///   so a runner who starts at the right effort would hear HR LOW for every first minute. The
///   verdict waits `warmUpSeconds` of moving time, or until the smoothed heart rate first
///   reaches the band, whichever comes first (an overshooting start is then still told).
/// - **A smoothed verdict**: an exponential average of the heart rate over `verdictSeconds`; a
///   strap's reading wanders by a few beats from one second to the next.
/// - **Hysteresis**: an episode begins `enterMargin` bpm outside the band and ends `exitMargin`
///   bpm back inside it; the verdict must hold `confirmSeconds`.
/// - **Merging and slow repeats** as for pace (`AlertEpisodeKeeper`).
/// - After a pause (or standing) heart rate has fallen and takes a while to come back: the
///   verdict waits `settleSeconds` after moving again.
///
/// Missing heart rate (a strap without skin contact) is no verdict, never HR LOW.
public struct HeartRateAlertMonitor: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Moving seconds before any verdict (see the type's comment): 5 minutes leaves the
        /// model's 3.4 min a margin for a slower real responder.
        public var warmUpSeconds = 300.0
        /// Time constant of the verdict's heart-rate average (s). Measured on runners holding a
        /// heart rate at the high edge of 140–155 (`Scenario.heartRateEdge`, the simulator's heart:
        /// 45 s lag, ±1.5 bpm wander and jitter; 8 seeds, 1 h; callouts an hour, repeats included):
        /// at 15 s, 2.1 an hour on the edge (worst 7); at 30 s, 0.1 (worst 1); at 60 s, 0 — but a
        /// runner who steps from 150 to 165 bpm waits up to 108 s for HR HIGH instead of 77 s.
        public var verdictSeconds = 30.0
        /// bpm beyond the band's edge before an episode begins: at 2, a runner on the edge heard
        /// 4.8 callouts an hour (worst 10); at 3, 0.1 (same bench).
        public var enterMargin = 3.0
        /// bpm back inside the band before an episode ends.
        public var exitMargin = 2.0
        /// How long the verdict must hold before it takes effect (s).
        public var confirmSeconds = 5.0
        /// A new episode of the same kind this soon after the last ended continues it (s).
        public var mergeSeconds = 60.0
        /// A long episode is said again this often (s), as SINK RATE.
        public var repeatSeconds = 180.0
        /// After a pause the verdict waits this long (s): heart rate dropped while standing and
        /// climbs back with its lag (~45 s to most of the way).
        public var settleSeconds = 60.0

        public init() {}
    }

    public let band: Mission.HeartRateBand
    public let configuration: Configuration
    /// Whether the verdict has begun (the warm-up over, or the band once reached).
    public private(set) var isArmed = false
    public var state: GPWSAlertState { episodes.state }
    private var episodes: AlertEpisodeKeeper
    /// The verdict's average (bpm); nil without a reading, paused or settling.
    public private(set) var verdictHeartRate: Double?
    private var movingSince: Double?
    private var lastUpdate: Double?

    public init(band: Mission.HeartRateBand, configuration: Configuration = Configuration()) {
        self.band = band
        self.configuration = configuration
        episodes = AlertEpisodeKeeper(
            confirmSeconds: configuration.confirmSeconds, mergeSeconds: configuration.mergeSeconds,
            repeatSeconds: configuration.repeatSeconds)
    }

    /// Feeds the heart rate now (nil: no fresh reading) at `time`, with the flight's moving time
    /// so far. Call while moving; `silence` on a pause.
    public mutating func update(heartRate: Double?, movingTime: Double, at time: Double) -> [GPWSChange] {
        defer { lastUpdate = time }
        var changes = episodes.flushPendingEnd(at: time)
        guard let heartRate, heartRate.isFinite else {
            verdictHeartRate = nil
            episodes.dropCandidate()
            return changes + episodes.settle(.normal, at: time)
        }
        let since = movingSince ?? time
        movingSince = since
        let elapsed = lastUpdate.map { max(0, time - $0) } ?? 0
        verdictHeartRate = PaceAlertMonitor.average(
            verdictHeartRate, heartRate, elapsed, configuration.verdictSeconds, restart: false)
        guard let verdict = verdictHeartRate else { return changes }
        // Compared, not a range: a band read from a damaged row (low above high) must not trap.
        if !isArmed,
            movingTime >= configuration.warmUpSeconds || (verdict >= band.low && verdict <= band.high)
        {
            isArmed = true
        }
        guard isArmed, time - since >= configuration.settleSeconds else {
            episodes.dropCandidate()
            return changes
        }
        changes += episodes.settle(classify(verdict), at: time)
        return changes + episodes.repeatIfDue(at: time)
    }

    /// The state the verdict implies from the current one (hysteresis).
    func classify(_ verdict: Double) -> GPWSAlertState {
        switch state {
        case .alerting(.heartRateHigh) where verdict > band.high - configuration.exitMargin: return state
        case .alerting(.heartRateLow) where verdict < band.low + configuration.exitMargin: return state
        default: break
        }
        if verdict > band.high + configuration.enterMargin { return .alerting(.heartRateHigh) }
        if verdict < band.low - configuration.enterMargin { return .alerting(.heartRateLow) }
        return .normal
    }

    /// Ends any episode at once (pause, MISSION COMPLETE, touchdown); after it the verdict
    /// settles again.
    public mutating func silence(at time: Double) -> [GPWSChange] {
        verdictHeartRate = nil
        movingSince = nil
        return episodes.silence(at: time)
    }
}
