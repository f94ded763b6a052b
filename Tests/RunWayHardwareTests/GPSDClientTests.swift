import Foundation
import RunWayCLI
import RunWayCore
import RunWayHardware
import RunWaySystem
import RunWayTestSupport
import Synchronization
import Testing

/// The project's libgps client against a real gpsd, fed by gpsfake on a loopback port.
@Suite("gpsd client: a real gpsd via gpsfake", .serialized)
struct GPSDClientTests {
    static func fixture(_ path: String) throws -> String {
        try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/\(path)")).path
    }

    /// What gpsd 3.22 printed for the log: the first TPV with a position per time, times rising.
    static func expectedFixes(_ chk: String) throws -> [(
        time: Double, lat: Double, lon: Double, speed: Double?
    )] {
        var result: [(Double, Double, Double, Double?)] = []
        let text = try String(contentsOfFile: chk, encoding: .utf8)
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["class"] as? String == "TPV", let timeText = object["time"] as? String,
                let time = UTCTime.parse(timeText), (object["mode"] as? Int ?? 0) >= 2,
                let lat = object["lat"] as? Double, let lon = object["lon"] as? Double
            else { continue }
            if let last = result.last, time <= last.0 { continue }
            result.append((time, lat, lon, object["speed"] as? Double))
        }
        return result
    }

    /// Collects events until `done` says so or `seconds` pass.
    static func collect(
        _ client: GPSDClient, seconds: Double, until done: @escaping @Sendable ([GPSEvent]) -> Bool
    ) async -> [GPSEvent] {
        await withTaskGroup(of: [GPSEvent]?.self) { group in
            group.addTask {
                var events: [GPSEvent] = []
                for await event in client.events {
                    events.append(event)
                    if done(events) { break }
                }
                return events
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            client.stop()
            if let first { return first }
            return await group.next().flatMap { $0 } ?? []
        }
    }

    static let fast = ReconnectPolicy(initial: 0.1, maximum: 0.2, greetingTimeout: 1)

    /// gpsfake plays a whole log in about two seconds, far faster than a receiver: a consumer the
    /// test machine holds up for longer than that would see the client drop the oldest fixes (as
    /// it should on a live feed), so these tests keep every event.
    static let wholeLog = 1 << 16

    /// True once gpsd went away after at least one fix: the log was played to its end.
    static func feedEnded(_ events: [GPSEvent]) -> Bool {
        guard let lastFix = events.lastIndex(where: { if case .fix = $0 { true } else { false } })
        else { return false }
        return events[lastFix...].contains { if case .disconnected = $0 { true } else { false } }
    }

    /// `lines` as an NMEA log for gpsfake, in a temporary file (the caller removes it).
    static func nmeaLog(_ lines: some Sequence<String>, named name: String) throws -> String {
        let path = NSTemporaryDirectory() + "runway-\(name)-\(UUID().uuidString).nmea"
        try (lines.joined(separator: "\r\n") + "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Closes every descriptor `held` holds, and forgets them.
    static func close(_ held: borrowing Mutex<[Int32]>) {
        held.withLock { fds in
            for fd in fds { Glibc.close(fd) }
            fds.removeAll()
        }
    }

    static func fixes(_ events: [GPSEvent]) -> [Fix] {
        events.compactMap { if case .fix(let fix, _) = $0 { fix } else { nil } }
    }

    @Test(arguments: ["bundg_zeus_9", "haicom-305N", "bt451"])
    func fixesMatchWhatGpsdPrintedForTheLog(_ log: String) async throws {
        let expected = try Self.expectedFixes(try Self.fixture("gpsd/\(log).log.chk"))
        let fake = try GPSFake(log: try Self.fixture("gpsd/\(log).log"))
        defer { fake.stop() }
        let client = GPSDClient(
            endpoint: GPSDEndpoint(host: "127.0.0.1", port: fake.port), policy: Self.fast,
            buffering: Self.wholeLog
        ).start()
        let count = expected.count
        let events = await Self.collect(client, seconds: 300) {
            Self.fixes($0).count >= count || Self.feedEnded($0)
        }
        let got = Self.fixes(events)
        #expect(got.count == expected.count)
        for (fix, want) in zip(got, expected) {
            #expect(abs(fix.time - want.time) < 1e-6)
            #expect(abs(fix.coordinate.latitude - want.lat) < 1e-9)
            #expect(abs(fix.coordinate.longitude - want.lon) < 1e-9)
            #expect(
                fix.speed.map { s in want.speed.map { abs(s - $0) < 1e-6 } ?? false } ?? (want.speed == nil))
        }
        if log == "bt451" {
            // Indoors first: no-fix reports come before the first fix.
            let firstFix = try #require(events.firstIndex { if case .fix = $0 { true } else { false } })
            #expect(events[..<firstFix].contains { if case .noFix = $0 { true } else { false } })
        }
    }

    @Test func aSyntheticRunFliesThroughGpsdIntoTheEngine() async throws {
        let lines = try SimulateCommand.lines(scenario: "walker", format: .nmea)
        let epochs = lines.filter { $0.hasPrefix("$GPRMC") && $0.contains(",A,") }.count
        let path = try Self.nmeaLog(lines, named: "walker")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fake = try GPSFake(log: path)
        defer { fake.stop() }
        let client = GPSDClient(
            endpoint: GPSDEndpoint(host: "127.0.0.1", port: fake.port), policy: Self.fast,
            buffering: Self.wholeLog
        ).start()
        // Done at the last epoch, or when gpsd goes away after the run (not before it began).
        let events = await Self.collect(client, seconds: 300) { events in
            Self.fixes(events).count >= epochs || Self.feedEnded(events)
        }
        let fixes = Self.fixes(events)
        #expect(fixes.count == epochs)
        var computer = FlightComputer()
        _ = computer.handle(.start(at: try #require(fixes.first).time, mission: nil, countdown: false))
        for fix in fixes { _ = computer.handle(.fix(fix)) }
        let flight = try #require(computer.end(sentAt: nil).result.flight)
        #expect(abs(flight.distance - 1500) < 1500 * 0.015)  // the simulated walk is 1.5 km
        #expect(flight.splits.count == 2)
    }

    /// A process holding more than FD_SETSIZE (1024) files: libgps's gps_waiting() selects on
    /// the session's descriptor, and one above 1023 aborted the whole test run once. Now the
    /// session is refused with "too many open files", said once and retried; once files come
    /// free, the fixes come as ever.
    @Test func aProcessWithManyFilesOpenIsRefusedNotKilled() async throws {
        // Held until the client has said it was refused; closed then (or at the end).
        let held = Mutex<[Int32]>([])
        defer { Self.close(held) }
        // Every free descriptor up to 1100: the kernel gives the lowest free one, so the
        // gpsd session's would be above FD_SETSIZE (unless another suite frees one meanwhile).
        while true {
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            try #require(fd >= 0, "could not hold 1100 files (ulimit -n)")
            held.withLock { $0.append(fd) }
            if fd >= 1100 { break }
        }
        let lines = try SimulateCommand.lines(scenario: "walker", format: .nmea)
        let path = try Self.nmeaLog(lines.prefix(300), named: "manyfiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fake = try GPSFake(log: path)
        defer { fake.stop() }
        let client = GPSDClient(
            endpoint: GPSDEndpoint(host: "127.0.0.1", port: fake.port), policy: Self.fast,
            buffering: Self.wholeLog
        ).start()
        let events = await Self.collect(client, seconds: 120) { events in
            if events.contains(where: {
                if case .disconnected(.system(_, EMFILE), _) = $0 { true } else { false }
            }) {
                Self.close(held)
            }
            return Self.fixes(events).count >= 20 || Self.feedEnded(events)
        }
        // Refused with "too many open files" while every low descriptor was held (unless another
        // suite in this process freed one, when the session moves below FD_SETSIZE and simply
        // connects); never any other failure past gpsd's start, and never an abort.
        let failures = events.compactMap { if case .disconnected(let error, _) = $0 { error } else { nil } }
        #expect(
            failures.allSatisfy {
                if case .system(_, EMFILE) = $0 { true } else { $0.isRefusal }
            }, "\(failures)")
        #expect(Self.fixes(events).count >= 20, "\(events.suffix(5))")
    }

    @Test func gpsdDyingMidRunIsSurvivedAndTheFlightContinues() async throws {
        let lines = try SimulateCommand.lines(scenario: "walker", format: .nmea)
        // Two halves at an epoch boundary: the first plays until gpsd is killed, the second is
        // what a restarted gpsd delivers.
        let half = (lines.count / 2) / 3 * 3
        let first = try Self.nmeaLog(lines[..<half], named: "half")
        let second = try Self.nmeaLog(lines[half...], named: "half")
        let port = try GPSFake.freePort()
        let client = GPSDClient(
            endpoint: GPSDEndpoint(host: "127.0.0.1", port: port), policy: Self.fast, buffering: Self.wholeLog
        ).start()
        let executor = ThreadExecutor(name: "test engine")
        let engine = FlightEngine(on: executor)
        let feeder = Task {
            var started = false
            var log: [GPSEvent] = []
            for await event in client.events {
                log.append(event)
                guard case .fix(let fix, _) = event else { continue }
                if !started {
                    await engine.handle(.start(at: fix.time, mission: nil, countdown: false))
                    started = true
                }
                await engine.handle(.fix(fix))
            }
            return log
        }
        // First gpsd: play, then kill it mid-run (gpsfake without -1 would loop; with -1 it ends).
        let fakeA = try GPSFake(log: first, port: port)
        // Well into the first half (its 750 m): waited for, not slept, so a loaded machine that
        // holds the feeder up does not make the cut come before the run.
        #expect(try await eventually(upTo: 120) { await engine.pfd.distance > 300 })
        GPSFake.killDaemons(port: port)
        fakeA.stop()
        let distanceAtCut = await engine.pfd.distance
        #expect(distanceAtCut > 100)
        #expect(await engine.phase == .cruise)
        // A new gpsd on the same port: the client reconnects by itself and re-sends WATCH.
        let fakeB = try GPSFake(log: second, extraLeadIn: true, port: port)
        defer { fakeB.stop() }
        #expect(try await eventually(upTo: 120) { await engine.pfd.distance > distanceAtCut + 200 })
        client.stop()
        let log = await feeder.value
        #expect(log.contains { if case .disconnected = $0 { true } else { false } })
        #expect(log.filter { $0 == .connected }.count >= 2)
        #expect(await engine.phase == .cruise)
        #expect(await engine.pfd.distance > distanceAtCut + 200)
        await executor.shutdown()
        try? FileManager.default.removeItem(atPath: first)
        try? FileManager.default.removeItem(atPath: second)
    }

    @Test func nobodyListeningIsReportedAndRetried() async throws {
        let port = try GPSFake.freePort()
        let client = GPSDClient(endpoint: GPSDEndpoint(host: "127.0.0.1", port: port), policy: Self.fast)
            .start()
        let events = await Self.collect(client, seconds: 3) { !$0.isEmpty }
        guard case .disconnected(let error, _) = try #require(events.first) else {
            Issue.record("expected a disconnected report, got \(events)")
            return
        }
        #expect(error == .connectionRefused(GPSDEndpoint(host: "127.0.0.1", port: port)))
        #expect("\(error)".contains("127.0.0.1:\(port)"))
    }

    @Test func endpoints() {
        #expect(GPSDEndpoint(parsing: "localhost:3000") == GPSDEndpoint(host: "localhost", port: 3000))
        #expect(GPSDEndpoint(parsing: "[::1]:4000") == GPSDEndpoint(host: "::1", port: 4000))
        #expect(GPSDEndpoint(parsing: "gps.local") == GPSDEndpoint(host: "gps.local", port: 2947))
        #expect(GPSDEndpoint(parsing: "host:notaport") == nil)
        #expect(GPSDEndpoint(host: "::1", port: 5).description == "[::1]:5")
    }
}
