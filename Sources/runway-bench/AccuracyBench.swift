import RunWayCore
import RunWayExport
import RunWaySimulator

/// `runway-bench accuracy [SEEDS]`: the saved (smoothed) flight against the live engine's on the
/// built-in accuracy scenarios: distance, the exported track's own length against the stated
/// distance, kilometre split times against the true kilometre, and moving time per stop.
struct AccuracyBench {
    var seeds = 20

    func run() {
        print("")
        print("== Accuracy: the saved (smoothed) flight and the live engine's, \(seeds) seeds ==")
        print(
            "  scenario             live dist %  saved dist %  track−saved %  split |s| med/worst  moving/stop s"
        )
        for base in Scenario.accuracySuite {
            var live: [Double] = []
            var saved: [Double] = []
            var track: [Double] = []
            var splits: [Double] = []
            var liveSplits: [Double] = []
            var moving: [Double] = []
            for seed in 1...seeds {
                let run = SimulatedFlight.fly(base.seeded(seed))
                guard let flight = run.savedFlight, let liveFlight = run.flight else { continue }
                let truth = run.truth.distance
                live.append((liveFlight.distance - truth) / truth * 100)
                saved.append((flight.distance - truth) / truth * 100)
                track.append(
                    abs(ExportActivity(flight: flight).trackLength - flight.distance) / flight.distance * 100)
                for (split, km) in zip(flight.splits.filter { $0.distance == 1000 }, run.truth.kilometreTimes)
                {
                    splits.append(abs(split.elapsedEnd - km))
                }
                for (split, km) in zip(
                    liveFlight.splits.filter { $0.distance == 1000 }, run.truth.kilometreTimes)
                {
                    liveSplits.append(abs(split.elapsedEnd - km))
                }
                if run.truth.stopCount > 0 {
                    moving.append(abs(flight.movingTime - run.truth.movingTime) / Double(run.truth.stopCount))
                }
            }
            func mw(_ v: [Double], _ places: Int = 2) -> String {
                let s = v.sorted()
                guard !s.isEmpty else { return "—" }
                return "\(format(s[s.count / 2], places))/\(format(s.last!, places))"
            }
            print(
                "  \(base.name.padding(toLength: 20, withPad: " ", startingAt: 0)) \(mw(live).padding(toLength: 12, withPad: " ", startingAt: 0)) "
                    + "\(mw(saved).padding(toLength: 13, withPad: " ", startingAt: 0)) \(mw(track).padding(toLength: 14, withPad: " ", startingAt: 0)) "
                    + "\(mw(splits).padding(toLength: 20, withPad: " ", startingAt: 0)) \(mw(moving))  live splits \(mw(liveSplits))"
            )
        }
        print("  (median/worst over seeds; split times over every full kilometre of every seed)")
    }
}
