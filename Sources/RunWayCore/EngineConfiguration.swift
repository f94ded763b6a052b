/// Every tunable of the engine in one value, with the SPEC's numbers as defaults.
public struct EngineConfiguration: Sendable, Equatable {
    public var movement = MovementFilter.Configuration()
    public var odometer = Odometer.Configuration()
    /// The live distance's Doppler drift taken out by the fixes (issue 26).
    public var liveDrift = LiveDriftCorrection.Configuration()
    public var smoother = SpeedSmoother.Configuration()
    public var pause = PauseDetector.Configuration()
    /// The runner's slips and forgotten stops, and vehicles (issue 27).
    public var slips = SlipWatch.Configuration()
    public var vehicle = VehicleWatch.Configuration()
    public var standstill = StandstillWatch.Configuration()
    public var altitude = AltitudeFilter.Configuration()
    public var elevationGain = ElevationGain.Configuration()
    /// Without a barometer: the receiver's altitude, and how its climbs are counted.
    public var gpsAltitude = GPSAltitudeFilter.Configuration()
    public var gpsElevationGain = ElevationGain.Configuration.gps
    /// The unit the runner counts in, and the splits' length (a kilometre or a mile unless set).
    public var units = DistanceUnit.kilometre
    public var splitLength = 1000.0
    /// Seconds from START to ROTATE.
    public var countdownFrom = 3
    /// FDR sample interval, seconds of elapsed time.
    public var sampleInterval = 5.0
    /// SINK RATE / OVERSPEED: the verdict's average, hysteresis, merging and repeats.
    public var paceAlerts = PaceAlertMonitor.Configuration()
    /// HR HIGH / HR LOW: the warm-up, the verdict's average, hysteresis, merging and repeats.
    public var heartRateAlerts = HeartRateAlertMonitor.Configuration()
    /// How long a SINK RATE / OVERSPEED verdict must hold before it sounds.
    public var paceAlertConfirmSeconds: Double {
        get { paceAlerts.confirmSeconds }
        set { paceAlerts.confirmSeconds = newValue }
    }
    /// The zones time in zone is counted in, and a `zone=N` mission's band is taken from
    /// (`HeartRateZones.unconfigured` until the runner configures theirs).
    public var heartRateZones = HeartRateZones.unconfigured
    /// Heart rate or cadence older than this is shown as missing.
    public var bodySampleMaxAge = 10.0
    /// An input (a fix, a reading, a tick) dated further ahead of the engine's latest input is
    /// held until the next input agrees with it (else it is dropped). Live, something arrives every second; a replay ticks through
    /// gaps up to `ReplayTicker.maxTicksPerGap` (600 s), so no honest fix leads by more.
    public var maximumFixLead = 600.0

    public init() {}
}

extension HeartRateZones {
    /// The zones of a runner who configured none: maximum 190 bpm — 220 − age (Fox's estimate)
    /// for a 30-year-old, the middle of the ages who run with a chest strap — resting 60 bpm
    /// (the usual adult figure), 50/60/70/80/90 % of the maximum. A guess, which is why the
    /// runner's own `max_heart_rate` replaces it.
    public static let unconfigured = HeartRateZones(method: .maximum, maximum: 190, resting: 60)
}

/// One input to the engine. Each carries its own time on the flight's time axis: the engine
/// never reads a clock, so the same engine runs live, 60× simulated, or replayed.
public enum EngineInput: Sendable, Equatable {
    /// A gpsd report: mode ≥ 2 is a fix; mode 1 is "no fix" and counts toward signal loss.
    case fix(Fix)
    case pressure(PressureSample)
    case body(BodySample)
    /// Time passes with nothing to report (the daemon's clock, mapped to GPS time).
    case tick(Double)
    /// START: with `countdown`, 3-2-1 then ROTATE; without, ROTATE at once (replays). A
    /// `workout` is flown step by step; with one, `mission` is nil (the two are one plan). `run`:
    /// the configured run's name when the runner chose one (the flight keeps it).
    case start(at: Double, mission: Mission?, countdown: Bool, workout: Workout? = nil, run: String? = nil)
    case pause(at: Double)
    case resume(at: Double)
    /// The pause/resume button.
    case togglePause(at: Double)
    /// The runner's lap (END pressed briefly in flight, `runway lap`): a workout's step ends
    /// there and the next begins; a free run's lap ends and the next begins.
    case lap(at: Double)
    /// The barometer stopped giving readings: the flight goes on without altitude until
    /// pressure samples return.
    case barometerLost(at: Double)
    /// END at `at` (the long press, the control socket's stop), sent at `sentAt` — the stale-stop
    /// rule compares that with the flight's START; `nil` is always obeyed. The engine answers
    /// with `.ended`, and `.landed` when a flight touched down.
    case end(at: Double, sentAt: Double?)

    /// Whether the engine may hold this input back as dated too far ahead: everything but the
    /// runner's START and END.
    public var mayBeHeld: Bool {
        switch self {
        case .start, .end: false
        default: true
        }
    }

    public var time: Double {
        switch self {
        case .fix(let fix): fix.time
        case .pressure(let sample): sample.time
        case .body(let sample): sample.time
        case .tick(let time): time
        case .start(let time, _, _, _, _), .pause(let time), .resume(let time), .togglePause(let time),
            .lap(let time), .barometerLost(let time), .end(let time, _):
            time
        }
    }
}
