import RunWayCore

/// The scenarios the demo, the tests and the bench fly.
extension Scenario {
    /// A park loop of about 1.2 km.
    public static let parkLoop = Course.parkLoop(width: 420, height: 180, radius: 40)

    /// The demo: a 5 km Mission Flight at 5:30/km ±15 s with a hill, a traffic-light stop, a
    /// too-slow stretch (SINK RATE) and a too-fast one (OVERSPEED), finishing past the target.
    public static var demoMission: Scenario {
        var scenario = Scenario(
            name: "demo mission 5 km",
            course: parkLoop,
            legs: [
                SpeedLeg(from: 0, speed: 3.03), SpeedLeg(from: 1500, speed: 2.55),
                SpeedLeg(from: 2100, speed: 3.03),
                SpeedLeg(from: 3500, speed: 3.6), SpeedLeg(from: 4000, speed: 3.0),
            ],
            totalDistance: 5180)
        scenario.stops = [Stop(at: 2300, seconds: 30)]
        scenario.hills = [Hill(center: 3000, length: 600, height: 20)]
        scenario.mission = Mission(targetPace: 330, allowedDeviation: 15, targetDistance: 5000)
        scenario.seed = 2026
        return scenario
    }

    /// A run around the park loop at one steady `speed` (m/s) for `distance` metres, with its
    /// own noise `seed`: what every built-in run but the demo starts from.
    static func steady(_ name: String, speed: Double, distance: Double, seed: UInt64) -> Scenario {
        var scenario = Scenario(
            name: name, course: parkLoop, legs: [SpeedLeg(from: 0, speed: speed)], totalDistance: distance)
        scenario.seed = seed
        return scenario
    }

    /// Flat 5 km at a steady 3 m/s while the weather drifts 1 hPa/h the wrong way.
    public static var flat5k: Scenario { steady("flat 5 km", speed: 3.0, distance: 5000, seed: 11) }

    /// Hilly 10 km: six hills, 115 m of climbing.
    public static var hilly10k: Scenario {
        var scenario = steady("hilly 10 km", speed: 2.9, distance: 10_000, seed: 12)
        scenario.hills = [
            Hill(center: 900, length: 400, height: 12), Hill(center: 2300, length: 800, height: 25),
            Hill(center: 3900, length: 500, height: 18), Hill(center: 5600, length: 900, height: 30),
            Hill(center: 7100, length: 300, height: 8), Hill(center: 8600, length: 700, height: 22),
        ]
        return scenario
    }

    /// 5 km with four traffic lights.
    public static var stops5k: Scenario {
        var scenario = steady("5 km, 4 stops", speed: 3.2, distance: 5000, seed: 13)
        scenario.stops = [
            Stop(at: 800, seconds: 20), Stop(at: 1900, seconds: 45), Stop(at: 3100, seconds: 30),
            Stop(at: 4200, seconds: 60),
        ]
        return scenario
    }

    /// A walker at 1.3 m/s for 1.5 km: must never be auto-paused.
    public static var walker: Scenario { steady("walker 1.3 m/s", speed: 1.3, distance: 1500, seed: 14) }

    /// A steady run of `hours` at `rate` fixes per second, for the cost figures.
    public static func endurance(hours: Double, rate: Double) -> Scenario {
        var scenario = steady("\(hours) h at \(rate) Hz", speed: 2.8, distance: 2.8 * hours * 3600, seed: 15)
        scenario.gps.rate = rate
        return scenario
    }

    /// A runner holding a steady pace `offset` s/km from the edge of a 5:30 ±15 s/km mission band
    /// on the hilly course for `minutes` (positive: outside the band; the slow edge unless
    /// `fastEdge`). The mission's target distance is beyond the run unless `targetDistance` is given.
    public static func bandEdge(
        offset: Double, fastEdge: Bool = false, minutes: Double = 60, targetDistance: Double? = nil,
        seed: UInt64 = 21
    ) -> Scenario {
        let band = Mission.PaceBand(targetPace: 330, allowedDeviation: 15)
        let mission = Mission(pace: band, goal: .distance(targetDistance ?? 1_000_000))
        let pace = fastEdge ? band.fastestAllowedPace - offset : band.slowestAllowedPace + offset
        let speed = 1000 / pace
        var scenario = hilly10k
        scenario.name = "band edge \(fastEdge ? "fast" : "slow") \(offset >= 0 ? "+" : "")\(offset) s/km"
        scenario.legs = [SpeedLeg(from: 0, speed: speed)]
        scenario.totalDistance = speed * minutes * 60
        scenario.mission = mission
        scenario.seed = seed
        return scenario
    }

    /// A runner on a 140–155 bpm heart-rate mission on the flat course for `minutes`, holding a
    /// heart rate `offset` bpm from the band's high edge (negative: inside), from the start (the
    /// heart climbs to it from rest), at 3 m/s. `stepAt` (moving seconds): from then the runner
    /// holds `stepTo` bpm instead (going out of the zone). A runner who holds a heart rate
    /// corrects its drift by easing off, so the held heart rate does not drift (`driftPerHour` 0).
    public static func heartRateEdge(
        offset: Double, minutes: Double = 60, stepAt: Double? = nil, stepTo: Double = 0, seed: UInt64 = 31
    ) -> Scenario {
        let band = Mission.HeartRateBand(low: 140, high: 155)
        var scenario = flat5k
        scenario.name = "heart-rate edge \(offset >= 0 ? "+" : "")\(offset) bpm"
        scenario.legs = [SpeedLeg(from: 0, speed: 3)]
        scenario.totalDistance = 3 * minutes * 60
        scenario.mission = Mission(pace: nil, heartRate: band, goal: .distance(1_000_000))
        var efforts = [HeartRateModel.Effort(from: 0, heartRate: band.high + offset)]
        if let stepAt { efforts.append(.init(from: stepAt, heartRate: stepTo)) }
        var model = HeartRateModel(efforts: efforts)
        model.driftPerHour = 0
        scenario.heartRateModel = model
        scenario.seed = seed
        return scenario
    }

    /// The accuracy scenarios the bench scores.
    public static var accuracySuite: [Scenario] { [demoMission, flat5k, hilly10k, stops5k, walker] }
}

extension Scenario {
    /// The built-in scenarios by name, for `runway simulate` and `runwayd --scenario`.
    public static var named: [(name: String, scenario: Scenario)] {
        [
            ("demo", demoMission), ("flat5k", flat5k), ("hilly10k", hilly10k), ("stops5k", stops5k),
            ("walker", walker), ("track-6x400", sixByFourHundred),
            ("endurance-1h", endurance(hours: 1, rate: 1)),
            ("endurance-24h-10hz", endurance(hours: 24, rate: 10)),
        ]
    }
}
