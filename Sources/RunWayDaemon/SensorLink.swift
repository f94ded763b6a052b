import RunWayBluetooth
import RunWayControl

/// One paired sensor as the sensor thread keeps it: the link's state, when to try it again, and
/// what it last said. Pure: every change is given the monotonic time it happened at.
struct SensorLink: Sendable {
    var sensor: PairedSensor
    var state = State.idle
    /// Connect attempts that failed, and links that did not hold, since the last link that held.
    var failures = 0
    /// When the link came up (monotonic seconds); nil while not connected.
    var connectedSince: Double?
    /// The link has held `holdSeconds`: it counts as back (the back-off started over).
    var held = false
    /// When to try connecting again (monotonic seconds); nil while connecting or connected.
    var nextAttempt: Double?
    var battery: Int?
    var heartRate: Double?
    var cadence: Double?
    /// Skin contact as the strap says (nil: it does not report contact, or no reading yet).
    var contact: Bool?
    /// When it last said anything (monotonic seconds).
    var lastSeen: Double?
    /// When it last sent a measurement (heart rate, or speed and cadence): what the values'
    /// age is judged by (a battery notification keeps `lastSeen` fresh, not them).
    var lastMeasured: Double?

    enum State: Sendable, Equatable {
        /// Not connected; `nextAttempt` says when to try.
        case idle
        /// `connect` asked at this time; `.connected` or a failure follows.
        case connecting(since: Double)
        case connected
    }

    init(sensor: PairedSensor, at now: Double) {
        self.sensor = sensor
        nextAttempt = now
    }

    var isConnected: Bool { state == .connected }

    /// The waits before each connect attempt after a drop: 1 s, then 2 s and 5 s after the
    /// first two failures, then every 10 s. (At start the first attempt is at once.)
    ///
    /// Why these: a strap that drops is nearly always one that went out of range for a moment or
    /// lost its battery contact; it advertises again within a second or two of coming back, and
    /// BlueZ's LE connect then takes 1–3 s, so the first tries come quickly. A sensor that stays
    /// away (switched off, left at home) costs one D-Bus `Connect` 10 s after the last one failed
    /// (under 360 an hour), each a single round trip to bluetoothd on this thread, which otherwise sleeps in `poll` —
    /// and never a tight loop: a connect that fails at once still waits its turn. (Counted, not
    /// timed: `SensorHubTests` drives a sensor gone for an hour through a fake clock; no figure
    /// here comes from a board's radio.)
    static let backoff: [Double] = [1, 2, 5, 10]

    /// A connect that has had no answer in this long is given up and tried again later: BlueZ's
    /// own LE connect gives up sooner, so this only catches a radio that never said.
    static let connectTimeout = 30.0

    /// How long a link must stay up to count as back: the back-off starts over and "back" is
    /// said only then. A sensor at the edge of range connects and drops again within seconds (an
    /// LE link is given up after its supervision timeout, a few seconds at most), so a link that
    /// held half a minute — some thirty heart beats notified — is a sensor back in range, not one
    /// flapping; and a runner back in range hears "back" within half a minute.
    static let holdSeconds = 30.0

    /// The wait after `n` failed attempts since the drop (0: the first try after it).
    static func delay(afterFailures n: Int) -> Double { backoff[min(max(n, 0), backoff.count - 1)] }

    /// The attempt was made.
    mutating func connecting(at now: Double) {
        state = .connecting(since: now)
        nextAttempt = nil
    }

    /// Connected: the back-off starts over once the link has held (`holds(at:)`).
    mutating func connected(at now: Double) {
        if state != .connected { connectedSince = now }
        state = .connected
        nextAttempt = nil
        lastSeen = now
    }

    /// Whether the link has just now held `holdSeconds` (once per link): the back-off starts over.
    mutating func holds(at now: Double) -> Bool {
        guard state == .connected, !held, let since = connectedSince, now - since >= Self.holdSeconds
        else { return false }
        held = true
        failures = 0
        return true
    }

    /// The link dropped or an attempt failed: returns whether it was connected (a loss to say).
    /// A link that did not hold counts as a failed attempt for the back-off.
    @discardableResult
    mutating func dropped(at now: Double) -> Bool {
        let wasConnected = state == .connected
        state = .idle
        failures = wasConnected && held ? 0 : failures + 1
        held = false
        connectedSince = nil
        nextAttempt = now + Self.delay(afterFailures: failures)
        heartRate = nil
        cadence = nil
        contact = nil
        return wasConnected
    }

    /// Whether an attempt is due at `now` (an answerless connect past its timeout counts as a
    /// failure first).
    mutating func attemptDue(at now: Double) -> Bool {
        if case .connecting(let since) = state, now - since >= Self.connectTimeout { dropped(at: now) }
        guard state == .idle, let next = nextAttempt else { return false }
        return now >= next
    }

    /// When this link next needs the thread: its attempt, or a connect's timeout.
    var deadline: Double? {
        switch state {
        case .idle: nextAttempt
        case .connecting(let since): since + Self.connectTimeout
        case .connected: held ? nil : connectedSince.map { $0 + Self.holdSeconds }
        }
    }

    mutating func heard(_ reading: SensorReading, at now: Double) {
        lastSeen = now
        switch reading {
        case .heartRate(let measurement):
            lastMeasured = now
            heartRate = measurement.usableHeartRate
            contact =
                switch measurement.contact {
                case .detected: true
                case .notDetected: false
                case .notSupported: nil
                }
        case .runningSpeedCadence(let measurement):
            lastMeasured = now
            cadence =
                measurement.cadence.isFinite && (0...300).contains(measurement.cadence)
                ? measurement.cadence : nil
        case .battery(let percent):
            battery = (0...100).contains(percent) ? percent : nil
        }
    }

    /// The list's and the status's object at monotonic `now`; `gps` maps the monotonic
    /// last-seen onto GPS time (nil before the first fix: the age is still said).
    /// Values older than `ControlSensor.staleAfter` are not sent: a strap gone quiet while its
    /// link stays up has no current heart rate.
    func status(now: Double, gps: (Double) -> Double?) -> ControlSensor {
        let current = isConnected && lastMeasured.map { now - $0 <= ControlSensor.staleAfter } == true
        return ControlSensor(
            shape: .live, address: sensor.address.text, name: sensor.name,
            kinds: sensor.kinds.compactMap { ControlSensor.Kind(rawValue: $0.rawValue) },
            connected: isConnected, batteryPercent: battery, heartRate: current ? heartRate : nil,
            cadence: current ? cadence : nil, contact: current ? contact : nil,
            lastSeen: lastSeen.flatMap(gps), lastSeenAge: lastSeen.map { max(0, now - $0) })
    }
}
