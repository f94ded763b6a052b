import Foundation
import RunWayCore
import Testing

@testable import RunWaySimulator

/// A run's events and truth, with each fix's error and the true speed all along.
private func simulate(_ scenario: Scenario) -> (events: [SimulatedEvent], truth: GroundTruth) {
    var runner = ScenarioRunner(scenario)
    runner.recordsFixErrors = true
    runner.speedLogSeconds = 100_000
    var events: [SimulatedEvent] = []
    while let event = runner.next() { events.append(event) }
    return (events, runner.truth)
}

private func fixes(_ events: [SimulatedEvent]) -> [Fix] {
    events.compactMap { if case .input(.fix(let fix)) = $0 { fix } else { nil } }
}

private func radial(_ error: (elapsed: Double, east: Double, north: Double, accuracy: Double)) -> Double {
    (error.east * error.east + error.north * error.north).squareRoot()
}

@Suite("Simulator conditions (issue 26): each model does what its scenario claims")
struct ConditionModelTests {
    @Test(arguments: [Scenario.ColdStart.Ending.decays, .snaps])
    func coldStartFixesAreHundredsOfMetresOffThenNot(ending: Scenario.ColdStart.Ending) throws {
        for seed: UInt64 in 1...5 {
            var scenario = Scenario.flat5k.ending(at: 1500)
            scenario.seed = seed
            scenario.gps.coldStart = Scenario.ColdStart(ending: ending)
            let (events, truth) = simulate(scenario)
            let end = try #require(truth.coldStartEnd)
            let size = try #require(truth.coldStartOffset)
            #expect((200...500).contains(size))
            // 30–90 s from the first fix, which comes 13 s before ROTATE.
            #expect(end >= 30 - 13 && end <= 90 - 13)
            let errors = truth.fixErrors
            let during = errors.filter { $0.elapsed < end }
            let after = errors.filter { $0.elapsed >= end }
            #expect(during.count >= 29)
            // The first fix carries the whole offset (give or take open-sky wander and multipath).
            #expect(abs(radial(errors[0]) - size) < 50)
            if ending == .snaps {
                #expect(during.allSatisfy { radial($0) > size - 50 })
            } else {
                // Linear decay: half the offset half-way through.
                let middle = during[during.count / 2]
                #expect(abs(radial(middle) - size / 2) < size * 0.1 + 50)
            }
            // What eph claims meanwhile: tens of metres, never the hundreds it is off.
            #expect(during.allSatisfy { (20...45).contains($0.accuracy) })
            // Afterwards the open sky's few metres (multipath jumps reach 40 m plus wander).
            #expect(after.allSatisfy { radial($0) < 60 })
            #expect(after.map(radial).sorted()[after.count / 2] < 8)
            // The offset fixes agree with each other: one fix to the next moves with the runner
            // (≤ 3 m/s), plus the decay (≤ 500 m / 30 s), plus a few metres of noise.
            let positions = fixes(events)
            let largestStep: Double = ending == .snaps ? 3 + 12 : 3 + 17 + 12
            for (a, b) in zip(positions, positions.dropFirst()) where b.time - scenario.rotateTime < end {
                let step = Geodesy.distance(a.coordinate, b.coordinate)
                #expect(step < largestStep, "step \(step) m")
            }
            // Doppler stays true: the carrier does not know the position is wrong.
            for fix in positions
            where fix.time - scenario.rotateTime > 5 && fix.time - scenario.rotateTime < end {
                #expect(abs((fix.speed ?? 0) - 3) < 0.5)
            }
        }
    }

    @Test func treeCoverClaimsThirtyToSixtyMetresWhileTheRealErrorIsAboutSix() {
        let (events, truth) = simulate(Scenario.treeCover.ending(at: 2500))
        let errors = truth.fixErrors
        #expect(errors.allSatisfy { (30...60).contains($0.accuracy) })
        // Both ends of the range are used, not one value.
        #expect(errors.map(\.accuracy).max()! - errors.map(\.accuracy).min()! > 10)
        let sorted = errors.map(radial).sorted()
        let median = sorted[sorted.count / 2]
        #expect(median > 4 && median < 9, "median error \(median) m")
        // Doppler is noisier than open sky's 0.1 m/s while running.
        let running = fixes(events).filter { fix in
            truth.speed(atElapsed: fix.time - truth.rotateTime).map { abs($0 - 3) < 1e-9 } ?? false
        }
        let deviations = running.map { ($0.speed ?? 0) - 3 }
        let sigma = (deviations.map { $0 * $0 }.reduce(0, +) / Double(deviations.count)).squareRoot()
        #expect(sigma > 0.25 && sigma < 0.35, "Doppler σ \(sigma)")
    }

    /// A receiver smoothing its velocity (`GPSModel.speedTau` 5 s): the same σ 0.1 m/s, but each
    /// reading carries e^(−1/5) = 0.82 of the one before; white noise (τ 0) carries nothing.
    @Test func smoothedDopplerCarriesItsErrorFromReadingToReading() {
        func errors(_ scenario: Scenario) -> [Double] {
            let (events, truth) = simulate(scenario)
            return fixes(events).filter { fix in
                truth.speed(atElapsed: fix.time - truth.rotateTime).map { abs($0 - 3) < 1e-9 } ?? false
            }.map { ($0.speed ?? 0) - 3 }
        }
        func sigmaAndCarry(_ e: [Double]) -> (Double, Double) {
            let variance = e.map { $0 * $0 }.reduce(0, +) / Double(e.count)
            let lagged = zip(e, e.dropFirst()).map { $0 * $1 }.reduce(0, +) / Double(e.count - 1)
            return (variance.squareRoot(), lagged / variance)
        }
        let (sigma, carry) = sigmaAndCarry(errors(.smoothedDoppler))
        #expect(sigma > 0.08 && sigma < 0.12, "Doppler σ \(sigma)")
        #expect(carry > 0.75 && carry < 0.88, "lag-1 correlation \(carry)")
        let (_, white) = sigmaAndCarry(errors(.openSky))
        #expect(abs(white) < 0.1, "open sky's lag-1 correlation \(white)")
    }

    @Test func urbanWanderKeepsMovingWhileTheRunnerStandsAndDopplerReadsAboutZero() {
        let (events, truth) = simulate(Scenario.urbanStops)
        #expect(truth.stopCount == 4)
        let standing = zip(fixes(events), truth.fixErrors).filter { fix, _ in
            let elapsed = fix.time - truth.rotateTime
            return elapsed > 0 && truth.speed(atElapsed: elapsed) == 0 && elapsed < truth.arrivalElapsed
        }
        #expect(standing.count > 140)  // 20 + 45 + 60 + 30 s of standing
        // The spell's wander is in force at the stops: eph in the canyon's range.
        #expect(standing.allSatisfy { (25...45).contains($0.0.horizontalAccuracy ?? 0) })
        // The fix moves: over the stops, the median second-to-second step is tenths of a metre to
        // metres and the farthest point from the first of a stop is metres away.
        var farthest = 0.0
        var first: Fix?
        var previous: Fix?
        for (fix, _) in standing {
            if let last = previous, fix.time - last.time > 1.5 { first = nil }
            first = first ?? fix
            farthest = max(farthest, Geodesy.distance(first!.coordinate, fix.coordinate))
            previous = fix
        }
        #expect(farthest > 5, "farthest \(farthest) m")
        let speeds = standing.map { $0.0.speed ?? -1 }
        #expect(speeds.allSatisfy { $0 >= 0 && $0 < 0.5 })
        #expect(speeds.reduce(0, +) / Double(speeds.count) < 0.1)
    }

    @Test func aSpellByElapsedTimeHoldsOnlyInItsSpan() {
        var scenario = Scenario.flat5k.ending(at: 1000)
        scenario.gps.spells = [Scenario.Spell(.elapsed(100...160), sky: .treeCover)]
        let (_, truth) = simulate(scenario)
        for error in truth.fixErrors {
            if (100...160).contains(error.elapsed) {
                #expect((30...60).contains(error.accuracy))
            } else {
                #expect(error.accuracy < 30)
            }
        }
    }

    @Test func anOutageEmitsNoPositionOnlyNoFixReportsOnceASecond() {
        for scenario in [Scenario.cityOutages, .straightOutages, .stopInOutage] {
            let (events, truth) = simulate(scenario)
            let reports = fixes(events)
            for gap in scenario.signalGaps {
                let inside = reports.filter {
                    let elapsed = $0.time - truth.rotateTime
                    return elapsed >= gap.start && elapsed < gap.start + gap.seconds
                }
                #expect(!inside.isEmpty)
                #expect(inside.allSatisfy { $0.mode == 1 && !$0.hasPosition })
                #expect(abs(Double(inside.count) - gap.seconds) <= 1)
            }
        }
    }

    @Test func cityOutagesFallOnCornersAndStraightOnesDoNot() throws {
        func turning(_ scenario: Scenario) throws -> [Double] {
            let course = Course(scenario.course)
            let (_, truth) = simulate(scenario)
            return try scenario.signalGaps.map { gap in
                let from = try #require(truth.distance(atElapsed: gap.start))
                let to = try #require(truth.distance(atElapsed: gap.start + gap.seconds))
                var turned = 0.0
                var heading = course.locate(from).heading
                for s in stride(from: from, through: to, by: 1) {
                    let next = course.locate(s).heading
                    turned += abs((next - heading + 540).truncatingRemainder(dividingBy: 360) - 180)
                    heading = next
                }
                return turned
            }
        }
        let city = try turning(.cityOutages)
        #expect(city.count == 4)
        #expect(city.allSatisfy { $0 >= 89 }, "\(city)")
        #expect(city.contains { $0 >= 179 })
        let straight = try turning(.straightOutages)
        #expect(straight.count == 3)
        #expect(straight.allSatisfy { $0 < 1 }, "\(straight)")
    }

    @Test func theStopsOfStopInOutageFallInsideTheirOutages() {
        let scenario = Scenario.stopInOutage
        let (_, truth) = simulate(scenario)
        for (gap, stop) in zip(scenario.signalGaps, scenario.stops) {
            // Running at both ends, standing for the whole stop within.
            #expect(truth.speed(atElapsed: gap.start + 1)! > 2.5)
            #expect(truth.speed(atElapsed: gap.start + gap.seconds - 1)! > 2.5)
            let standing = stride(from: gap.start, to: gap.start + gap.seconds, by: 0.5).filter {
                truth.speed(atElapsed: $0) == 0
            }
            #expect(abs(Double(standing.count) / 2 - stop.seconds) < 2)
        }
    }

    @Test func steadyElapsedMatchesTheRunner() throws {
        let scenario = Scenario.stopInOutage
        let (_, truth) = simulate(scenario)
        for distance in [100.0, 1000, 1499, 1501, 2500, 3600, 4900] {
            let predicted = Scenario.steadyElapsed(at: distance, speed: 3, stops: scenario.stops)
            let actual = try #require(truth.elapsed(atDistance: distance))
            #expect(abs(predicted - actual) < 1.5, "at \(distance) m: \(predicted) vs \(actual)")
        }
    }

    @Test func driftLegsChangeThePressureTrend() {
        var scenario = Scenario.rollingWeather
        scenario.hills = []  // flat: the pressure moves with the weather alone
        let (events, truth) = simulate(scenario)
        let pressures = events.compactMap { event -> (Double, Double)? in
            guard case .input(.pressure(let sample)) = event else { return nil }
            return (sample.time - truth.rotateTime, sample.pascals)
        }
        /// Pa per hour between the means of a minute at each end of `from`…`to` (elapsed s).
        func trend(_ from: Double, _ to: Double) -> Double {
            func mean(_ t: Double) -> Double {
                let window = pressures.filter { $0.0 >= t && $0.0 < t + 60 }.map(\.1)
                return window.reduce(0, +) / Double(window.count)
            }
            return (mean(to - 60) - mean(from)) / (to - from - 60) * 3600
        }
        #expect(abs(trend(60, 840) - -150) < 10)
        #expect(abs(trend(960, 1740) - 100) < 10)
        #expect(abs(trend(1860, 2300) - -60) < 15)
        // Continuous across a change: no step in the pressure at 900 s.
        let model = scenario.barometer
        let before = model.drift(atSecondsAfterStart: 902.999, rotateDelay: 3)
        let after = model.drift(atSecondsAfterStart: 903.001, rotateDelay: 3)
        #expect(abs(after - before) < 0.01)
        let firstLeg: Double = -150 * 903 / 3600
        let secondLeg: Double = 100 * 900 / 3600
        #expect(abs(model.drift(atSecondsAfterStart: 903, rotateDelay: 3) - firstLeg) < 1e-9)
        #expect(abs(model.drift(atSecondsAfterStart: 1803, rotateDelay: 3) - (firstLeg + secondLeg)) < 1e-9)
        // No legs: the one rate, exactly as before.
        var plain = Scenario.BarometerModel()
        plain.driftPascalsPerHour = -100
        #expect(plain.drift(atSecondsAfterStart: 3600, rotateDelay: 3) == -100)
    }

    @Test func cityBlocksAreAClosedZigZagOfRightAngles() {
        let points = Scenario.cityBlocks
        let course = Course(points)
        #expect(abs(course.length - 22 * 125) < 1e-9)
        var headings: [Double] = []
        for index in points.indices {
            let a = points[index]
            let b = points[(index + 1) % points.count]
            headings.append(atan2(b.east - a.east, b.north - a.north) * 180 / .pi)
        }
        for (a, b) in zip(headings, headings.dropFirst() + [headings[0]]) {
            let turn = abs((b - a + 540).truncatingRemainder(dividingBy: 360) - 180)
            #expect(abs(turn - 90) < 1e-9)
        }
        // Every leg a whole number of blocks, none crossing another (a block apart).
        let legs = course.cumulative.indices.dropFirst().map {
            course.cumulative[$0] - course.cumulative[$0 - 1]
        }
        #expect(legs.allSatisfy { abs($0 - 125) < 1e-9 || abs($0 - 250) < 1e-9 })
    }

    @Test func everyConditionScenarioFlies() {
        let names = Scenario.conditionSuite.map(\.name)
        #expect(Set(names).count == names.count)
        for scenario in Scenario.conditionSuite {
            let (_, truth) = simulate(scenario)
            #expect(abs(truth.distance - scenario.totalDistance) < 0.01, "\(scenario.name)")
            #expect(truth.stopCount == scenario.stops.count)
        }
        // The rolling scenario's gain is its hills' heights.
        let (_, rolling) = simulate(.rollingWeather)
        #expect(abs(rolling.elevationGain - 118) < 0.01)
    }

    /// The hostile pass's outages (`runway-bench conditions --short-outages N`): as many as
    /// asked, 3–15 s each, after the first minute and inside the run, in time order, the same for
    /// the same seed and different for another; none asked, the run as it was.
    @Test func shortOutagesAreDrawnFromTheRunsOwnSeed() {
        let base = Scenario.openSky.seeded(3)
        let hostile = base.withShortOutages(15)
        #expect(hostile.signalGaps.count == base.signalGaps.count + 15)
        #expect(hostile.signalGaps.allSatisfy { (3...15).contains($0.seconds) && $0.start >= 60 })
        #expect(hostile.signalGaps.allSatisfy { $0.start < base.totalDistance / 3 })
        #expect(zip(hostile.signalGaps, hostile.signalGaps.dropFirst()).allSatisfy { $0.start <= $1.start })
        let starts = hostile.signalGaps.map(\.start)
        #expect(base.withShortOutages(15).signalGaps.map(\.start) == starts)
        #expect(Scenario.openSky.seeded(4).withShortOutages(15).signalGaps.map(\.start) != starts)
        #expect(base.withShortOutages(0).signalGaps.isEmpty)
    }

    /// The hostile pass's receiver (`runway-bench conditions --varied-receiver`): each of its
    /// wander, wander τ, white noise and Doppler σ between half and twice the scenario's, the
    /// spells scaled by the same factors, the same for the same seed and another for another;
    /// the runner's course, stops and outages as they were.
    @Test func aVariedReceiverIsDrawnFromTheRunsOwnSeed() {
        let base = Scenario.urbanStops.seeded(5)
        let varied = base.withVariedReceiver()
        let ratios = [
            varied.gps.wanderSigma / base.gps.wanderSigma, varied.gps.wanderTau / base.gps.wanderTau,
            varied.gps.whiteSigma / base.gps.whiteSigma, varied.gps.speedSigma / base.gps.speedSigma,
        ]
        #expect(ratios.allSatisfy { (0.5...2).contains($0) })
        #expect(Set(ratios).count == 4)
        for (spell, original) in zip(varied.gps.spells, base.gps.spells) {
            #expect(abs(spell.sky.wanderSigma / original.sky.wanderSigma - ratios[0]) < 1e-9)
            #expect(abs(spell.sky.speedSigma / original.sky.speedSigma - ratios[3]) < 1e-9)
        }
        #expect(varied.stops.map(\.at) == base.stops.map(\.at))
        #expect(varied.signalGaps.count == base.signalGaps.count)
        #expect(base.withVariedReceiver().gps.wanderSigma == varied.gps.wanderSigma)
        #expect(Scenario.urbanStops.seeded(6).withVariedReceiver().gps.wanderSigma != varied.gps.wanderSigma)
    }
}
