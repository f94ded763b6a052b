import RunWayBluetooth
import RunWayControl

/// What the sensor thread is asked through the control socket.
enum SensorRequest: Sendable, Equatable {
    case scan(seconds: Int)
    case pair(String)
    case forget(String)
    case list
}

/// What the sensor thread answers; the service turns it into the reply line (it maps times onto
/// the GPS axis, which only the async side can ask the board's clock for).
enum SensorAnswer: Sendable {
    /// The devices seen in the scan (with a signal), and the addresses paired with runwayd.
    case scanned([SensorDevice], paired: Set<BluetoothAddress>)
    case paired(PairedSensor, replaced: [PairedSensor])
    case forgotten(PairedSensor)
    case list([SensorLink])
    case refused(SensorRefusal)
}

/// The Bluetooth sensors as one thread owns them: the radio (`SensorRadio`, not thread-safe),
/// the paired list (`SensorStore`), each paired sensor's link (`SensorLink`: connect at start and
/// whenever not connected, with back-off), the control socket's requests in hand (a scan for its
/// seconds, a pairing until the sensor answers or `pairSeconds` pass), and the readings, of which
/// at most one per sensor kind a second goes on to the engine (the newest: a strap notifying at
/// 50 Hz cannot flood it). No clock is read here: every call is given the monotonic time, so the
/// tests drive it through hours in microseconds. Nothing here waits longer than the radio's
/// own bounded calls.
final class SensorHub {
    /// A reading for the engine: heart rate (bpm) or cadence (steps/min), at monotonic `at`; a
    /// footpod's carries its speed (m/s) and total distance (m) too, when it sent them.
    struct Sample: Sendable, Equatable {
        var kind: SensorKind
        var value: Double
        var at: Double
        var speed: Double? = nil
        var distance: Double? = nil
    }

    /// A link that came up or went down (told by `notice`, on this thread).
    enum Notice: Sendable, Equatable {
        /// The link has held `SensorLink.holdSeconds` (a sensor flapping is not "connected").
        case connected(PairedSensor)
        case lost(PairedSensor)
    }

    typealias Reply = (SensorAnswer) -> Void

    /// A gap between malformed payloads longer than this ends their burst (its count is logged,
    /// and the next is logged again). Good readings in between do not end it.
    static let malformedBurstGap = 10.0
    /// Seconds between two readings of one kind passed on to the engine.
    static let sampleInterval = 1.0
    /// A radio that could not be made (no system bus) is tried again this often.
    static let radioRetry = 10.0

    let makeRadio: () throws -> any SensorRadio
    private(set) var radio: (any SensorRadio)?
    var radioRetryAt: Double?
    /// Why the radio could not be made, the last time it could not (logged when it changes).
    var radioFailure: SensorRefusal?
    let store: SensorStore
    let log: DaemonLog
    let notice: (Notice) -> Void
    var links: [SensorLink] = []
    private(set) var adapter = AdapterState.noBlueZ
    /// Whether a radio's state has been said (logged) since the radio was made.
    var adapterSaid = false
    var scan: (until: Double, reply: Reply)?
    var pairing: (device: SensorDevice, until: Double, reply: Reply)?
    /// Per kind: when a sample last went on, and the newest one waiting for its turn.
    var lastSent: [SensorKind: Double] = [:]
    var waiting: [SensorKind: Sample] = [:]
    /// Per address: the last malformed payload's time and how many of its burst went unlogged.
    var garbage: [BluetoothAddress: (last: Double, unlogged: Int)] = [:]
    var processFailed = false
    /// The paired sensors' file was there but unreadable at start: pairing and forgetting are
    /// refused (saving would write over the runner's list).
    var storeUnreadable = false

    init(
        radio: @escaping () throws -> any SensorRadio, store: SensorStore, log: DaemonLog,
        notice: @escaping (Notice) -> Void = { _ in }
    ) {
        makeRadio = radio
        self.store = store
        self.log = log
        self.notice = notice
    }

    // MARK: Start and stop

    /// Reads the paired sensors and opens the radio; the links are tried at once.
    func start(at now: Double) {
        let loaded = store.load()
        if let problem = loaded.problem { log.log(.error, "sensors: \(problem)") }
        storeUnreadable = loaded.unreadable
        links = loaded.sensors.map { SensorLink(sensor: $0, at: now) }
        if !links.isEmpty {
            log.log(.info, "sensors paired: \(links.map(\.sensor.label).joined(separator: ", "))")
        }
        openRadio(at: now)
    }

    func openRadio(at now: Double) {
        do {
            let made = try makeRadio()
            radio = made
            adapterSaid = false
            radioRetryAt = nil
            radioFailure = nil
            adapterChanged(made.adapterState(), at: now)
        } catch {
            radio = nil
            radioRetryAt = now + Self.radioRetry
            let refusal = (error as? BluetoothError).map(Self.refusal) ?? .radioFailed("\(error)")
            if refusal != radioFailure {
                log.log(.warning, "sensors: \(refusal); trying again every \(Int(Self.radioRetry)) s")
            }
            radioFailure = refusal
            adapter = .noBlueZ
        }
    }

    /// The radio's bus connection was lost: as if BlueZ went (links down, requests in hand
    /// refused), and a new radio is made at the next `radioRetry`.
    func lostRadio(at now: Double) {
        log.log(.error, "sensors: the D-Bus connection was lost; a new one in \(Int(Self.radioRetry)) s")
        radio = nil
        radioRetryAt = now + Self.radioRetry
        radioFailure = .busUnavailable
        processFailed = false
        adapterChanged(.noBlueZ, at: now)
    }

    /// Answers what is in hand, stops a scan and lets the sensors go (BlueZ would keep a link
    /// runwayd made after runwayd is gone).
    func stop() {
        scan?.reply(.refused(.radioFailed("runwayd is stopping")))
        pairing?.reply(.refused(.radioFailed("runwayd is stopping")))
        if scan != nil { try? radio?.stopScan() }
        scan = nil
        pairing = nil
        for link in links where link.state != .idle { try? radio?.disconnect(link.sensor.address) }
    }

    // MARK: The loop's steps

    /// When the thread must next call `step` even if nothing arrives (monotonic seconds).
    func deadline(at now: Double) -> Double? {
        var times: [Double] = [scan?.until, pairing?.until, radioRetryAt].compactMap { $0 }
        if let timeout = radio?.timeout() { times.append(now + max(0, timeout)) }
        if case .ready = adapter { times += links.compactMap(\.deadline) }
        times += garbage.values.filter { $0.unlogged > 0 }.map { $0.last + Self.malformedBurstGap }
        for (kind, sample) in waiting {
            times.append(max(sample.at, (lastSent[kind] ?? 0) + Self.sampleInterval))
        }
        return times.min()
    }

    /// The radio's events, then whatever is due at `now`; returns the samples for the engine.
    func step(at now: Double, readable: Bool = true) -> [Sample] {
        var samples: [Sample] = []
        if let retry = radioRetryAt, now >= retry { openRadio(at: now) }
        if let radio, readable || (radio.timeout().map { $0 <= 0 } ?? false) {
            do throws(BluetoothError) {
                let events = try radio.process()
                processFailed = false
                for event in events { handle(event, at: now) }
            } catch .busUnavailable {
                // The bus connection itself is gone: this radio can never work again (its closed
                // descriptor is ignored by poll). Let it go and make a new one every radioRetry.
                lostRadio(at: now)
            } catch {
                // Said once until it works again: a radio that keeps failing must not fill the log.
                if !processFailed { log.log(.error, "sensors: the radio failed: \(error)") }
                processFailed = true
            }
        }
        endBursts(at: now)
        if let scan, now >= scan.until { finishScan(scan.reply) }
        if let pairing, now >= pairing.until {
            self.pairing = nil
            log.log(.warning, "sensors: pairing with \(Self.label(pairing.device)) did not finish in time")
            pairing.reply(.refused(.pairingTimedOut(Self.label(pairing.device))))
        }
        if case .ready = adapter { connectDue(at: now) }
        for (kind, sample) in waiting where now >= (lastSent[kind] ?? -.infinity) + Self.sampleInterval {
            samples.append(sample)
            lastSent[kind] = now
            waiting[kind] = nil
        }
        return samples
    }

    func connectDue(at now: Double) {
        // A link that has held `SensorLink.holdSeconds` counts as back: told now, not at connect.
        for i in links.indices where links[i].holds(at: now) { notice(.connected(links[i].sensor)) }
        for i in links.indices where links[i].attemptDue(at: now) {
            guard let radio else { return }
            links[i].connecting(at: now)
            do throws(BluetoothError) {
                try radio.connect(links[i].sensor.address)
            } catch {
                failed(at: i, error, now: now)
            }
        }
    }

    func failed(at i: Int, _ error: BluetoothError, now: Double) {
        links[i].dropped(at: now)
        let failures = links[i].failures
        // The first failure after a drop is worth a line; the retries every 10 s are not.
        log.log(
            failures <= 1 ? .info : .debug,
            "sensors: \(links[i].sensor.label): \(error); next try in \(Int(SensorLink.delay(afterFailures: failures))) s"
        )
    }

    func handle(_ event: SensorEvent, at now: Double) {
        switch event {
        case .adapter(let state): adapterChanged(state, at: now)
        case .paired(let address): paired(address, at: now)
        case .connected(let address, _):
            guard let i = links.firstIndex(where: { $0.sensor.address == address }) else { return }
            let wasConnected = links[i].isConnected
            links[i].connected(at: now)
            // Told (`.connected`) only once the link has held: see `connectDue`.
            if !wasConnected { log.log(.notice, "sensor connected: \(links[i].sensor.label)") }
        case .disconnected(let address):
            guard let i = links.firstIndex(where: { $0.sensor.address == address }) else { return }
            drop(at: i, now: now)
        case .reading(let address, let reading):
            guard let i = links.firstIndex(where: { $0.sensor.address == address }) else { return }
            // A good reading does not end a burst of garbage: the radio reports the first bad
            // payload after each good one, so a sensor alternating would log every packet. Only
            // `malformedBurstGap` of quiet ends it (`endBursts`).
            links[i].heard(reading, at: now)
            switch reading {
            case .heartRate(let m):
                if let bpm = m.usableHeartRate {
                    waiting[.heartRate] = Sample(kind: .heartRate, value: bpm, at: now)
                }
            case .runningSpeedCadence(let m):
                if let cadence = links[i].cadence {
                    waiting[.cadence] = Sample(
                        kind: .cadence, value: cadence, at: now, speed: m.speed, distance: m.totalDistance)
                }
            case .battery: break
            }
        case .pairFailed(let address, let error):
            guard let pairing, pairing.device.address == address else {
                log.log(.info, "sensors: a pairing no longer asked for failed: \(address): \(error)")
                return
            }
            self.pairing = nil
            log.log(.warning, "sensors: pairing with \(Self.label(pairing.device)): \(error)")
            pairing.reply(.refused(Self.refusal(error, label: Self.label(pairing.device))))
        case .failed(let address, let error):
            // The link's failure, never the pairing's answer (that is `.pairFailed`), even while
            // a pairing of the same sensor is in hand.
            if case .malformed = error {
                malformed(address, error, at: now)
            } else if let i = links.firstIndex(where: { $0.sensor.address == address }) {
                if links[i].isConnected {
                    log.log(.warning, "sensors: \(links[i].sensor.label): \(error)")
                } else if links[i].state != .idle {
                    failed(at: i, error, now: now)
                }
            }
        }
    }

    /// Bursts of garbage that have been quiet for `malformedBurstGap`: their count is logged.
    func endBursts(at now: Double) {
        for (address, burst) in garbage where now - burst.last >= Self.malformedBurstGap {
            garbage[address] = nil
            guard burst.unlogged > 0 else { continue }
            let label = links.first { $0.sensor.address == address }?.sensor.label ?? address.text
            log.log(.warning, "sensors: \(label): \(burst.unlogged) more malformed payloads")
        }
    }

    /// Garbage from a sensor: the first of a burst is logged, the rest counted; the link stays.
    func malformed(_ address: BluetoothAddress, _ error: BluetoothError, at now: Double) {
        let label = links.first { $0.sensor.address == address }?.sensor.label ?? address.text
        endBursts(at: now)
        if let burst = garbage[address] {
            garbage[address] = (now, burst.unlogged + 1)
            return
        }
        garbage[address] = (now, 0)
        log.log(.warning, "sensors: \(label) sent \(error); more in this burst are counted, not logged")
    }

    func drop(at i: Int, now: Double) {
        let label = links[i].sensor.label
        if links[i].dropped(at: now) {
            log.log(.warning, "sensor lost: \(label)")
            notice(.lost(links[i].sensor))
        }
        for kind in links[i].sensor.kinds { waiting[kind] = nil }
    }

    func adapterChanged(_ state: AdapterState, at now: Double) {
        // The first state a radio reports is said even when it is the initial .noBlueZ: why
        // there is no Bluetooth belongs in the log from the start.
        guard state != adapter || !adapterSaid else { return }
        adapterSaid = true
        adapter = state
        switch state {
        case .ready:
            log.log(.info, "sensors: Bluetooth adapter ready")
            for i in links.indices where links[i].state == .idle { links[i].nextAttempt = now }
        case .poweredOff, .noAdapter, .noBlueZ:
            let why = refusal(for: state) ?? .blueZNotRunning
            log.log(.warning, "sensors: \(why)")
            for i in links.indices where links[i].state != .idle { drop(at: i, now: now) }
            if let scan {
                self.scan = nil
                scan.reply(.refused(why))
            }
            if let pairing {
                self.pairing = nil
                pairing.reply(.refused(why))
            }
        }
    }
}
