import Foundation
import RunWayCore
import RunWayHardware
import RunWayStore
import Synchronization

/// The board's time for the services that feed the engine: the fixes judged against the
/// monotonic clock (`FixTimeline`, whose time base maps every other input), and the inputs that
/// came before the first fix.
actor BoardClock {
    private var timeline = FixTimeline()
    private var held = HeldInputs()
    private var lastFix = MonotonicInstant.now

    /// Seconds since the last fix arrived (since the daemon started, before the first).
    func secondsWithoutFix(at now: MonotonicInstant = .now) -> Double { now.seconds - lastFix.seconds }

    /// GPS time now; nil before the first fix.
    func gpsNow() -> Double? { timeline.base.gps(.now)?.seconds }

    /// `instant` on the GPS axis; nil before the first fix.
    func gps(_ instant: MonotonicInstant) -> Double? { timeline.base.gps(instant)?.seconds }

    /// Fixes quarantined so far (their time was off the board's line).
    var quarantined: Int { timeline.quarantinedCount }

    /// A fix arrived at `arrival`: judged against the board's time line. Returns the fixes to
    /// deliver (on the board's axis; none while it is held) and what happened to the line.
    func observe(_ fix: Fix, arrival: MonotonicInstant, inFlight: Bool) -> (
        fixes: [Fix], event: FixTimeline.Event?
    ) {
        lastFix = max(lastFix, arrival)
        let judgement = timeline.judge(fix, arrivedAt: arrival, inFlight: inFlight)
        return (judgement.fixes, judgement.event)
    }

    /// Whether what came before the first fix has been handed over (`releaseHeld`): until then
    /// every input is held, so nothing overtakes a held START, and a STOP can still call it off
    /// while the start-up decision runs.
    private var released = false

    /// The held inputs on the GPS axis, once the time line stands (after the start-up decision);
    /// empty before and after. From now on inputs are mapped as they come.
    func releaseHeld() -> [EngineInput] {
        guard !released, timeline.isEstablished else { return [] }
        released = true
        return held.release(through: timeline.base) ?? []
    }

    /// `instant` on the GPS axis once the held inputs are released (nil before: an input that
    /// is never held, a sensor's reading, is dropped rather than overtake a held START).
    func mapped(_ instant: MonotonicInstant) -> Double? {
        guard released else { return nil }
        return timeline.base.gps(instant)?.seconds
    }

    /// An input stamped on the monotonic clock: on the GPS axis now, or held (nil) until the
    /// held inputs are released after the first fix.
    func input(_ kind: HeldInputs.Kind, at instant: MonotonicInstant) -> EngineInput? {
        guard released, let time = timeline.base.gps(instant)?.seconds else {
            held.hold(kind, at: instant)
            return nil
        }
        return HeldInputs.input(kind, at: time)
    }

    /// What a STOP or END at `instant` meets.
    enum EndOutcome: Sendable, Equatable {
        /// On the GPS axis: the engine ends what is flying.
        case time(Double)
        /// Before the first fix, a held START (and what was held with it) is called off.
        case cancelledHeldStart
        /// Before the first fix, with nothing held: nothing to end.
        case nothingHeld
    }

    /// A STOP or END at `instant`, decided in one step with the release (a fix between the check
    /// and the cancel cannot release the START being called off; nor can the start-up decision,
    /// which runs before the release).
    func end(at instant: MonotonicInstant) -> EndOutcome {
        let time = timeline.base.gps(instant)?.seconds
        if released, let time { return .time(time) }
        if held.cancelStart() { return .cancelledHeldStart }
        return time.map { .time($0) } ?? .nothingHeld
    }
}

/// gpsd → the engine: fixes as they come (the time base follows them), no-fix reports, and the
/// start-up decision (continue or recover an interrupted flight) at the first fix. The client's
/// thread starts here, in `run()`, and ends on cancellation. Two faults are sounded, once per
/// occurrence: gpsd unreachable for `unreachableAfter` seconds (the client keeps retrying), and
/// no fix for `noFixAfter` seconds. The first is timed from the outage's start, not from the
/// client's reports: the client tells a failure only when its cause changes, so gpsd that stays
/// down is one report, at its start.
struct GPSService: Service {
    let name = "gpsd"
    let endpoint: GPSDEndpoint
    let engine: FlightEngine
    let clock: BoardClock
    let annunciator: Annunciator
    let log: DaemonLog
    var unreachableAfter = 10.0
    var noFixAfter = 180.0

    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await watchForNoFix() }
            await read()
            group.cancelAll()
        }
    }

    /// Sleeps until the silence could first reach `noFixAfter`, so a board with fixes coming
    /// wakes for this once every `noFixAfter`, not every few seconds.
    private func watchForNoFix() async {
        var said = false
        while !Task.isCancelled {
            let silence = await clock.secondsWithoutFix()
            if silence < noFixAfter {
                said = false
            } else if !said {
                said = true
                annunciator.fault(
                    .noFixForLong, "no fix for \(Int(silence)) s — is the antenna's view of the sky clear?")
            }
            let wait = silence < noFixAfter ? noFixAfter - silence : noFixAfter
            try? await Sleeper.shared.sleep(for: max(1, wait))
        }
    }

    private func read() async {
        let client = GPSDClient(endpoint: endpoint)
        var first = true
        let outage = GPSDOutage()
        // Sounds the fault `unreachableAfter` seconds into an outage unless gpsd greeted first.
        var outageWatch: Task<Void, Never>?
        defer { outageWatch?.cancel() }
        async let reader: Void = runOnOwnThread("gpsd", { client.run() }, stop: { client.stop() })
        await withTaskCancellationHandler {
            for await event in client.events {
                switch event {
                case .fix(let fix, let arrival):
                    let inFlight = await engine.phase.isInFlight
                    let judged = await clock.observe(fix, arrival: arrival, inFlight: inFlight)
                    if let event = judged.event {
                        log.log(event.isWarning ? .warning : .notice, event.description)
                    }
                    guard let earliest = judged.fixes.first else { continue }
                    if first {
                        // The start-up decision (continue or close a flight a restart
                        // interrupted) comes before anything pressed while the GPS was looking.
                        first = false
                        log.log(.notice, "first fix: \(UTCTime.format(earliest.time))")
                        await startUp(at: earliest.time)
                    }
                    for input in await clock.releaseHeld() { await engine.handle(input) }
                    for fix in judged.fixes { await engine.handle(.fix(fix)) }
                case .noFix(let time):
                    // A no-fix report's own time is the receiver's word, which may be anything
                    // (a cold start's): it only says "no fix now", on the board's axis.
                    guard let now = await clock.gpsNow() else { continue }
                    if time != nil {
                        await engine.handle(
                            .fix(Fix(time: now, coordinate: Coordinate(latitude: 0, longitude: 0), mode: 1)))
                    } else {
                        await engine.handle(.tick(now))
                    }
                case .connected:
                    outageWatch?.cancel()
                    outageWatch = nil
                    log.log(outage.ended() ? .notice : .info, "connected to gpsd at \(endpoint)")
                case .disconnected(let error, let retry):
                    log.log(.warning, "\(error); retrying in \(Int(retry.rounded())) s")
                    guard outage.failed(error) else { continue }
                    let (after, annunciator) = (unreachableAfter, self.annunciator)
                    outageWatch = Task {
                        guard (try? await Sleeper.shared.sleep(for: after)) != nil,
                            let error = outage.takeFault()
                        else { return }
                        annunciator.fault(.gpsdUnreachable, "\(error) — is gpsd running?")
                    }
                }
            }
        } onCancel: {
            client.stop()
        }
        await reader  // the thread is joined
    }

    private func startUp(at time: Double) async {
        do {
            for recovered in try await engine.startUp(now: time) {
                log.log(
                    .notice,
                    recovered.kept
                        ? "flight \(recovered.id), interrupted, recovered from its raw log (\(Int(recovered.distance)) m)"
                        : "flight \(recovered.id), interrupted, flew under 100 m: removed",
                    fields: ["flight_id": "\(recovered.id)"])
            }
            if let id = await engine.flightID {
                log.log(.notice, "flight \(id) continues after the restart", fields: ["flight_id": "\(id)"])
            }
        } catch {
            log.log(.error, "start-up recovery: \(error)")
        }
    }
}

/// One gpsd outage as `GPSService` follows it: from the first failure to gpsd's next greeting,
/// the newest cause, and whether the fault has been sounded for it. Shared with the task that
/// waits out `unreachableAfter`.
final class GPSDOutage: Sendable {
    private let state = Mutex<(error: GPSDError?, said: Bool)>((nil, false))

    /// Notes a failure; true when it begins an outage.
    func failed(_ error: GPSDError) -> Bool {
        state.withLock { state in
            defer { state.error = error }
            return state.error == nil
        }
    }

    /// The cause to sound the fault with, once per outage; nil once gpsd is back or when said.
    func takeFault() -> GPSDError? {
        state.withLock { state in
            guard let error = state.error, !state.said else { return nil }
            state.said = true
            return error
        }
    }

    /// gpsd greeted: the outage is over. True when its fault had been sounded.
    func ended() -> Bool {
        state.withLock { state in
            defer { state = (nil, false) }
            return state.said
        }
    }
}

/// The BMP280 → the engine: readings stamped on the monotonic clock, mapped onto GPS time (held
/// until the first fix); a lost barometer is said once and the flight goes on without altitude.
struct BarometerService: Service {
    let name = "barometer"
    let bus: Int
    let address: UInt8
    /// The register-level hill (`--simulate barometer`) instead of the chip on `bus`.
    var simulated = false
    /// Fast in flight, slow while waiting.
    var pace = BarometerPace()
    /// Idle readings go on the barograph (the checklist's WEATHER).
    var barograph = BarographKeeper()
    let engine: FlightEngine
    let clock: BoardClock
    let annunciator: Annunciator
    let log: DaemonLog

    func run() async throws {
        let (bus, address, simulated) = (self.bus, self.address, self.simulated)
        let open: @Sendable () throws(BarometerFailure) -> BMP280 = { () throws(BarometerFailure) in
            if simulated {
                return BMP280(bus: HillBarometerBus(), sleep: { Thread.sleep(forTimeInterval: $0) })
            }
            do throws(LinuxI2CBus.OpenError) {
                return BMP280(
                    bus: try LinuxI2CBus(bus: bus, address: address),
                    sleep: { Thread.sleep(forTimeInterval: $0) })
            } catch {
                throw .bus(error)
            }
        }
        let source = BarometerSource(interval: pace.interval, clock: { .now }, open: open)
        pace.attach(source)
        defer { pace.attach(nil) }
        async let reader: Void = runOnOwnThread("barometer", { source.run() }, stop: { source.stop() })
        await withTaskCancellationHandler {
            for await event in source.events {
                switch event {
                case .sample(let pascals, let at):
                    if !pace.isFlying { barograph.record(pascals: pascals, at: at.seconds) }
                    if let input = await clock.input(.pressure(pascals: pascals), at: at) {
                        await engine.handle(input)
                    }
                case .lost(let failure):
                    barograph.lost()
                    annunciator.fault(.barometerMissing, "\(failure); the flight goes on without altitude")
                    if let input = await clock.input(.barometerLost, at: .now) { await engine.handle(input) }
                case .recovered:
                    barograph.heard()
                    log.log(.notice, "barometer back")
                }
            }
        } onCancel: {
            source.stop()
        }
        await reader  // the thread is joined
    }
}

/// How often the barometer reads: twice a second from START's countdown to TOUCHDOWN (the
/// altitude's zero is taken at ROTATE, and SINK RATE needs the climb), once every 10 s otherwise
/// (enough for the weather's tendency), so a board waiting on the start line rarely wakes. Told
/// the phase by the engine's outputs, as it hears them.
final class BarometerPace: FlightObserver, Sendable {
    /// `BarometerSource.setInterval` may be called from any thread.
    private let state = Mutex<(source: BarometerSource?, flying: Bool)>((nil, false))
    static let flyingInterval = 0.5
    static let idleInterval = 10.0

    var interval: Double { state.withLock { $0.flying ? Self.flyingInterval : Self.idleInterval } }
    var isFlying: Bool { state.withLock { $0.flying } }

    func attach(_ source: BarometerSource?) {
        state.withLock { $0.source = source }
        source?.setInterval(interval)
    }

    func engine(_ engine: isolated FlightEngine, told event: FlightEvent) {
        guard case .flew(_, let outputs) = event else { return }
        guard let phase = outputs.last(where: { if case .state = $0 { true } else { false } }) else { return }
        guard case .state(let pfd) = phase else { return }
        let nowFlying = [.takeoff, .cruise, .approach].contains(pfd.phase)
        let source: BarometerSource? = state.withLock { state in
            guard nowFlying != state.flying else { return nil }
            state.flying = nowFlying
            return state.source
        }
        source?.setInterval(nowFlying ? Self.flyingInterval : Self.idleInterval)
    }
}
