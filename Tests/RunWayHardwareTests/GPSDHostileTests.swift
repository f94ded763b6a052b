import Foundation
import RunWayCLI
import RunWayCore
import RunWayHardware
import Testing

/// Endpoints that are not a well-behaved gpsd: the client says what is wrong, survives, and
/// keeps trying with back-off. The test process itself would die of SIGPIPE if the client let a
/// write to a closed socket raise it.
@Suite("gpsd client: endpoints that are not gpsd")
struct GPSDHostileTests {
    static let policy = ReconnectPolicy(initial: 0.05, maximum: 0.2, greetingTimeout: 0.5)

    static func client(_ fake: FakeGpsd) -> GPSDClient {
        GPSDClient(endpoint: GPSDEndpoint(host: "127.0.0.1", port: fake.port), policy: policy).start()
    }

    static func errors(_ events: [GPSEvent]) -> [GPSDError] {
        events.compactMap { if case .disconnected(let error, _) = $0 { error } else { nil } }
    }

    @Test func aPeerThatClosesAtOnceIsRetriedNotFatal() async throws {
        let fake = try FakeGpsd(.closeAtOnce)
        defer { fake.stop() }
        // A dozen connections in 2 s, each closed under libgps's WATCH write: this process is
        // still here afterwards, and each failure is said once, not once per try.
        let events = await GPSDClientTests.collect(Self.client(fake), seconds: 2) { _ in false }
        let errors = Self.errors(events)
        #expect(!errors.isEmpty)
        #expect(errors.count <= 2)
        #expect(!events.contains(.connected))
    }

    @Test func garbageIsNotAGreeting() async throws {
        let fake = try FakeGpsd(.send("HTTP/1.0 200 OK\r\n\u{0}\u{ff}garbage {not json}\n"))
        defer { fake.stop() }
        let events = await GPSDClientTests.collect(Self.client(fake), seconds: 5) { !Self.errors($0).isEmpty }
        let endpoint = GPSDEndpoint(host: "127.0.0.1", port: fake.port)
        #expect(Self.errors(events).first == .noGreeting(endpoint, seconds: 0.5))
        #expect(!events.contains(.connected))
    }

    @Test func silenceIsNotAGreeting() async throws {
        let fake = try FakeGpsd(.send(""))
        defer { fake.stop() }
        let events = await GPSDClientTests.collect(Self.client(fake), seconds: 5) { !Self.errors($0).isEmpty }
        guard case .noGreeting = Self.errors(events).first else {
            Issue.record("expected no greeting, got \(events)")
            return
        }
        #expect("\(Self.errors(events)[0])".contains("sent no gpsd greeting"))
    }

    @Test func aNameThatDoesNotResolveIsSaid() async throws {
        let client = GPSDClient(
            endpoint: GPSDEndpoint(host: "no-such-host.invalid", port: 2947), policy: Self.policy
        ).start()
        let events = await GPSDClientTests.collect(client, seconds: 10) { !Self.errors($0).isEmpty }
        #expect(Self.errors(events).first == .nameDoesNotResolve(host: "no-such-host.invalid"))
        #expect("\(Self.errors(events)[0])".contains("does not resolve"))
    }

    @Test func backOffDoublesToItsCeiling() {
        let policy = ReconnectPolicy(initial: 1, maximum: 8)
        #expect((1...6).map { policy.delay(afterFailures: $0) } == [1, 2, 4, 8, 8, 8])
    }

    /// A report with an impossible value is dropped before the epoch is chosen, so it cannot
    /// displace the valid report of the same time; a corrupt field is dropped alone.
    @Test func impossibleReportsNeverReachTheEngineNorDisplaceValidOnes() async throws {
        func tpv(_ time: String, lat: String, lon: String = "8.5", extra: String = "") -> String {
            #"{"class":"TPV","mode":3,"time":"2026-10-03T07:00:\#(time)Z","lat":\#(lat),"lon":\#(lon)\#(extra)}"#
        }
        let fake = try FakeGpsd(
            .greetThen([
                tpv("00.000", lat: "91.0"),  // off Earth, same epoch as the next
                tpv("00.000", lat: "47.0"),
                tpv("01.000", lat: "47.00001", lon: "181"),  // off Earth
                tpv("02.000", lat: "47.00002", extra: #","speed":1e308,"eph":-3"#),
                tpv("03.000", lat: "47.00003", extra: #","speed":3.1,"eph":12"#),
            ]))
        defer { fake.stop() }
        let events = await GPSDClientTests.collect(Self.client(fake), seconds: 5) {
            GPSDClientTests.fixes($0).count >= 3
        }
        let fixes = GPSDClientTests.fixes(events)
        #expect(fixes.map(\.coordinate.latitude) == [47.0, 47.00002, 47.00003])
        #expect(fixes[1].speed == nil && fixes[1].horizontalAccuracy == nil)
        #expect(fixes[2].speed == 3.1 && fixes[2].horizontalAccuracy == 12)
    }
}

/// `runway gps --timeout` gives up with one sentence saying why, instead of waiting for ever.
@Suite("runway gps --timeout")
struct GPSTimeoutTests {
    final class Lines: @unchecked Sendable {
        // Guarded by `lock`: the console's closures may be called from any task.
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test func aPeerThatIsNotGpsdEndsWithTheReason() async throws {
        let fake = try FakeGpsd(.send("SSH-2.0-OpenSSH_9.2\r\n"))
        defer { fake.stop() }
        let (out, err) = (Lines(), Lines())
        let console = Console(out: { out.add($0) }, err: { err.add($0) }, isTerminal: false)
        let status = await GPSCommand.run(
            endpoint: GPSDEndpoint(host: "127.0.0.1", port: fake.port), count: 1, timeout: 1.5, json: false,
            console: console, policy: GPSDHostileTests.policy)
        #expect(status == 1)
        #expect(out.all.isEmpty)
        let last = try #require(err.all.last)
        #expect(last.contains("no fix from gpsd at 127.0.0.1:\(fake.port) within 1.5 s"))
        #expect(last.contains("sent no gpsd greeting"))
    }
}
