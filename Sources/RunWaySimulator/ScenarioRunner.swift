import Foundation
import RunWayCore

/// What the simulated board produces: an engine input, or the END button.
public enum SimulatedEvent: Sendable, Equatable {
    case input(EngineInput)
    case end(sentAt: Double)

    public var time: Double {
        switch self {
        case .input(let input): input.time
        case .end(let sentAt): sentAt
        }
    }
}

/// What really happened on a simulated run, to score the engine against.
public struct GroundTruth: Sendable {
    public var rotateTime: Double = 0
    /// Metres travelled (horizontal path length).
    public var distance: Double = 0
    /// Seconds spent moving (speed above 0.2 m/s).
    public var movingTime: Double = 0
    /// Flight elapsed seconds at which each kilometre was passed.
    public var kilometreTimes: [Double] = []
    /// Metres climbed by the terrain.
    public var elevationGain: Double = 0
    /// Elapsed seconds when the runner stood still at the finish.
    public var arrivalElapsed: Double = 0
    public var stopCount = 0
    /// Metres and seconds ridden in a vehicle (`Scenario.rides`): in neither figure above.
    public var ridden: Double = 0
    public var ridingTime: Double = 0
    /// True speed at each fix time for the first `speedLogSeconds` of the flight.
    public var speedLog: [(elapsed: Double, speed: Double)] = []
    /// True distance 20 times a second (only when `ScenarioRunner.recordsDistance`).
    public var distanceLog: [(elapsed: Double, distance: Double)] = []
    /// Each position fix's error, east and north (m), and the `eph` it claimed (only when
    /// `ScenarioRunner.recordsFixErrors`).
    public var fixErrors: [(elapsed: Double, east: Double, north: Double, accuracy: Double)] = []
    /// With a cold start: the flight elapsed seconds at which its offset ends (negative: before
    /// ROTATE) and the offset's size (m).
    public var coldStartEnd: Double?
    public var coldStartOffset: Double?

    /// Elapsed time at which the truth reached `distance` (linear between 20 Hz samples).
    public func elapsed(atDistance distance: Double) -> Double? {
        Self.interpolate(distanceLog, at: distance, key: \.distance, value: \.elapsed)
    }

    /// True distance at `elapsed`; the final distance after the run.
    public func distance(atElapsed t: Double) -> Double? {
        Self.interpolate(distanceLog, at: t, key: \.elapsed, value: \.distance) ?? distanceLog.last?.distance
    }

    /// True speed at `elapsed`, within the speed log.
    public func speed(atElapsed t: Double) -> Double? {
        Self.interpolate(speedLog, at: t, key: \.elapsed, value: \.speed)
    }

    /// Linear interpolation in a table sorted by `key` (binary search); the first row before it,
    /// `nil` past the last.
    static func interpolate<Row>(
        _ table: [Row], at x: Double, key: (Row) -> Double, value: (Row) -> Double
    ) -> Double? {
        var low = 0
        var high = table.count
        while low < high {
            let mid = (low + high) / 2
            if key(table[mid]) < x { low = mid + 1 } else { high = mid }
        }
        guard low < table.count else { return nil }
        guard low > 0 else { return value(table[low]) }
        let a = table[low - 1]
        let b = table[low]
        let span = key(b) - key(a)
        let f = span > 0 ? (x - key(a)) / span : 0
        return value(a) + (value(b) - value(a)) * f
    }
}

/// Runs a scenario forward in time and yields what the board's sensors would report, in time
/// order, while keeping the ground truth. Deterministic for a given seed. Memory stays flat, so a
/// 24-hour run streams without holding its truth.
public struct ScenarioRunner: IteratorProtocol, Sendable {
    public let scenario: Scenario
    public private(set) var truth = GroundTruth()
    public var speedLogSeconds: Double = 300
    /// Keep `GroundTruth.distanceLog` (off for long cost runs: 24 h is 1.7 M entries).
    public var recordsDistance = true
    /// Keep `GroundTruth.fixErrors` (for the simulator's own tests).
    public var recordsFixErrors = false

    private static let ticksPerSecond = 20
    private let dt = 1.0 / Double(ScenarioRunner.ticksPerSecond)
    private let course: Course
    private let projection: LocalProjection
    private var rng: SeededGenerator
    /// The footpod's own generator (so a pod leaves every other reading as it was), its scale
    /// for this run and its odometer (m).
    private var footpodRNG = SeededGenerator(seed: 0)
    private var footpodScale = 1.0
    private var footpodMetres = 0.0
    private var tick = 0
    private var queue: [SimulatedEvent] = []
    private var queueHead = 0
    private var finished = false

    // Runner state
    private var s = 0.0
    private var v = 0.0
    private var nextStop = 0
    private var waiting = 0.0
    private var arrived = false
    private var endSent = false
    private var heartRate = 95.0
    private var heart: HeartRateModel.State?

    // Sensor state
    private var wanderEast: GaussMarkov
    private var wanderNorth: GaussMarkov
    private var hdopWander: GaussMarkov
    private var altitudeWander: GaussMarkov
    private var multipath: (east: Double, north: Double, until: Double)?
    /// The Doppler noise in units of its σ (`GPSModel.speedTau`: carried from fix to fix).
    private var speedNoise = 0.0
    private let gpsEvery: Int
    private let baroEvery: Int

    // Conditions (issue 26): their own generator, so that turning one on leaves the open-sky
    // noise draw for draw as it was, and a scenario without them draws nothing from it.
    private var conditions: SeededGenerator
    private var coldStart: (east: Double, north: Double, seconds: Double)?
    private var firstFix: Double?
    private var spellStates: [SpellState]

    /// One spell's own wander (east, north) and its `eph` wander (unit σ, mapped into the
    /// spell's range), stepped at every fix in or out of the spell so it is stationary on entry.
    private struct SpellState: Sendable {
        var east: GaussMarkov
        var north: GaussMarkov
        var accuracy: GaussMarkov

        init(_ sky: Scenario.DegradedSky, generator: inout SeededGenerator) {
            east = GaussMarkov(sigma: sky.wanderSigma, tau: sky.wanderTau, generator: &generator)
            north = GaussMarkov(sigma: sky.wanderSigma, tau: sky.wanderTau, generator: &generator)
            accuracy = GaussMarkov(sigma: 1, tau: 60, generator: &generator)
        }

        mutating func step(_ dt: Double, generator: inout SeededGenerator) {
            _ = east.step(dt, generator: &generator)
            _ = north.step(dt, generator: &generator)
            _ = accuracy.step(dt, generator: &generator)
        }

        /// `eph` in `range`: its middle ± half its width per 2 σ, held inside it.
        func eph(in range: ClosedRange<Double>) -> Double {
            let middle = (range.lowerBound + range.upperBound) / 2
            let half = (range.upperBound - range.lowerBound) / 2
            return min(max(middle + half * accuracy.value / 2, range.lowerBound), range.upperBound)
        }
    }

    public init(_ scenario: Scenario) {
        self.scenario = scenario
        course = Course(scenario.course)
        projection = LocalProjection(origin: scenario.origin)
        var rng = SeededGenerator(seed: scenario.seed)
        wanderEast = GaussMarkov(
            sigma: scenario.gps.wanderSigma, tau: scenario.gps.wanderTau, generator: &rng)
        wanderNorth = GaussMarkov(
            sigma: scenario.gps.wanderSigma, tau: scenario.gps.wanderTau, generator: &rng)
        hdopWander = GaussMarkov(sigma: 0.15, tau: 300, generator: &rng)
        altitudeWander = GaussMarkov(sigma: scenario.gps.altitudeSigma, tau: 120, generator: &rng)
        self.rng = rng
        var conditions = SeededGenerator(seed: scenario.seed ^ 0x2026_C0D1_7105_0026)
        if let cold = scenario.gps.coldStart {
            let size = Double.random(in: cold.offset, using: &conditions)
            let angle = Double.random(in: 0..<(2 * .pi), using: &conditions)
            let seconds = Double.random(in: cold.seconds, using: &conditions)
            coldStart = (size * Foundation.sin(angle), size * Foundation.cos(angle), seconds)
            truth.coldStartOffset = size
        }
        spellStates = scenario.gps.spells.map { SpellState($0.sky, generator: &conditions) }
        self.conditions = conditions
        if let pod = scenario.footpod {
            var generator = SeededGenerator(seed: scenario.seed ^ 0xF007_70D5_0026)
            footpodScale = 1 + Double.random(in: pod.scaleError, using: &generator)
            footpodRNG = generator
        }
        gpsEvery = max(1, Int((Double(Self.ticksPerSecond) / scenario.gps.rate).rounded()))
        baroEvery = max(1, Int((Double(Self.ticksPerSecond) / scenario.barometer.rate).rounded()))
        truth.rotateTime = scenario.rotateTime
        tick = -Int(scenario.preflightSeconds) * Self.ticksPerSecond
    }

    /// All events of the run, in order.
    public static func events(for scenario: Scenario) -> (events: [SimulatedEvent], truth: GroundTruth) {
        var runner = ScenarioRunner(scenario)
        var events: [SimulatedEvent] = []
        while let event = runner.next() { events.append(event) }
        return (events, runner.truth)
    }

    public mutating func next() -> SimulatedEvent? {
        while queueHead >= queue.count {
            if finished { return nil }
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
            step()
        }
        defer { queueHead += 1 }
        return queue[queueHead]
    }

    /// Time of the current tick on the GPS axis.
    private var time: Double { scenario.startPress + Double(tick) * dt }

    private mutating func step() {
        let now = time
        if tick == 0 {
            queue.append(
                .input(.start(at: now, mission: scenario.mission, countdown: true, workout: scenario.workout))
            )
        }
        let elapsed = now - scenario.rotateTime
        if elapsed > 0 { moveRunner(elapsed: elapsed) }
        for press in scenario.presses where abs(press.elapsed - elapsed) < dt / 2 {
            switch press.button {
            case .pause: queue.append(.input(.togglePause(at: now)))
            case .start:
                queue.append(
                    .input(
                        .start(at: now, mission: scenario.mission, countdown: true, workout: scenario.workout)
                    ))
            case .resume: queue.append(.input(.resume(at: now)))
            }
        }
        if tick % gpsEvery == 0 { emitFix(at: now, elapsed: elapsed) }
        if scenario.barometer.present, tick >= 0, (tick + baroEvery / 2) % baroEvery == 0 {
            emitPressure(at: now)
        }
        if tick >= 0, (tick + Self.ticksPerSecond / 4) % Self.ticksPerSecond == 0 { emitBody(at: now) }
        if arrived, !endSent, elapsed >= truth.arrivalElapsed + scenario.finishWait {
            queue.append(.end(sentAt: now))
            endSent = true
            finished = true
        }
        tick += 1
    }

    private mutating func moveRunner(elapsed: Double) {
        guard !arrived else { return }
        if waiting > 0 {
            waiting -= dt
            v = 0
            return
        }
        let stopAt = nextStop < scenario.stops.count ? scenario.stops[nextStop].at : scenario.totalDistance
        let braking = (2 * scenario.deceleration * max(0, stopAt - s)).squareRoot()
        let desired = min(scenario.targetSpeed(at: s), braking)
        let change = desired - v
        v += min(max(change, -scenario.deceleration * dt), scenario.acceleration * dt)
        v = max(v, min(0.3, braking))
        let before = s
        let ranBefore = truth.distance
        s = min(s + v * dt, stopAt)
        if scenario.rides.contains(where: { $0.covers(before) }) {
            truth.ridden += s - before
            truth.ridingTime += dt
        } else if v > 0.2 {
            truth.movingTime += dt
        }
        truth.distance = s - truth.ridden
        if recordsDistance { truth.distanceLog.append((elapsed, truth.distance)) }
        let dz = scenario.elevation(at: s) - scenario.elevation(at: before)
        if dz > 0 { truth.elevationGain += dz }
        // Kilometres of running (a ride is not the runner's distance).
        let nextKm = Double(truth.kilometreTimes.count + 1) * 1000
        let ran = truth.distance
        if ran >= nextKm, ranBefore < nextKm, ran > ranBefore {
            truth.kilometreTimes.append(elapsed - dt + dt * (nextKm - ranBefore) / (ran - ranBefore))
        }
        if s >= stopAt - 1e-6 {
            v = 0
            if nextStop < scenario.stops.count {
                waiting = scenario.stops[nextStop].seconds
                nextStop += 1
                truth.stopCount += 1
            } else {
                arrived = true
                truth.arrivalElapsed = elapsed
            }
        }
    }

    private mutating func emitFix(at now: Double, elapsed: Double) {
        let interval = dt * Double(gpsEvery)
        let e = wanderEast.step(interval, generator: &rng)
        let n = wanderNorth.step(interval, generator: &rng)
        let hdop = max(0.6, scenario.gps.hdop + hdopWander.step(interval, generator: &rng))
        let altitudeError = altitudeWander.step(interval, generator: &rng)
        if elapsed >= 0, elapsed < speedLogSeconds {
            truth.speedLog.append((elapsed, v))
        }
        var spell: Int?
        if !spellStates.isEmpty {
            for index in spellStates.indices { spellStates[index].step(interval, generator: &conditions) }
            spell = scenario.gps.spells.firstIndex { $0.contains(elapsed: elapsed, distance: s) }
        }
        if scenario.signalGaps.contains(where: { elapsed >= $0.start && elapsed < $0.start + $0.seconds }) {
            if tick % Self.ticksPerSecond == 0 {
                let noFix = Fix(time: now, coordinate: Coordinate(latitude: 0, longitude: 0), mode: 1)
                queue.append(.input(.fix(noFix)))
            }
            return
        }
        let gps = scenario.gps
        if multipath == nil, Double.random(in: 0..<1, using: &rng) < gps.multipathPerHour * interval / 3600 {
            let size = Double.random(in: gps.multipathSize, using: &rng)
            let angle = Double.random(in: 0..<(2 * .pi), using: &rng)
            let seconds = Double.random(in: gps.multipathSeconds, using: &rng)
            multipath = (size * Foundation.sin(angle), size * Foundation.cos(angle), now + seconds)
        }
        var offset = (east: e + gps.whiteSigma * rng.gaussian(), north: n + gps.whiteSigma * rng.gaussian())
        if let jump = multipath {
            if now < jump.until {
                offset.east += jump.east
                offset.north += jump.north
            } else {
                multipath = nil
            }
        }
        var accuracy = (hdop * 19 * 10).rounded() / 10
        var speedSigma = gps.speedSigma
        if let spell {
            let sky = gps.spells[spell].sky
            let state = spellStates[spell]
            offset.east += state.east.value + sky.whiteSigma * conditions.gaussian()
            offset.north += state.north.value + sky.whiteSigma * conditions.gaussian()
            accuracy = (state.eph(in: sky.accuracy) * 10).rounded() / 10
            speedSigma = sky.speedSigma
        }
        if let cold = coldStart, let model = gps.coldStart {
            let first = firstFix ?? now
            if firstFix == nil {
                firstFix = now
                truth.coldStartEnd = elapsed + cold.seconds
            }
            let age = now - first
            if age < cold.seconds {
                let left = model.ending == .decays ? 1 - age / cold.seconds : 1
                offset.east += cold.east * left
                offset.north += cold.north * left
                let claimed = model.claimedAccuracy
                let eph = claimed.upperBound - (claimed.upperBound - claimed.lowerBound) * age / cold.seconds
                accuracy = (eph * 10).rounded() / 10
            }
        }
        if recordsFixErrors { truth.fixErrors.append((elapsed, offset.east, offset.north, accuracy)) }
        let place = course.locate(s)
        let coordinate = projection.coordinate(
            east: place.east + offset.east, north: place.north + offset.north)
        let draw = rng.gaussian()
        if scenario.gps.speedTau > 0 {
            let phi = Foundation.exp(-interval / scenario.gps.speedTau)
            speedNoise = phi * speedNoise + (1 - phi * phi).squareRoot() * draw
        } else {
            speedNoise = draw
        }
        let speed = max(0, v + speedSigma * speedNoise)
        let track =
            v > 0.5 ? (place.heading + 3 * rng.gaussian() + 360).truncatingRemainder(dividingBy: 360) : nil
        let altitude = scenario.barometer.courseAltitude + scenario.elevation(at: s) + altitudeError
        let fix = Fix(
            time: now, coordinate: coordinate, horizontalAccuracy: accuracy,
            speed: (speed * 1000).rounded() / 1000, track: track, altitude: altitude, mode: 3)
        queue.append(.input(.fix(fix)))
    }

    private mutating func emitPressure(at now: Double) {
        let baro = scenario.barometer
        let seaLevel: Double
        if baro.driftLegs.isEmpty {
            let hours = (now - scenario.startPress) / 3600
            seaLevel = baro.seaLevelPascals + baro.driftPascalsPerHour * hours
        } else {
            let delay = scenario.rotateTime - scenario.startPress
            seaLevel =
                baro.seaLevelPascals
                + baro.drift(atSecondsAfterStart: now - scenario.startPress, rotateDelay: delay)
        }
        let height = baro.courseAltitude + scenario.elevation(at: s)
        let pascals =
            BarometricFormula.pressure(altitude: height, reference: seaLevel) + baro.noisePascals
            * rng.gaussian()
        queue.append(.input(.pressure(PressureSample(time: now, pascals: pascals))))
    }

    private mutating func emitBody(at now: Double) {
        guard scenario.heartRate || scenario.cadence || scenario.footpod != nil else { return }
        // Riding: the heart rate of someone sitting, and a footpod counts no steps.
        let riding = scenario.rides.contains { $0.covers(s) }
        let v = riding ? 0.3 : self.v
        let hr: Double?
        if let model = scenario.heartRateModel {
            var state = heart ?? HeartRateModel.State(model: model, generator: &rng)
            hr = state.step(1, moving: v > 0.5, model: model, generator: &rng)
            heart = state
        } else {
            let target = 95 + 22 * v
            heartRate += (target - heartRate) / 20
            hr =
                scenario.heartRate && Double.random(in: 0..<1, using: &rng) > 0.02
                ? (heartRate + 1.5 * rng.gaussian()).rounded() : nil
        }
        let cadence: Double? =
            scenario.cadence && (v > 0.5 || riding)
            ? (riding ? 0 : (150 + 8 * v + 2 * rng.gaussian()).rounded()) : nil
        var podSpeed: Double?
        var podDistance: Double?
        if let pod = scenario.footpod {
            // The pod counts steps: riding, it counts none.
            let speed = max(0, (riding ? 0 : v) * footpodScale * (1 + pod.speedNoise * footpodRNG.gaussian()))
            footpodMetres += speed
            podSpeed = (speed * 256).rounded() / 256
            podDistance = (footpodMetres * 10).rounded(.down) / 10
        }
        guard hr != nil || cadence != nil || podSpeed != nil else { return }
        queue.append(
            .input(
                .body(
                    BodySample(
                        time: now, heartRate: hr, cadence: cadence, footpodSpeed: podSpeed,
                        footpodDistance: podDistance))))
    }
}
