import RunWayBluetooth
import RunWayControl
import RunWayCore
import RunWaySystem
import RunWayVoice
import Synchronization

/// The Bluetooth sensors as a service: a thread of its own (started in `run()`, joined on
/// cancellation) owns the radio through a `SensorHub`, polling the radio's descriptor and an
/// eventfd inbox with the hub's deadline as the timeout. The control socket's requests reach it
/// through `ask` (the inbox: at most `inboxLimit` waiting, then refused at once), the readings
/// leave it for the engine as `BodySample`s (at most one per kind a second, through a stream
/// that keeps the newest few: a stuck engine cannot pile them up), and a sensor lost in flight
/// is told to the annunciator from the thread itself — it never waits on the engine.
///
/// The radio is made by the factory it is given (`Daemon.sensorRadio`: `BlueZRadio` on the
/// system bus; a fake in tests), called on the sensor thread, which then owns what it made.
final class SensorService: Service, Sendable {
    let name = "sensors"
    private let makeRadio: @Sendable () throws -> any SensorRadio
    let store: SensorStore
    private let engine: FlightEngine
    /// Monotonic time onto the engine's GPS axis (nil before the first fix: the sample is dropped;
    /// a heart rate from before the GPS has no place in a flight).
    private let gps: @Sendable (MonotonicInstant) async -> Double?
    private let annunciator: Annunciator?
    private let flying: InFlightWatch
    private let log: DaemonLog
    /// The monotonic clock, in seconds (injected by tests that step a fake one).
    private let clock: @Sendable () -> Double

    private let wake = WakeSignal()
    private let inbox = Mutex<Inbox>(Inbox())
    private let published = Mutex<(links: [SensorLink], bluetooth: ControlBluetooth?)>(([], nil))
    static let inboxLimit = 8

    private struct Inbox {
        var requests: [(SensorRequest, @Sendable (SensorAnswer) -> Void)] = []
        var stopping = false
    }

    init(
        radio: @escaping @Sendable () throws -> any SensorRadio, store: SensorStore, engine: FlightEngine,
        gps: @escaping @Sendable (MonotonicInstant) async -> Double?, annunciator: Annunciator?,
        flying: InFlightWatch, log: DaemonLog,
        clock: @escaping @Sendable () -> Double = { MonotonicClock.seconds }
    ) {
        makeRadio = radio
        self.store = store
        self.engine = engine
        self.gps = gps
        self.annunciator = annunciator
        self.flying = flying
        self.log = log
        self.clock = clock
    }

    func run() async throws {
        let (samples, continuation) = AsyncStream.makeStream(
            of: SensorHub.Sample.self, bufferingPolicy: .bufferingNewest(8))
        async let thread: Void = runOnOwnThread(
            "sensors", { [self] in loop(samples: continuation) }, stop: { [self] in stop() })
        for await sample in samples {
            guard let time = await gps(MonotonicInstant(seconds: sample.at)) else { continue }
            await engine.handle(.body(Self.body(sample, time: time)))
        }
        await thread
    }

    /// The engine's input for a sample at GPS `time`: a footpod's speed and total distance go
    /// with its cadence (the raw log keeps them).
    static func body(_ sample: SensorHub.Sample, time: Double) -> BodySample {
        switch sample.kind {
        case .heartRate: BodySample(time: time, heartRate: sample.value)
        case .cadence:
            BodySample(
                time: time, cadence: sample.value, footpodSpeed: sample.speed,
                footpodDistance: sample.distance)
        }
    }

    private func stop() {
        inbox.withLock { $0.stopping = true }
        wake.signal()
    }

    /// The sensor thread: poll, take the requests, step the hub, publish its links.
    private func loop(samples: AsyncStream<SensorHub.Sample>.Continuation) {
        defer { samples.finish() }
        let announcer = SensorAnnouncer(annunciator: annunciator, flying: flying)
        let hub = SensorHub(radio: makeRadio, store: store, log: log) { announcer.tell($0) }
        hub.start(at: clock())
        published.withLock { $0 = (hub.links, hub.bluetooth) }
        while true {
            let now = clock()
            let timeout = hub.deadline(at: now).map {
                Int32(min(60_000, max(0, (($0 - now) * 1000).rounded(.up))))
            }
            let radioFD = hub.radio?.descriptor
            let woke = Poll.readable(radioFD, wake.fd, timeout: timeout ?? 60_000)
            if case .failed(let error) = woke {
                // Not seen in practice (poll fails on a bad descriptor or no memory): said, and
                // never a tight loop.
                log.log(.error, "sensors: poll failed: \(error)")
                wake.sleep(milliseconds: 1000)
            }
            wake.drain()
            let (requests, stopping) = inbox.withLock { inbox in
                defer { inbox.requests.removeAll() }
                return (inbox.requests, inbox.stopping)
            }
            if stopping {
                for (_, reply) in requests { reply(.refused(.radioFailed("runwayd is stopping"))) }
                hub.stop()
                return
            }
            let at = clock()
            for (request, reply) in requests { hub.handle(request, at: at, reply: reply) }
            for sample in hub.step(at: clock(), readable: woke == .first || woke == .timedOut) {
                samples.yield(sample)
            }
            published.withLock { $0 = (hub.links, hub.bluetooth) }
        }
    }

    /// What the thread answers `request` (waits on the thread, never on the pool: the answer
    /// resumes a continuation). Refused at once when the inbox is full or the service stopping.
    func ask(_ request: SensorRequest) async -> SensorAnswer {
        await withCheckedContinuation { (continuation: CheckedContinuation<SensorAnswer, Never>) in
            let once = Mutex<CheckedContinuation<SensorAnswer, Never>?>(continuation)
            let reply: @Sendable (SensorAnswer) -> Void = { answer in
                once.withLock { $0.take() }?.resume(returning: answer)
            }
            let taken = inbox.withLock { inbox in
                guard !inbox.stopping, inbox.requests.count < Self.inboxLimit else { return false }
                inbox.requests.append((request, reply))
                return true
            }
            if taken {
                wake.signal()
            } else {
                reply(.refused(.radioFailed("runwayd's sensor thread is busy or stopping; try again")))
            }
        }
    }

    /// The paired sensors as the thread last published them (for `status` and the checklist).
    var links: [SensorLink] { published.withLock { $0.links } }

    /// The radio's state as the thread last published it (nil before the thread has started).
    var bluetooth: ControlBluetooth? { published.withLock { $0.bluetooth } }
}

/// Says a sensor lost in flight at most once per flight (its pattern and, with the voice, its
/// kind by name), and "back" once when a sensor said lost comes back in that flight (the hub
/// tells `.connected` only for a link that has held `SensorLink.holdSeconds`): a sensor flapping
/// at the edge of range is not announced again and again. A drop on the ground is only logged
/// (the checklist shows it). What was said ends with the flight. Used on the sensor thread only.
final class SensorAnnouncer {
    private let annunciator: Annunciator?
    private let flying: InFlightWatch
    /// The flight (`InFlightWatch.takeoffs`) the sets below are for.
    private var flight = 0
    /// The sensors said lost in this flight (never said again in it).
    private var said: Set<BluetoothAddress> = []
    /// Of those, the ones not yet said back.
    private var missing: Set<BluetoothAddress> = []

    init(annunciator: Annunciator?, flying: InFlightWatch) {
        self.annunciator = annunciator
        self.flying = flying
    }

    func tell(_ notice: SensorHub.Notice) {
        if flying.takeoffs != flight {
            flight = flying.takeoffs
            said = []
            missing = []
        }
        switch notice {
        case .lost(let sensor):
            guard flying.isFlying, said.insert(sensor.address).inserted else { return }
            missing.insert(sensor.address)
            annunciator?.sensorLost(sensor.label, kind: Self.phraseSensor(sensor))
        case .connected(let sensor):
            guard missing.remove(sensor.address) != nil, flying.isFlying else { return }
            annunciator?.sensorBack(sensor.label, kind: Self.phraseSensor(sensor))
        }
    }

    /// A strap when it measures heart rate (a device with both is a strap first).
    static func phraseSensor(_ sensor: PairedSensor) -> Phrase.Sensor {
        sensor.kinds.contains(.heartRate) ? .heartRateStrap : .footpod
    }
}
