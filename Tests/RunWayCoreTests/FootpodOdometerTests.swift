import Testing

@testable import RunWayCore

/// A paired footpod's distance as the touchdown smoother reads it across an outage (issue 26).
@Suite("A footpod's odometer")
struct FootpodOdometerTests {
    static func pod(_ readings: [(time: Double, metres: Double?, speed: Double?)]) -> FootpodOdometer {
        var pod = FootpodOdometer()
        for r in readings {
            pod.add(BodySample(time: r.time, footpodSpeed: r.speed, footpodDistance: r.metres))
        }
        return pod
    }

    @Test func itsCountsDifferencesAreTheDistanceBetweenAnyTwoMoments() throws {
        let pod = Self.pod((0...60).map { (Double($0), 1000 + 3 * Double($0), 3) })
        #expect(try #require(pod.distance(from: 10, to: 40)) == 90)
        // Between readings, linear.
        #expect(try #require(pod.distance(from: 10.5, to: 20)) == 28.5)
    }

    @Test func aCountThatGoesBackIsAResetAndTheTrackCarriesOn() throws {
        var readings: [(time: Double, metres: Double?, speed: Double?)] = (0...10).map {
            (Double($0), 500 + 3 * Double($0), 3)
        }
        readings += (11...20).map { (Double($0), 3 * Double($0 - 11), 3) }
        let pod = Self.pod(readings)
        // 0 → 10: 30 m; the reset second (10 → 11) counts nothing; 11 → 20: 27 m.
        #expect(try #require(pod.distance(from: 0, to: 20)) == 57)
    }

    @Test func aPodThatSendsOnlyItsSpeedIsIntegrated() throws {
        let pod = Self.pod((0...30).map { (Double($0), nil, 2.5) })
        #expect(abs(try #require(pod.distance(from: 0, to: 30)) - 75) < 1e-9)
    }

    @Test func aSilenceOrASpanBeyondItsReadingsIsNoMeasurement() {
        var readings: [(time: Double, metres: Double?, speed: Double?)] = (0...20).map {
            (Double($0), 3 * Double($0), 3)
        }
        readings += (40...60).map { (Double($0), 3 * Double($0), 3) }
        let pod = Self.pod(readings)
        #expect(pod.distance(from: 5, to: 15) != nil)
        #expect(pod.distance(from: 10, to: 50) == nil, "19 s without a reading")
        #expect(pod.distance(from: -10, to: 5) == nil, "before its first reading")
        #expect(pod.distance(from: 50, to: 90) == nil, "long after its last")
        #expect(pod.distance(from: 15, to: 5) == nil)
        #expect(FootpodOdometer().distance(from: 0, to: 1) == nil)
    }

    @Test func samplesWithoutAPodOrOutOfOrderAreIgnored() throws {
        var pod = FootpodOdometer()
        pod.add(BodySample(time: 0, heartRate: 140))
        #expect(pod.isEmpty)
        pod.add(BodySample(time: 5, footpodDistance: 10))
        pod.add(BodySample(time: 4, footpodDistance: 99))
        pod.add(BodySample(time: 6, footpodDistance: 13))
        #expect(pod.times == [5, 6])
        #expect(try #require(pod.distance(from: 5, to: 6)) == 3)
    }

    @Test func theScaleNeedsEnoughRunningAndAPlausibleRatio() {
        var calibration = FootpodOdometer.Calibration()
        calibration.add(gps: 150, pod: 142)
        #expect(calibration.scale == nil, "under 200 m")
        calibration.add(gps: 150, pod: 143)
        #expect(abs((calibration.scale ?? 0) - 300 / 285.0) < 1e-12)
        calibration.add(gps: .nan, pod: 5)
        calibration.add(gps: 5, pod: -1)
        #expect(abs((calibration.scale ?? 0) - 300 / 285.0) < 1e-12, "bad pairs are left out")
        var broken = FootpodOdometer.Calibration()
        broken.add(gps: 1000, pod: 300)
        #expect(broken.scale == nil, "a pod reading 30 % of the way is not believed")
    }
}
