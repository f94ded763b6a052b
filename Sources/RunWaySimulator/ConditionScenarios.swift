import Foundation
import RunWayCore

/// The hard conditions of issue 26, one scenario each, for `runway-bench conditions`: where the
/// engine's distance, moving time, splits and gain were reported to go wrong. Every one is 5 km
/// at 3 m/s on open sky unless it says otherwise, so a row differs from the open-sky row by its
/// condition alone; the bench varies `seed` (each scenario's own is its base).
extension Scenario {
    /// City blocks of 125 m (a block in Seoul's grid is 100–150 m), five steps out and back:
    /// 2.75 km a lap, a right-angle corner every 125 m.
    public static let cityBlocks = Course.cityBlocks(block: 125, steps: 5)

    /// A riverside path: two 1.57 km straights joined by tight turns (3.25 km a lap), so an
    /// outage of a minute falls on a straight.
    public static let riverside = Course.parkLoop(width: 1600, height: 40, radius: 15)

    /// The elapsed seconds at which a runner holding `speed` (accelerating and braking as the
    /// scenario does) passes `distance`, after standing at each of `stops` before it: the time an
    /// outage (a time span) must start to fall on a corner or a stop (a place). Each start costs
    /// v/2a against running at speed from the gun, each stop v/2d of braking and v/2a of getting
    /// going again; the simulator's 0.3 m/s creep into a stop adds well under a second.
    static func steadyElapsed(
        at distance: Double, speed: Double, stops: [Stop] = [], acceleration: Double = 1.5,
        deceleration: Double = 2
    ) -> Double {
        var elapsed = distance / speed + speed / (2 * acceleration)
        for stop in stops where stop.at < distance {
            elapsed += stop.seconds + speed / (2 * deceleration) + speed / (2 * acceleration)
        }
        return elapsed
    }

    /// The elapsed seconds at which a runner holding `speed` comes to a halt at `stop`, standing
    /// at each of `stops` before it: `steadyElapsed` at the stop's place, and the braking from
    /// `speed` at `deceleration`.
    static func haltElapsed(at stop: Stop, speed: Double, stops: [Stop], deceleration: Double) -> Double {
        steadyElapsed(at: stop.at, speed: speed, stops: stops) + speed / (2 * deceleration)
    }

    /// An outage of `seconds` centred on where the runner is at `distance`.
    static func outage(
        centredAt distance: Double, seconds: Double, speed: Double, stops: [Stop] = []
    ) -> SignalGap {
        SignalGap(
            start: steadyElapsed(at: distance, speed: speed, stops: stops) - seconds / 2, seconds: seconds)
    }

    /// Open sky: the baseline every other row is read against (flat 5 km at 3 m/s, park loop).
    public static var openSky: Scenario { steady("open sky", speed: 3, distance: 5000, seed: 101) }

    /// A cold start whose offset (200–500 m) shrinks to nothing over 30–90 s from the first fix:
    /// the fixes drift toward the truth at up to 17 m/s, each close to the last, `eph` 20–45 m.
    public static var coldStartDecaying: Scenario {
        var scenario = steady("cold start, decaying", speed: 3, distance: 5000, seed: 102)
        scenario.gps.coldStart = ColdStart(ending: .decays)
        return scenario
    }

    /// A cold start whose offset (200–500 m) holds for 30–90 s, then snaps away in one fix.
    public static var coldStartSnapping: Scenario {
        var scenario = steady("cold start, snapping", speed: 3, distance: 5000, seed: 103)
        scenario.gps.coldStart = ColdStart(ending: .snaps)
        return scenario
    }

    /// City blocks with four outages of 45–75 s (underpasses, a tunnel), each centred on a
    /// corner, one over two corners: the runner turns while no fix comes (mode-1 reports once a
    /// second, as gpsd sends them).
    public static var cityOutages: Scenario {
        var scenario = steady("city outages on corners", speed: 3, distance: 5000, seed: 104)
        scenario.course = cityBlocks
        scenario.signalGaps = [
            outage(centredAt: 625, seconds: 60, speed: 3), outage(centredAt: 1875, seconds: 45, speed: 3),
            outage(centredAt: 3187.5, seconds: 75, speed: 3), outage(centredAt: 4375, seconds: 50, speed: 3),
        ]
        return scenario
    }

    /// Three outages of 45–75 s on the riverside straights: the chord is the path, so what is
    /// lost is only what the engine does with the missing time.
    public static var straightOutages: Scenario {
        var scenario = steady("outages on a straight", speed: 3, distance: 5000, seed: 105)
        scenario.course = riverside
        scenario.signalGaps = [
            outage(centredAt: 800, seconds: 60, speed: 3), outage(centredAt: 2400, seconds: 45, speed: 3),
            outage(centredAt: 4054, seconds: 75, speed: 3),
        ]
        return scenario
    }

    /// Tree cover the whole run (a wooded park trail): `eph` 30–60 m while the real error is
    /// ~6 m, Doppler σ 0.3 m/s; two stops (30 s, 45 s) amid that wander.
    public static var treeCover: Scenario {
        var scenario = steady("tree cover, 2 stops", speed: 3, distance: 5000, seed: 106)
        scenario.gps.spells = [Spell(.distance(0...Double.infinity), sky: .treeCover)]
        scenario.stops = [Stop(at: 1700, seconds: 30), Stop(at: 3400, seconds: 45)]
        return scenario
    }

    /// City blocks, four traffic lights at corners (20–60 s), each in an urban canyon from a block
    /// before to a block after: the fix keeps wandering several metres while the runner stands,
    /// Doppler reads ~0.
    public static var urbanStops: Scenario {
        var scenario = steady("stops in urban wander", speed: 3, distance: 5000, seed: 107)
        scenario.course = cityBlocks
        scenario.stops = [
            Stop(at: 875, seconds: 20), Stop(at: 2125, seconds: 45), Stop(at: 3375, seconds: 60),
            Stop(at: 4250, seconds: 30),
        ]
        scenario.gps.spells = scenario.stops.map {
            Spell(.distance(($0.at - 125)...($0.at + 125)), sky: .urbanCanyon)
        }
        return scenario
    }

    /// The four city lights of "stops in urban wander", each with a short outage (12–16 s) at
    /// a different moment of the stop: ending as the runner brakes into it, across its start,
    /// inside it, and across the set-off. Random short outages over the urban stops found the
    /// first two: the signal back on a standing runner, the gap judged only at the resume a
    /// minute later, and every second stood in between booked as moving (28–90 s a run).
    public static var outagesAtStops: Scenario {
        var scenario = urbanStops
        scenario.name = "short outages at stops"
        scenario.seed = 118
        // (from, to) around each stop's halt, the last around its set-off.
        let spans: [(Double, Double)] = [(-13, -0.5), (-10, 6), (10, 22), (25, 38)]
        let (stops, deceleration) = (scenario.stops, scenario.deceleration)
        scenario.signalGaps = zip(stops, spans).map { stop, span in
            let halt = haltElapsed(at: stop, speed: 3, stops: stops, deceleration: deceleration)
            return SignalGap(start: halt + span.0, seconds: span.1 - span.0)
        }
        return scenario
    }

    /// Two outages (40 s, 60 s) centred on the riverside's turn-arounds (two tight 90° turns
    /// 40 m apart): the runner goes in running one way and comes out running the other, 40 m
    /// from where the signal went, after 120–180 m. The chord says nothing of how far it ran
    /// (a hostile pass found it: the saved distance 4.2 % short, the moving time 45 s short).
    public static var hairpinOutages: Scenario {
        var scenario = steady("outages on a hairpin", speed: 3, distance: 5000, seed: 117)
        scenario.course = riverside
        scenario.signalGaps = [
            outage(centredAt: 1622, seconds: 40, speed: 3), outage(centredAt: 3249.5, seconds: 60, speed: 3),
        ]
        return scenario
    }

    /// Two stops (45 s, 30 s) each inside an outage that begins 15 s before the runner stands and
    /// ends 15 s after it runs on: no fix says when it stopped or how long.
    public static var stopInOutage: Scenario {
        stopsAtOutageEdge("stop in an outage", seed: 108, before: 15, after: 15)
    }

    /// Two stops (45 s, 30 s) at the start of an outage: the signal goes as the runner stands
    /// and comes back 30 s after it runs on, so the last fix before each gap is a braking one
    /// and the stop sits at the gap's start, not in its middle (a hostile pass found it: the
    /// moving time 15 s a stop short, the live distance 1.9 % long).
    public static var outageFromStop: Scenario {
        stopsAtOutageEdge("outage from a stop", seed: 115, before: 0, after: 30)
    }

    /// Two stops (45 s, 30 s) at the end of an outage: the signal goes 30 s before the runner
    /// stands and comes back as it sets off, so the first fix after each gap reads getting going
    /// (~1 m/s) and the stop sits at the gap's end (a hostile pass found it: the live distance
    /// 5.9 % long, the moving time 7 s a stop long).
    public static var outageToStop: Scenario {
        stopsAtOutageEdge("outage to a stop", seed: 116, before: 30, after: 0)
    }

    /// Stops of 45 s at 1.5 km and 30 s at 3.5 km, each in an outage from `before` seconds before
    /// the runner stands to `after` seconds after it runs on.
    static func stopsAtOutageEdge(_ name: String, seed: UInt64, before: Double, after: Double) -> Scenario {
        var scenario = steady(name, speed: 3, distance: 5000, seed: seed)
        let stops = [Stop(at: 1500, seconds: 45), Stop(at: 3500, seconds: 30)]
        scenario.stops = stops
        scenario.signalGaps = stops.map { stop in
            let halt = haltElapsed(at: stop, speed: 3, stops: stops, deceleration: scenario.deceleration)
            return SignalGap(start: halt - before, seconds: before + stop.seconds + after)
        }
        return scenario
    }

    /// Rolling terrain, 7 km at 2.9 m/s: twelve slow hills (550 m from foot to foot, 6–14 m high,
    /// crests with no flat top), 118 m of climbing, while the weather turns: −150 Pa/h (falling,
    /// reads as climbing 12 m/h), then +100 Pa/h from 15 min, then −60 Pa/h from 30 min.
    public static var rollingWeather: Scenario {
        var scenario = steady("rolling, weather turns", speed: 2.9, distance: 7000, seed: 109)
        let heights: [Double] = [8, 12, 6, 14, 9, 11, 7, 13, 10, 6, 12, 10]
        scenario.hills = heights.enumerated().map { index, height in
            Hill(center: 300 + 560 * Double(index), length: 550, height: height)
        }
        scenario.barometer.driftPascalsPerHour = -150
        scenario.barometer.driftLegs = [
            DriftLeg(from: 900, pascalsPerHour: 100), DriftLeg(from: 1800, pascalsPerHour: -60),
        ]
        return scenario
    }

    /// Short hills, 5 km at 3 m/s: twenty bumps of a park (150–300 m from foot to foot, 3–8 m
    /// high, 104 m of climbing) while the weather falls 100 Pa/h. At the board's two readings a
    /// second the live rule's double EMA lags and flattens a 200 m hill by 4 %; the saved
    /// flight counts the barometer averaged either side of each reading (`SmoothedAltitude`).
    public static var shortHills: Scenario {
        var scenario = steady("short hills, 150–300 m", speed: 3, distance: 5000, seed: 114)
        let lengths: [Double] = [150, 220, 300, 180, 260]
        let heights: [Double] = [3, 5, 8, 4, 6]
        var foot = 100.0
        scenario.hills = (0..<20).map { index in
            let length = lengths[index % lengths.count]
            let height = heights[(index / 2) % heights.count]
            let hill = Hill(center: foot + length / 2, length: length, height: height)
            foot += length + 30
            return hill
        }
        scenario.barometer.rate = 2
        return scenario
    }

    /// Intervals, 5.6 km: 1 km warm-up at 2.8 m/s, six times 400 m at 5 m/s and 200 m at 2 m/s,
    /// 1 km cool-down — the speed changes by 3 m/s in 2 s at every change.
    public static var intervals: Scenario {
        var scenario = steady("intervals 6 × 400 m", speed: 2.8, distance: 5600, seed: 110)
        var legs = [SpeedLeg(from: 0, speed: 2.8)]
        for repeat_ in 0..<6 {
            let start = 1000 + 600 * Double(repeat_)
            legs.append(SpeedLeg(from: start, speed: 5))
            legs.append(SpeedLeg(from: start + 400, speed: 2))
        }
        legs.append(SpeedLeg(from: 4600, speed: 2.8))
        scenario.legs = legs
        return scenario
    }

    /// A slow jog at 1.8 m/s (9:16 /km): 5 m of movement filter takes 2.8 s.
    public static var slowJog: Scenario { steady("slow jog 1.8 m/s", speed: 1.8, distance: 5000, seed: 111) }

    /// A fast run at 5.5 m/s (3:02 /km): the park loop's 40 m corners at speed.
    public static var fastRun: Scenario { steady("fast 5.5 m/s", speed: 5.5, distance: 5000, seed: 112) }

    /// 10 fixes a second (gpsd's highest rate): 0.3 m between fixes at 3 m/s, well inside the
    /// noise. (16 700 fixes a run: its 20 seeds fly in under a second in a release build.)
    public static var tenHertz: Scenario {
        var scenario = steady("10 Hz GPS", speed: 3, distance: 5000, seed: 113)
        scenario.gps.rate = 10
        return scenario
    }

    /// Open sky from a receiver that smooths its velocity: the same σ of Doppler noise (0.1 m/s),
    /// but each reading carries 5 s of the ones before (`GPSModel.speedTau`), so the speeds' sum
    /// walks 3.2 times as far as white noise does, and their successive differences show less
    /// than half of it.
    public static var smoothedDoppler: Scenario {
        var scenario = steady("Doppler smoothed 5 s", speed: 3, distance: 5000, seed: 115)
        scenario.gps.speedTau = 5
        return scenario
    }

    /// The city blocks' outages with a footpod paired (its scale 5 % off at worst, learnt
    /// against GPS): the saved flight bridges each outage with the pod's steps.
    public static var cityOutagesFootpod: Scenario {
        var scenario = cityOutages
        scenario.name = "city outages, footpod"
        scenario.footpod = FootpodModel()
        return scenario
    }

    /// The stops inside outages with a footpod paired: the pod counts no steps while the runner
    /// stands, so the bridge is what was run, not the speeds either side held through the stop.
    public static var stopInOutageFootpod: Scenario {
        var scenario = stopInOutage
        scenario.name = "stop in an outage, footpod"
        scenario.footpod = FootpodModel()
        return scenario
    }

    /// The same run with `count` more outages of 3–15 s at random moments of its first
    /// `totalDistance / speed` seconds (after the first minute), drawn from the run's own seed:
    /// a hostile pass (`runway-bench conditions --short-outages N`). Outages may overlap or land
    /// on a stop, a cold start or another outage; that is the point.
    public func withShortOutages(_ count: Int) -> Scenario {
        guard count > 0 else { return self }
        var scenario = self
        var generator = SeededGenerator(seed: seed ^ 0x5EED_0F_0A7A6E5)
        let duration = max(totalDistance / max(legs.first?.speed ?? 3, 0.5), 120)
        for _ in 0..<count {
            let start = Double.random(in: 60..<duration, using: &generator)
            let seconds = Double.random(in: 3...15, using: &generator)
            scenario.signalGaps.append(SignalGap(start: start, seconds: seconds))
        }
        scenario.signalGaps.sort { $0.start < $1.start }
        return scenario
    }

    /// The same run from another receiver, drawn from the run's own seed: a hostile pass
    /// (`runway-bench conditions --varied-receiver`) for rules tuned to one receiver's figures.
    /// Each of the open sky's wander (σ and τ), white noise and Doppler σ is scaled by its own
    /// factor, log-uniform in 0.5–2 (halving as likely as doubling), the same factor scaling
    /// each degraded spell's; HDOP by 0.8–1.5 and the multipath jumps' rate by 0–3, uniform. The
    /// rate and everything the runner does stay.
    public func withVariedReceiver() -> Scenario {
        var scenario = self
        var generator = SeededGenerator(seed: seed ^ 0x0E_CE17_E4)
        func factor() -> Double { exp(Double.random(in: log(0.5)...log(2), using: &generator)) }
        let wander = factor()
        let tau = factor()
        let white = factor()
        let speed = factor()
        scenario.gps.wanderSigma *= wander
        scenario.gps.wanderTau *= tau
        scenario.gps.whiteSigma *= white
        scenario.gps.speedSigma *= speed
        scenario.gps.hdop *= Double.random(in: 0.8...1.5, using: &generator)
        scenario.gps.multipathPerHour *= Double.random(in: 0...3, using: &generator)
        scenario.gps.spells = scenario.gps.spells.map { spell in
            var spell = spell
            spell.sky.wanderSigma *= wander
            spell.sky.wanderTau *= tau
            spell.sky.whiteSigma *= white
            spell.sky.speedSigma *= speed
            return spell
        }
        return scenario
    }

    /// Every condition the bench reports, baseline first.
    public static var conditionSuite: [Scenario] {
        [
            openSky, coldStartDecaying, coldStartSnapping, cityOutages, straightOutages, treeCover,
            urbanStops, stopInOutage, rollingWeather, shortHills, intervals, slowJog, fastRun, tenHertz,
            cityOutagesFootpod, stopInOutageFootpod, smoothedDoppler, outageFromStop,
            outageToStop, hairpinOutages, outagesAtStops,
        ]
    }
}
