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
                var scenario = base
                scenario.seed = UInt64(seed) &* 7919 &+ base.seed
                let run = SimulatedFlight.fly(scenario)
                guard let flight = run.savedFlight, let liveFlight = run.liveFlight else { continue }
                let truth = run.truth.distance
                live.append((liveFlight.distance - truth) / truth * 100)
                saved.append((flight.distance - truth) / truth * 100)
                track.append(abs(Self.trackLength(flight) - flight.distance) / flight.distance * 100)
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

    /// The exported track's own length: great-circle steps within each of its segments, as a
    /// service measuring the GPX adds them up.
    static func trackLength(_ flight: Flight) -> Double {
        ExportActivity(flight: flight).segments.reduce(0) { total, segment in
            total
                + zip(segment, segment.dropFirst()).reduce(0) {
                    $0 + Geodesy.distance($1.0.coordinate, $1.1.coordinate)
                }
        }
    }
}

/// `runway-bench accuracy-trace NAME SEED`: one flight's saved and live distance error along the run.
struct AccuracyTrace {
    func run(_ name: String, _ seed: UInt64) {
        guard var scenario = Scenario.named.first(where: { $0.name == name })?.scenario else { return }
        scenario.seed = seed &* 7919 &+ scenario.seed
        let run = SimulatedFlight.fly(scenario)
        guard let flight = run.savedFlight, let live = run.liveFlight else { return }
        for (s, l) in zip(flight.samples, live.samples) where Int(s.elapsed) % 100 == 0 {
            let truth = run.truth.distance(atElapsed: s.elapsed) ?? .nan
            print(
                "  \(format(s.elapsed, 0)) s truth \(format(truth, 1)) saved \(format(s.distance - truth, 1)) live \(format(l.distance - truth, 1))"
            )
        }
    }
}
