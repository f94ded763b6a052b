import Foundation
import RunWaySimulator
import Testing

@testable import RunWayCore

/// The touchdown smoother's check of Doppler speed against the positions: a stretch whose
/// speed lies is dropped, a stop is not.
@Suite("DopplerCheck: a speed that lies is dropped, a stop is kept")
struct DopplerCheckTests {
    static let origin = Coordinate(latitude: 52.85, longitude: 5.31)

    /// A fix `north` metres north and `east` metres east of the origin at `time`.
    static func fix(_ time: Double, north: Double, east: Double = 0, speed: Double?, eph: Double = 11.4)
        -> Fix
    {
        let latitude = origin.latitude + north / 111_195
        let longitude = origin.longitude + east / (111_195 * cos(origin.latitude * .pi / 180))
        return Fix(
            time: time, coordinate: Coordinate(latitude: latitude, longitude: longitude),
            horizontalAccuracy: eph,
            speed: speed, track: speed.map { _ in 0 })
    }

    static func run(_ fixes: [Fix]) -> (out: [Fix], check: DopplerCheck) {
        var check = DopplerCheck()
        var out: [Fix] = []
        for fix in fixes { out += check.add(fix) }
        out += check.finish()
        return (out, check)
    }

    @Test func aBoatWhoseSpeedReadsZeroWhileItMovesLosesThoseSpeeds() {
        // bundg_zeus_9's shape: 2.9 m/s for 150 s, the speed reading 0–0.3 for 38 s in the middle.
        let fixes = (0..<150).map { t in
            Self.fix(
                Double(t), north: 2.9 * Double(t), speed: (60..<98).contains(t) ? Double(t % 4) * 0.1 : 2.9)
        }
        let (out, check) = Self.run(fixes)
        #expect(out.map(\.time) == fixes.map(\.time))
        #expect(check.liesFound == 1)
        #expect(out.filter { $0.speed == nil }.map(\.time) == (60..<98).map(Double.init))
        #expect(out.filter { $0.speed != nil }.allSatisfy { $0.speed == 2.9 })
    }

    /// A 5 Hz receiver: running north at 3 m/s, a 16 s outage through which gpsd reports no
    /// fix once a second (mode 1, no position), the runner stopping in it and standing 40 s
    /// after it, then on. The reports without a position are passed on in order and are no
    /// place to measure from: taken as the last fix before the stand, 5 800 km away, they made
    /// the stand a lie and its speeds were dropped (the saved distance 12 m long there). Nor is
    /// the pre-outage running, 16 s back, "around" the stand.
    @Test func aStandAfterAnOutageWithNoFixReportsKeepsItsSpeeds() {
        var fixes: [Fix] = []
        for tenth in stride(from: 0, to: 1500, by: 2) {
            let t = Double(tenth) / 10
            let report: Fix
            switch t {
            case 60..<76:
                guard tenth % 10 == 0 else { continue }
                report = Fix(time: t, coordinate: Coordinate(latitude: 0, longitude: 0), mode: 1)
            case 76..<116: report = Self.fix(t, north: 210, speed: 0.02)
            default: report = Self.fix(t, north: t < 60 ? 3 * t : 210 + 3 * (t - 116), speed: 3)
            }
            fixes.append(report)
        }
        let (out, check) = Self.run(fixes)
        #expect(out.map(\.time) == fixes.map(\.time))
        #expect(check.liesFound == 0)
        #expect(out.filter { (76..<116).contains($0.time) }.allSatisfy { $0.speed == 0.02 })
    }

    /// A stand, then an hour of "no fix" reports (the receiver indoors): the check holds at most
    /// the stand's `longestLie` of them before letting the stretch go; nothing waits for a fix
    /// that may never come.
    @Test func anHourOfNoFixReportsAfterAStandIsNotHeld() {
        var check = DopplerCheck()
        var given = 0
        var out = 0
        var held = 0
        for t in 0..<3700 {
            let fix: Fix
            switch t {
            case ..<60: fix = Self.fix(Double(t), north: 3 * Double(t), speed: 3)
            case 60..<90: fix = Self.fix(Double(t), north: 180, speed: 0.02)
            default: fix = Fix(time: Double(t), coordinate: Coordinate(latitude: 0, longitude: 0), mode: 1)
            }
            given += 1
            out += check.add(fix).count
            held = max(held, given - out)
        }
        out += check.finish().count
        #expect(out == given)
        #expect(held <= 125, "\(held)")
        #expect(check.liesFound == 0)
    }

    @Test(arguments: [(3.0, 30.0, 11.4), (1.8, 8.0, 45.0), (3.0, 10.0, 45.0), (5.5, 20.0, 20.0)])
    func aStopAmidWanderKeepsItsSpeeds(speed: Double, stop: Double, eph: Double) {
        // Running north, a stop of `stop` s whose positions wander by ~0.12 × eph, then on.
        var fixes: [Fix] = []
        var north = 0.0
        var generator = SeededGenerator(seed: 7)
        for t in 0..<200 {
            let stopped = Double(t) >= 60 && Double(t) < 60 + stop
            if !stopped { north += speed }
            let wander: Double = 0.12 * eph
            let dn: Double = generator.gaussian() * wander
            let de: Double = generator.gaussian() * wander
            let reading: Double = stopped ? abs(generator.gaussian()) * 0.2 : speed
            fixes.append(Self.fix(Double(t), north: north + dn, east: de, speed: reading, eph: eph))
        }
        let (out, check) = Self.run(fixes)
        #expect(check.liesFound == 0)
        #expect(out == fixes)
    }

    @Test func aColdStartsDriftWhileStandingIsNoLie() {
        // Standing at the start, the receiver's offset drifts in at 5 m/s, then the run begins.
        let fixes: [Fix] = (0..<120).map { (t: Int) -> Fix in
            let time = Double(t)
            return t < 40
                ? Self.fix(time, north: 200 - 5 * time, speed: 0)
                : Self.fix(time, north: 3 * (time - 40), speed: 3)
        }
        let (out, check) = Self.run(fixes)
        #expect(check.liesFound == 0 && out == fixes)
    }

    @Test func aLongStandstillIsPassedOnWithoutWaitingForItsEnd() {
        // An hour standing after a run: held at most two minutes, not the hour.
        var check = DopplerCheck()
        var passed = 0
        for t in 0..<30 { passed += check.add(Self.fix(Double(t), north: 3 * Double(t), speed: 3)).count }
        for t in 30..<3_630 {
            passed += check.add(Self.fix(Double(t), north: 90, speed: 0)).count
            #expect(Double(t) - Double(passed) <= 122)
        }
        passed += check.finish().count
        #expect(passed == 3_630 && check.liesFound == 0)
    }
}
