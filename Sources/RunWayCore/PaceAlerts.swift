/// SINK RATE / OVERSPEED (SPEC "GPWS and missions", "bearable callouts").
///
/// Alerts arm only once the runner first reaches the target band, so a warm-up never sounds
/// SINK RATE. Armed: slower than the band → SINK RATE, faster → OVERSPEED; no pace (standing,
/// paused) is normal.
///
/// **Beyond the seed — a verdict a runner can live with.** The seed judged every pace reading, so
/// a runner holding 5:44.8/km against a 5:45 limit heard 96 SINK RATE episodes an hour (`make
/// bench-callouts`, 20 seeds; worst 106). Here (1.1 an hour, worst 2):
/// - the verdict judges its own pace: an exponential average of the smoothed speed over
///   `verdictSeconds` (the PFD's pace follows a change in seconds and is too jumpy for a verdict);
/// - hysteresis: an episode begins only `enterMargin` s/km outside the band and ends only
///   `exitMargin` s/km back inside it, and a verdict must hold `confirmSeconds` (episode times are
///   backdated to when it began);
/// - an episode of the same kind that begins within `mergeSeconds` of the last one's end is the
///   same episode (no new callout, one logged episode);
/// - a long episode is said again every `repeatSeconds`, never continuously.
///
/// The numbers were chosen on the band-edge runners (steady pace within ±3 s/km of an edge, the
/// hilly course's GPS noise) against a runner who really is 20 s/km outside the band, who must
/// hear SINK RATE within 15 s (11–14 s here, through `clearMargin`): see `Configuration`.
public struct PaceAlertMonitor: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Time constant of the verdict's speed average (s). Band-edge runners (bench, 8 seeds an
        /// offset, 1 h): at 10 s, 2.1 episodes an hour 0.2 s/km inside the edge (worst 4); at
        /// 15 s, 1.0 (worst 2); 20 s gained little more and ends an episode later.
        public var verdictSeconds = 15.0
        /// s/km beyond the band's edge before an episode begins. 3.5 left 6.8 episodes an hour at
        /// the edge; 5 left 1.0; 6 silenced runners who really were 5 s/km out.
        public var enterMargin = 5.0
        /// s/km back inside the band before an episode ends.
        public var exitMargin = 4.0
        /// s/km beyond the band's edge at which the smoothed (PFD) pace alone begins an episode:
        /// a runner clearly off the band is told without waiting for the verdict's average.
        public var clearMargin = 12.0
        /// How long the verdict must hold before it takes effect (s).
        public var confirmSeconds = 2.0
        /// A new episode of the same kind this soon after the last ended continues it (s).
        public var mergeSeconds = 60.0
        /// A long episode is said again this often (s): a runner slow for ten minutes hears it
        /// three times, not six hundred.
        public var repeatSeconds = 180.0
        /// Below this smoothed speed (m/s) the runner is stopping or standing: no verdict (the
        /// pause detector's business, not SINK RATE's). A walker at 1.3 m/s is still judged.
        public var standingSpeed = 1.0
        /// After a start, a stop or a pause the verdict waits this long (s) for the runner to get
        /// up to speed: the stops scenario heard SINK RATE while accelerating away from lights.
        public var settleSeconds = 10.0
        /// Arms this long after the first reading even if the band was never reached; nil: only
        /// by reaching it. A workout's step sets it: a runner who never gets up to an interval's
        /// pace must hear so, and 30 s is two of the verdict's time constants (86 % of the way
        /// from the recovery's pace), so the change of pace itself is not judged.
        public var armAfterSeconds: Double?

        public init() {}
    }

    public typealias State = GPWSAlertState
    public typealias Change = GPWSChange

    public let band: Mission.PaceBand
    public let configuration: Configuration
    public private(set) var isArmed = false
    public var state: State { episodes.state }
    private var episodes: AlertEpisodeKeeper
    /// The verdict's speed average (m/s); nil while standing or paused.
    private var verdictSpeed: Double?
    /// The smoothed speed last given (m/s).
    private var quickSpeed: Double?
    /// When the runner last got going (above `standingSpeed`).
    private var movingSince: Double?
    private var lastUpdate: Double?
    /// The first reading's time (`armAfterSeconds` counts from it).
    private var firstUpdate: Double?

    public init(band: Mission.PaceBand, configuration: Configuration = Configuration()) {
        self.band = band
        self.configuration = configuration
        episodes = AlertEpisodeKeeper(
            confirmSeconds: configuration.confirmSeconds, mergeSeconds: configuration.mergeSeconds,
            repeatSeconds: configuration.repeatSeconds)
    }

    /// The pace the verdict judges (s/km), or nil.
    public var verdictPace: Double? {
        verdictSpeed.flatMap { Pace.secondsPerKilometre(speed: $0) }
    }

    /// The smoothed speed's pace (s/km), or nil.
    public var quickPace: Double? {
        quickSpeed.flatMap { Pace.secondsPerKilometre(speed: $0) }
    }

    /// Feeds the smoothed speed at `time` (nil or 0 while paused or standing: no verdict, and the
    /// average starts afresh when the runner goes again). `changed`: the speed smoother saw a
    /// real change of pace (it re-seeded), so the verdict's average starts afresh from it too —
    /// a runner who really slows is judged in seconds, while noise never re-seeds.
    public mutating func update(speed: Double?, at time: Double, changed: Bool = false) -> [Change] {
        defer { lastUpdate = time }
        if firstUpdate == nil { firstUpdate = time }
        var changes = episodes.flushPendingEnd(at: time)
        guard let speed, speed >= configuration.standingSpeed, speed.isFinite else {
            verdictSpeed = nil
            quickSpeed = nil
            movingSince = nil
            episodes.dropCandidate()
            return changes + settle(.normal, at: time)
        }
        let since = movingSince ?? time
        movingSince = since
        let settling = time - since < configuration.settleSeconds
        let elapsed = lastUpdate.map { max(0, time - $0) } ?? 0
        verdictSpeed = Self.average(
            verdictSpeed, speed, elapsed, configuration.verdictSeconds, restart: changed || settling)
        quickSpeed = speed
        guard !settling else {
            episodes.dropCandidate()
            return changes
        }
        changes += settle(classify(verdict: verdictPace, quick: quickPace), at: time)
        return changes + episodes.repeatIfDue(at: time)
    }

    /// An exponential average of `value` over `seconds`, `elapsed` after the last; `restart`
    /// (or no average yet) starts it at `value`.
    static func average(
        _ current: Double?, _ value: Double, _ elapsed: Double, _ seconds: Double, restart: Bool
    )
        -> Double
    {
        guard let current, !restart else { return value }
        return current + (value - current) * (1 - CMath.exp(-elapsed / seconds))
    }

    /// The state the verdict and the smoothed pace imply from the current one (hysteresis). An
    /// episode begins when the verdict is `enterMargin` outside the band, or the smoothed pace
    /// `clearMargin` outside; it ends only when the verdict is `exitMargin` back inside and the
    /// smoothed pace inside.
    func classify(verdict: Double?, quick: Double?) -> State {
        guard let verdict, let quick else { return .normal }
        let slow = band.slowestAllowedPace
        let fast = band.fastestAllowedPace
        switch state {
        case .alerting(.sinkRate) where verdict > slow - configuration.exitMargin || quick > slow:
            return state
        case .alerting(.overspeed) where verdict < fast + configuration.exitMargin || quick < fast:
            return state
        default: break
        }
        guard isArmed else { return .normal }
        if verdict > slow + configuration.enterMargin || quick > slow + configuration.clearMargin {
            return .alerting(.sinkRate)
        }
        if verdict < fast - configuration.enterMargin || quick < fast - configuration.clearMargin {
            return .alerting(.overspeed)
        }
        return .normal
    }

    /// Ends any episode at once (pause, MISSION COMPLETE, touchdown); nothing is held back.
    public mutating func silence(at time: Double) -> [Change] {
        verdictSpeed = nil
        quickSpeed = nil
        movingSince = nil
        return episodes.silence(at: time)
    }

    /// Arms once the verdict is first inside the band; moves to `next` once it has held.
    private mutating func settle(_ next: State, at time: Double) -> [Change] {
        if let pace = verdictPace, pace >= band.fastestAllowedPace, pace <= band.slowestAllowedPace {
            isArmed = true
        }
        if let after = configuration.armAfterSeconds, let first = firstUpdate, time - first >= after {
            isArmed = true
        }
        return episodes.settle(next, at: time)
    }
}
