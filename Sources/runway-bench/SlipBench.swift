import Foundation
import RunWayCore
import RunWaySimulator
import Synchronization

/// `runway-bench slips` (issue 27): the runner's slips flown over seeds — how long a PAUSE bump
/// goes unnoticed, how much of a drive is counted, how long after the last movement a forgotten
/// flight lands, and that a sprint finish still counts. Median and worst over `seeds`.
struct SlipBench {
    var seeds = 20

    struct Figures: Sendable {
        var values: [String: Double] = [:]
    }

    func run() {
        print("\n== Slips (issue 27): median / worst over \(seeds) seeds ==")
        let clock = ContinuousClock()
        let started = clock.now
        var autoResume = EngineConfiguration()
        autoResume.slips.autoResumeAfter = 30
        report(
            Scenario.pauseBump, configuration: EngineConfiguration(),
            [
                ("unnoticed s (bump → first STILL PAUSED)", "unnoticed"), ("reminders", "reminders"),
            ])
        report(
            Scenario.pauseBump, label: "PAUSE bumped, auto-resume 30 s", configuration: autoResume,
            [
                ("distance error %", "distance"), ("moving time error s", "moving"),
            ])
        for scenario in [Scenario.runDrivePark, .busRide] {
            report(
                scenario, configuration: EngineConfiguration(),
                [
                    ("of the ride counted %", "ride"), ("distance error %", "distance"),
                    ("moving time error s", "moving"), ("vehicle pauses", "vehicle"),
                ])
        }
        report(
            Scenario.forgottenStop, configuration: EngineConfiguration(),
            [
                ("landed after the last movement, min", "landedAfter"),
                ("end vs last movement s", "endError"),
                ("distance error %", "distance"),
            ])
        report(
            Scenario.sprintFinish, configuration: EngineConfiguration(),
            [
                ("distance error %", "distance"), ("vehicle pauses", "vehicle"),
            ])
        print("  \(5 * seeds + seeds) flights in \(String(format: "%.1f", seconds(clock.now - started))) s")
    }

    func report(
        _ base: Scenario, label: String? = nil, configuration: EngineConfiguration,
        _ columns: [(String, String)]
    ) {
        let results = Mutex<[Int: Figures]>([:])
        let count = seeds
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let scenario = base.seeded(index + 1)
            let figures = Self.measure(SimulatedFlight.fly(scenario, configuration: configuration), scenario)
            results.withLock { $0[index] = figures }
        }
        let all = results.withLock { all in (0..<count).compactMap { all[$0] } }
        print("  \(label ?? base.name)")
        for (title, key) in columns {
            let values = all.compactMap { $0.values[key] }.map(abs).sorted()
            guard let worst = values.last else {
                print("    \(title.padding(toLength: 44, withPad: " ", startingAt: 0)) —")
                continue
            }
            let median = values[values.count / 2]
            print(
                "    \(title.padding(toLength: 44, withPad: " ", startingAt: 0)) \(String(format: "%.2f", median)) / \(String(format: "%.2f", worst))"
            )
        }
    }

    static func measure(_ run: SimulatedFlight, _ scenario: Scenario) -> Figures {
        var figures = Figures()
        let truth = run.truth
        guard let flight = run.flight else { return figures }
        let rotate = scenario.rotateTime
        figures.values["distance"] = (flight.distance - truth.distance) / truth.distance * 100
        figures.values["moving"] = flight.movingTime - truth.movingTime
        figures.values["vehicle"] = Double(flight.pauses.filter { $0.reason == .vehicle }.count)
        if truth.ridden > 0 {
            figures.values["ride"] = (flight.distance - truth.distance) / truth.ridden * 100
        }
        if let bump = scenario.presses.first {
            let reminders = run.callouts.filter { $0.callout == .stillPaused }
            figures.values["reminders"] = Double(reminders.count)
            if let first = reminders.first {
                figures.values["unnoticed"] = first.time - rotate - bump.elapsed
            }
        }
        if let landing = run.callouts.first(where: {
            if case .standstill(_, true) = $0.callout { true } else { false }
        }) {
            figures.values["landedAfter"] = (landing.time - rotate - truth.arrivalElapsed) / 60
            figures.values["endError"] = flight.elapsed - truth.arrivalElapsed
        }
        return figures
    }
}
