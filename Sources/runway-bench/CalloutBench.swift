import Foundation
import RunWayCore
import RunWaySimulator

/// `runway-bench callouts`: how bearable the buzzer is. SINK RATE / OVERSPEED episodes an hour
/// for runners holding a steady pace near a band edge (20 seeds an offset), with this engine's
/// verdict and with the seed's rule (every pace reading judged, 3 s to hold); and how long after
/// the splits table's kilometre the SPLIT callout sounds.
struct CalloutBench {
    static let seeds: [UInt64] = Array(1...20)
    static let offsets: [Double] = [-3, -1, -0.2, 1, 3]

    /// The seed's rule in today's monitor: no average, no margins, no merging, no repeats.
    static var seedsRule: EngineConfiguration {
        var configuration = EngineConfiguration()
        configuration.paceAlerts.verdictSeconds = 1e-9
        configuration.paceAlerts.enterMargin = 0
        configuration.paceAlerts.exitMargin = 0
        configuration.paceAlerts.confirmSeconds = 3
        configuration.paceAlerts.mergeSeconds = 0
        configuration.paceAlerts.repeatSeconds = .infinity
        configuration.paceAlerts.clearMargin = .infinity
        configuration.paceAlerts.settleSeconds = 0
        configuration.paceAlerts.standingSpeed = 0.01
        return configuration
    }

    func run() {
        print("")
        print(
            "== Callouts: GPWS episodes an hour at a band edge (5:30 ±15 s/km, hilly course, \(Self.seeds.count) seeds) =="
        )
        print(
            "  offset from the edge (s/km; + outside)   "
                + Self.offsets.map { pad(format($0, 1), 8) }.joined())
        for (label, configuration) in [
            ("this engine", EngineConfiguration()), ("the seed's rule", Self.seedsRule),
        ] {
            for fastEdge in [false, true] {
                var cells = ""
                for offset in Self.offsets {
                    var episodes: [Double] = []
                    var callouts = 0
                    for seed in Self.seeds {
                        let run = SimulatedFlight.fly(
                            .bandEdge(offset: offset, fastEdge: fastEdge, seed: seed),
                            configuration: configuration)
                        guard let flight = run.flight else { continue }
                        episodes.append(Double(flight.alerts.count) * 3600 / flight.elapsed)
                        callouts +=
                            run.callouts.filter { $0.callout == .sinkRate || $0.callout == .overspeed }.count
                    }
                    let mean = episodes.reduce(0, +) / Double(max(episodes.count, 1))
                    cells += pad("\(format(mean, 1))/\(format(episodes.max() ?? 0, 0))", 8)
                }
                print("  \(pad(label + (fastEdge ? ", fast edge" : ", slow edge"), 41))\(cells)")
            }
        }
        print(
            "  (mean/worst episodes per hour; an episode is one SINK RATE or OVERSPEED, said again every 3 min)"
        )
        heartRate()
        splitDelay()
    }

    static let heartRateOffsets: [Double] = [-5, -2, -1, 0, 1]

    /// HR HIGH / HR LOW callouts an hour for runners holding a heart rate near the high edge of a
    /// 140–155 bpm band (the simulator's heart: 45 s lag, drift, noise), and how long a runner who
    /// goes 10 bpm over the edge (150 → 165 at 20 min) waits to hear HR HIGH.
    private func heartRate() {
        var cells = ""
        for offset in Self.heartRateOffsets {
            var perHour: [Double] = []
            for seed in Self.seeds {
                let run = SimulatedFlight.fly(.heartRateEdge(offset: offset, seed: seed))
                guard let flight = run.flight else { continue }
                let said = run.callouts.filter { $0.callout == .heartRateHigh || $0.callout == .heartRateLow }
                perHour.append(Double(said.count) * 3600 / flight.elapsed)
            }
            let mean = perHour.reduce(0, +) / Double(max(perHour.count, 1))
            cells += pad("\(format(mean, 1))/\(format(perHour.max() ?? 0, 0))", 8)
        }
        print(
            "  HR callouts an hour, 140–155 bpm band (bpm from the high edge)  "
                + Self.heartRateOffsets.map { pad(format($0, 0), 8) }.joined())
        print("  \(pad("this engine", 64))\(cells)")
        print(
            "  (mean/worst HR HIGH + HR LOW callouts per hour, repeats included, \(Self.seeds.count) seeds)")
        var delays: [Double] = []
        for seed in Self.seeds {
            let run = SimulatedFlight.fly(
                .heartRateEdge(offset: -5, minutes: 30, stepAt: 1200, stepTo: 165, seed: seed))
            guard let rotate = run.callouts.first(where: { $0.callout == .rotate })?.time,
                let high = run.callouts.first(where: {
                    $0.callout == .heartRateHigh && $0.time > rotate + 1200
                })
            else { continue }
            delays.append(high.time - rotate - 1200)
        }
        delays.sort()
        guard !delays.isEmpty else { return }
        print(
            "  HR HIGH after a step from 150 to 165 bpm (\(delays.count) of \(Self.seeds.count) seeds told): median "
                + "\(format(delays[delays.count / 2], 0)) s, worst \(format(delays.last!, 0)) s")
    }

    /// SPLIT callout time − the splits table's interpolated kilometre, over the accuracy scenarios.
    private func splitDelay() {
        var delays: [Double] = []
        for scenario in Scenario.accuracySuite {
            for seed in Self.seeds {
                var seeded = scenario
                seeded.seed = seed
                let run = SimulatedFlight.fly(seeded)
                guard let flight = run.flight else { continue }
                for case let (callout, split) in zip(
                    run.callouts.filter { if case .split = $0.callout { true } else { false } }, flight.splits
                )
                where split.distance >= 999 {
                    delays.append(callout.time - (flight.startTime + split.elapsedEnd))
                }
            }
        }
        delays.sort()
        guard !delays.isEmpty else { return }
        print(
            "  SPLIT callout after the table's kilometre (1 Hz GPS, \(delays.count) splits): median "
                + "\(format(delays[delays.count / 2], 2)) s, p90 \(format(delays[delays.count * 9 / 10], 2)) s, "
                + "worst \(format(delays.last!, 2)) s")
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
