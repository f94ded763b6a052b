/// Judges each fix's GPS time against the board's own time line before anything believes it.
///
/// A receiver's time is not always the time: a cold start's first RMC, a GPS week-number
/// rollover and gpsd's own date glitches (the `bt451` capture jumps a day ahead for one epoch,
/// then back) all deliver fixes dated far from now. Every later stage treats GPS time as a
/// clock that only moves forward (the epoch filter, the engine's one-fix-per-time rule, the FDR's
/// five-second marks, the time base that maps button presses), so one fix dated a year ahead
/// used to end the recording of a live run: every correct fix after it looked old. Here each fix
/// is held against the monotonic clock instead, which never jumps:
///
/// - **The line is established by agreement.** The first `confirmations` fixes must agree with
///   each other (their GPS − monotonic offsets within `agreement`); until then they are held, and
///   a fix that disagrees starts the count over (the earlier ones were the outliers). Nothing is
///   lost: the held fixes are delivered, in order, once the line stands.
/// - **A fix on the line is accepted.** Its time, mapped onto the board's axis, may lead the time
///   base's expectation by at most `earlyLimit` (a fix cannot reach the board before its own
///   time; the margin is delivery jitter) and trail it by at most `lateLimit` (gpsd delivers late
///   after a stall; later than that it is another line).
/// - **A fix off the line is quarantined**, never believed alone. Quarantined fixes that agree
///   with each other for `reconfirmations` fixes in a row are a real correction (a receiver that
///   fixed its clock): in the air, or when the new line is behind the axis, they are mapped onto
///   the axis by a constant `shift`, so the flight's clock never jumps; on the ground, a line
///   ahead of the axis is adopted as it is (the axis may move forward while nothing flies). The
///   quarantined fixes are then delivered, mapped, in order.
///
/// The axis is the `TimeBase` the daemon maps its monotonic inputs with, fed only with accepted
/// times: no single fix can move it. Memory is bounded by `capacity` fixes held at once.
public struct FixTimeline: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// How far (s) a fix may lead the time base's expectation. The time base takes the least
        /// delayed of its recent fixes, so an honest fix sits at or behind it; 2 s is the time
        /// base's own jump limit.
        public var earlyLimit = 2.0
        /// How far (s) a fix may trail the expectation: gpsd delivers a burst of late fixes after
        /// a serial or USB stall of a few seconds.
        public var lateLimit = 10.0
        /// Two fixes agree when their GPS − monotonic offsets differ by at most this.
        public var agreement = 2.0
        /// Agreeing fixes that establish the first line (3 at 1 Hz: the first fix is delivered
        /// 2 s late, which a cold start's tens of seconds hide).
        public var confirmations = 3
        /// Agreeing quarantined fixes that make a correction: more than a glitch's one or two
        /// epochs, few enough that a real correction costs seconds, not minutes (nothing is lost
        /// either way: the quarantined fixes are delivered once it is made).
        public var reconfirmations = 5
        /// Fixes held at once (provisional or quarantined); beyond it the oldest are dropped.
        /// 10 Hz for `reconfirmations` fixes with room to spare.
        public var capacity = 128

        public init() {}
    }

    /// What happened to the time line, for the daemon's log.
    public enum Event: Sendable, Equatable {
        /// The first line stands: fixes from now on are judged against it.
        case established(at: Double)
        /// A fix off the line (the first of a spell): `offBy` seconds from where it should be.
        case quarantined(time: Double, offBy: Double)
        /// Quarantined fixes agreed on another line `by` seconds from the axis: mapped onto it
        /// (`adopted` false), or the axis moved forward to it (`adopted` true).
        case corrected(by: Double, adopted: Bool)

        /// A fix off the line is worth a warning; the rest is the line doing its job.
        public var isWarning: Bool {
            if case .quarantined = self { return true }
            return false
        }
    }

    public struct Judgement: Sendable, Equatable {
        /// Fixes to deliver now, in time order, on the board's axis (usually this one, none while
        /// it is held, several when a line stands).
        public var fixes: [Fix] = []
        public var event: Event?
    }

    public let configuration: Configuration
    /// The board's axis: monotonic → GPS time, from accepted fixes only.
    public private(set) var base: TimeBase
    /// Receiver time − axis time for the current receiver line (0 until a correction is mapped).
    public private(set) var shift = 0.0
    /// Fixes quarantined (or dropped as unconfirmed) so far, for diagnostics.
    public private(set) var quarantinedCount = 0
    /// Held fixes: before the line stands, the provisional ones; after, the quarantined ones.
    private var held: [(fix: Fix, offset: Double)] = []

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        base = Self.freshBase()
    }

    /// The time base never resets itself: this type decides what a jump is.
    private static func freshBase() -> TimeBase { TimeBase(resetAfter: .infinity) }

    public var isEstablished: Bool { base.isSet }

    /// Judges `fix`, which arrived at `arrival`. `inFlight`: a flight's clock is running
    /// (takeoff to touchdown), so the axis must not move.
    public mutating func judge(_ fix: Fix, arrivedAt arrival: MonotonicInstant, inFlight: Bool) -> Judgement {
        guard fix.time.isFinite else { return Judgement() }
        let offset = fix.time - arrival.seconds
        guard isEstablished else { return provisional(fix, offset: offset) }
        let axisTime = fix.time - shift
        let expected = base.gps(arrival)?.seconds ?? axisTime
        let lead = axisTime - expected
        if lead <= configuration.earlyLimit, lead >= -configuration.lateLimit {
            // The line lives: what was quarantined was a glitch.
            quarantinedCount += held.count
            held.removeAll()
            var judgement = Judgement()
            if !inFlight, shift > 0 {
                // A correction ahead of the axis was mapped while flying: on the ground the
                // axis catches up with the receiver.
                judgement.event = .corrected(by: shift, adopted: true)
                base = Self.freshBase()
                shift = 0
            }
            judgement.fixes = [accept(fix, arrival: arrival)]
            return judgement
        }
        return quarantine(fix, offset: offset, arrival: arrival, lead: lead, inFlight: inFlight)
    }

    /// A held run accepted, each fix at its own arrival, in order. A mapped fix at or before one
    /// already delivered would only be dropped downstream, so it is left out here.
    private mutating func accept(_ run: [(fix: Fix, offset: Double)]) -> [Fix] {
        var fixes: [Fix] = []
        for (fix, offset) in run {
            let mapped = accept(fix, arrival: MonotonicInstant(seconds: fix.time - offset))
            if fixes.last.map({ mapped.time > $0.time }) ?? true { fixes.append(mapped) }
        }
        return fixes
    }

    private mutating func accept(_ fix: Fix, arrival: MonotonicInstant) -> Fix {
        var mapped = fix
        mapped.time -= shift
        base.observe(fix: GPSInstant(seconds: mapped.time), arrivedAt: arrival)
        return mapped
    }

    /// Adds `fix` to the held run if it agrees with the run (with its last fix; with `wholeRun`,
    /// with every fix of it, so offsets that creep a second a fix — a burst that waited behind a
    /// stall — never agree into a line); else starts a new run with it (the old run was the
    /// outlier). A repeat of an epoch already held is ignored.
    private mutating func hold(_ fix: Fix, offset: Double, wholeRun: Bool = false) {
        if let last = held.last {
            let agrees =
                wholeRun
                ? held.allSatisfy { abs(offset - $0.offset) <= configuration.agreement }
                : abs(offset - last.offset) <= configuration.agreement
            if agrees {
                if fix.time <= last.fix.time { return }
            } else {
                quarantinedCount += held.count
                held.removeAll()
            }
        }
        if held.count >= configuration.capacity {
            held.removeFirst()
            quarantinedCount += 1
        }
        held.append((fix, offset))
    }

    private mutating func provisional(_ fix: Fix, offset: Double) -> Judgement {
        hold(fix, offset: offset)
        guard held.count >= configuration.confirmations else { return Judgement() }
        let run = held
        held.removeAll()
        return Judgement(fixes: accept(run), event: .established(at: run[0].fix.time))
    }

    private mutating func quarantine(
        _ fix: Fix, offset: Double, arrival: MonotonicInstant, lead: Double, inFlight: Bool
    ) -> Judgement {
        let spellBegins = held.isEmpty
        hold(fix, offset: offset, wholeRun: true)
        var judgement = Judgement()
        if spellBegins { judgement.event = .quarantined(time: fix.time, offBy: lead) }
        guard held.count >= configuration.reconfirmations, let axis = base.offset else {
            return judgement
        }
        // The least delayed of the run says where the new line is.
        let line = held.map(\.offset).max() ?? offset
        let newShift = line - axis
        let run = held
        held.removeAll()
        if !inFlight, newShift > 0 {
            base = Self.freshBase()
            shift = 0
            judgement.event = .corrected(by: newShift, adopted: true)
        } else {
            judgement.event = .corrected(by: newShift - shift, adopted: false)
            shift = newShift
        }
        judgement.fixes = accept(run)
        return judgement
    }
}

extension FixTimeline.Event: CustomStringConvertible {
    public var description: String {
        switch self {
        case .established(let time):
            "GPS time line established at \(UTCTime.format(time))"
        case .quarantined(let time, let offBy):
            "a fix dated \(UTCTime.format(time)) is \(Self.seconds(offBy)) off the board's clock: "
                + "held apart, not believed"
        case .corrected(let by, let adopted):
            adopted
                ? "the receiver's time moved \(Self.seconds(by)) ahead: the board's clock follows it"
                : "the receiver's time moved \(Self.seconds(by)): its fixes are kept on the board's clock"
        }
    }

    private static func seconds(_ value: Double) -> String {
        let magnitude = abs(value)
        let text =
            magnitude >= 86_400
            ? "\(Int(magnitude / 86_400)) d"
            : magnitude >= 3600
                ? "\(Int(magnitude / 3600)) h"
                : "\(Int(magnitude.rounded())) s"
        return (value < 0 ? "−" : "+") + text
    }
}
