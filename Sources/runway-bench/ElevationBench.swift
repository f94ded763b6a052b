import Foundation
import RunWayCore
import RunWaySimulator

/// `runway-bench elevation`: elevation gain and descent against the truth with the barometer and
/// with GPS altitude alone (a board without a BMP280), and the loop-closure error: a closed loop
/// should end where it began, at 0 m.
struct ElevationBench {
    static let seeds: [UInt64] = Array(1...20)

    func run() {
        print("")
        print(
            "== Elevation: gain error against the truth, \(Self.seeds.count) seeds (barometer vs GPS altitude alone) =="
        )
        for base in [Scenario.flat5k, Scenario.hilly10k, Scenario.demoMission] {
            for present in [true, false] {
                var errors: [Double] = []
                var closures: [Double] = []
                var truth = 0.0
                for seed in Self.seeds {
                    var scenario = base
                    scenario.seed = seed
                    scenario.barometer.present = present
                    let run = SimulatedFlight.fly(scenario)
                    guard let flight = run.flight else { continue }
                    truth = run.truth.elevationGain
                    errors.append(flight.elevationGain - truth)
                    if let last = flight.samples.last(where: { $0.altitude != nil })?.altitude {
                        closures.append(last)
                    }
                }
                let absolute = errors.map(abs).sorted()
                let relative = truth > 1 ? " (\(format(100 * mean(errors) / truth, 1)) %)" : ""
                print(
                    "  \(pad(base.name, 20)) \(present ? "barometer" : "GPS only ") truth \(pad(format(truth, 0) + " m", 6)) "
                        + "error mean \(format(mean(errors), 1)) m\(relative), median |e| \(format(absolute[absolute.count / 2], 1)) m, "
                        + "worst \(format(absolute.last ?? 0, 1)) m; ends at \(format(mean(closures), 1)) m "
                        + "(worst \(format(closures.map(abs).max() ?? 0, 1)) m)")
            }
        }
        print(
            "  (the courses are closed loops ending at their start's height: \"ends at\" is the loop-closure error)"
        )
    }

    private func mean(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
