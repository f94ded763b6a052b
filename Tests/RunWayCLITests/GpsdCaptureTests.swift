import Foundation
import RunWayCore
import Testing

@testable import RunWayCLI

/// gpsd's own regression captures (BSD-2, Tests/Fixtures/gpsd/COPYING.gpsd): the `.chk` files
/// are what `gpsfake -1 -p` printed for each log with gpsd 3.22 — real receivers, real faults.
@Suite("Real receivers: gpsd regression captures flown through the reader and engine")
struct GpsdCaptureTests {
    func trace(_ name: String) throws -> GPSTrace {
        let url = try #require(
            Bundle.module.resourceURL?.appendingPathComponent("Fixtures/gpsd/\(name).log.chk"))
        return try TraceReader.gps(path: url.path)
    }

    @Test func bundgZeusReadsOneFixPerEpochWithoutComplaint() throws {
        let gps = try trace("bundg_zeus_9")
        #expect(gps.diagnostics.isEmpty)  // raw NMEA lines in the capture are skipped quietly
        #expect(gps.fixes.count == 148)
        let times = gps.fixes.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func bundgZeusDistanceFollowsThePositionsWhenItsSpeedLies() throws {
        // The boat moves ~2.9 m/s for all 147 s by its positions (raw path 430 m with noise);
        // for 38 s its reported speed reads 0–0.4 m/s. Trusting that speed gave 298 m and an
        // auto-pause of a moving boat.
        let flight = try FlyCommand.fly(
            gps: trace("bundg_zeus_9"), gpsName: "bundg", pressure: nil, mission: nil
        ).flight
        #expect(flight.distance > 390 && flight.distance < 430)
        #expect(flight.movingTime == flight.elapsed)
        #expect(flight.status == .recorded)
    }

    @Test func haicomWalkingAroundIsTooShortAndItsSpeedSpikeIsHarmless() throws {
        // "starts stationary, then moving 5 m W, 10 m S, then reversing", with an 11.4 m/s spike.
        let flight = try FlyCommand.fly(
            gps: trace("haicom-305N"), gpsName: "haicom", pressure: nil, mission: nil
        ).flight
        #expect(flight.status == .tooShort)
        #expect(flight.distance < 100)
    }

    @Test func bt451ABadDateCostsItsLineNotTheFlight() throws {
        // The capture has one fix dated a day ahead; kept, it made a 23-hour flight.
        let gps = try trace("bt451")
        #expect(gps.diagnostics.contains { $0.message.contains("more than 30 minutes away") })
        let flight = try FlyCommand.fly(gps: gps, gpsName: "bt451", pressure: nil, mission: nil).flight
        #expect(flight.elapsed < 60)
    }

    @Test func longestOrderedRunKeepsTheMajority() {
        #expect(TraceReader.longestNonDecreasing([1, 2, 100, 3, 4, 5]) == [0, 1, 3, 4, 5])
        #expect(TraceReader.longestNonDecreasing([5, 1, 2, 3]) == [1, 2, 3])
        #expect(TraceReader.longestNonDecreasing([1, 1, 2, 2]) == [0, 1, 2, 3])
        #expect(TraceReader.longestNonDecreasing([]) == [])
    }
}
