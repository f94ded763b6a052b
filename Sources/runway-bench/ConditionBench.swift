import Foundation
import RunWayCore
import RunWayExport
import RunWaySimulator
import Synchronization

/// `runway-bench conditions`: the engine's distance, live distance, moving time, splits, gain and
/// exported track against the truth in each of issue 26's hard conditions
/// (`Scenario.conditionSuite`), median and worst over seeds. It reads only what every flight
/// gives — `run.savedFlight` (the touchdown smoother's flight), `run.truth`, `run.distanceLog` (the live distance)
/// and `run.scenario` — so it keeps measuring whatever the engine does to produce them.
struct ConditionBench {
    var seeds = 20
    /// Only the conditions whose name contains this (case-insensitive).
    var only: String?
    var json = false
    /// Each seed's own line: its distance error and, at each true kilometre, the live distance's
    /// error (m) and the saved split's (s), for finding where a worst figure comes from.
    var detail = false
    /// A hostile pass: this many more outages of 3–15 s at random moments of each run
    /// (`Scenario.withShortOutages`), on stops, cold starts and other outages alike.
    var shortOutages = 0
    /// A hostile pass: each run from a receiver of its own (`Scenario.withVariedReceiver`).
    var variedReceiver = false
    /// Every condition flown at 1 Hz flown at this rate instead (fixes a second); nil: as each is.
    var rate: Double?

    static let usage =
        "usage: runway-bench conditions [--seeds N] [--only NAME] [--short-outages N] [--varied-receiver] [--rate HZ] [--json] [--detail]"

    /// Parses the section's own arguments; nil (after saying why on standard error) when they do
    /// not make sense.
    init?(arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": json = true
            case "--detail": detail = true
            case "--varied-receiver": variedReceiver = true
            case "--rate":
                guard let text = rest.popFirst(), let hertz = Double(text), (0.5...20).contains(hertz) else {
                    Self.complain("--rate takes fixes a second from 0.5 to 20")
                    return nil
                }
                rate = hertz
            case "--seeds":
                guard let text = rest.popFirst(), let count = Int(text), (1...1000).contains(count) else {
                    Self.complain("--seeds takes a count from 1 to 1000")
                    return nil
                }
                seeds = count
            case "--short-outages":
                guard let text = rest.popFirst(), let count = Int(text), (0...100).contains(count) else {
                    Self.complain("--short-outages takes a count from 0 to 100")
                    return nil
                }
                shortOutages = count
            case "--only":
                guard let name = rest.popFirst(), !name.isEmpty else {
                    Self.complain("--only takes a part of a condition's name")
                    return nil
                }
                only = name
            default:
                Self.complain("unknown argument \"\(argument)\"")
                return nil
            }
        }
    }

    init() {}

    private static func complain(_ text: String) {
        FileHandle.standardError.write(Data("runway-bench conditions: \(text)\n\(usage)\n".utf8))
    }

    /// One flown run's figures; nil where the figure does not apply.
    struct RunFigures: Sendable {
        /// (saved − true) / true distance, %.
        var distance: Double
        /// The worst |live − true| at the true kilometres, % of each kilometre mark, and in metres.
        var live: Double?
        var liveMetres: Double?
        /// |engine − true| moving time, s, and that per stop (nil without stops).
        var moving: Double
        var movingPerStop: Double?
        /// Engine − true moving time, s (signed: negative is a stop booked too long).
        var movingSigned = 0.0
        /// Each full split's end against the true kilometre time (s, signed), and how many
        /// kilometres the runner truly passed (a split the engine never closed is missing).
        var splits: [Double]
        /// Each full split's duration against the true kilometre's (s, signed): what a watch shows
        /// as the split time. It is the difference of two consecutive end errors, so the speeds'
        /// random walk counts over one kilometre, not from the start.
        var splitDurations: [Double] = []
        /// Live − true distance (m) at each true kilometre.
        var liveAtMarks: [Double] = []
        var kilometres: Int
        /// Gain error % where the terrain climbs; the gain itself (m) where it does not.
        var gainPercent: Double?
        var flatGain: Double?
        var trueGain: Double
        /// The exported track (steps within the GPX segments) against the stated distance, %.
        var track: Double?
        var saved: Bool
        var stops: Int
    }

    func run() {
        let suite = Scenario.conditionSuite.filter { scenario in
            only.map { scenario.name.localizedCaseInsensitiveContains($0) } ?? true
        }
        guard !suite.isEmpty else {
            Self.complain("no condition's name contains \"\(only ?? "")\"")
            exit(2)
        }
        let clock = ContinuousClock()
        let started = clock.now
        if !json { printHeader() }
        var rows: [(Scenario, [RunFigures])] = []
        for base in suite {
            let figures = fly(base)
            rows.append((base, figures))
            if !json { printRow(base, figures) }
            if detail { printDetail(base, figures) }
        }
        let took = seconds(clock.now - started)
        if json {
            printJSON(rows, seconds: took)
        } else {
            printLegend(took, runs: rows.count * seeds)
        }
    }

    /// `seeds` flights of `base`, each seed as the accuracy section makes it; two at a time on
    /// this board's cores (each flight on its own thread with its own engine).
    func fly(_ base: Scenario) -> [RunFigures] {
        let results = Mutex<[Int: RunFigures]>([:])
        let count = seeds
        let outages = shortOutages
        let varied = variedReceiver
        let rate = self.rate
        DispatchQueue.concurrentPerform(iterations: count) { index in
            var scenario = base.seeded(index + 1).withShortOutages(outages)
            if varied { scenario = scenario.withVariedReceiver() }
            if let rate, scenario.gps.rate == 1 { scenario.gps.rate = rate }
            let flown = SimulatedFlight.fly(scenario)
            let figures = Self.measure(flown)
            results.withLock { $0[index] = figures }
        }
        return results.withLock { all in (0..<count).compactMap { all[$0] } }
    }

    static func measure(_ run: SimulatedFlight) -> RunFigures {
        let truth = run.truth
        // The flight as the touchdown smoother saves it (the live one where it could not run).
        let flight = run.savedFlight ?? run.flight
        let distance = flight?.distance ?? 0
        var live: Double?
        var liveMetres: Double?
        var liveAtMarks: [Double] = []
        for (index, time) in truth.kilometreTimes.enumerated() {
            let mark = Double(index + 1) * 1000
            // The live distance is a step function: the last value shown at or before the moment.
            let shown = lastEntry(run.distanceLog, atOrBefore: time)?.distance ?? 0
            liveAtMarks.append(shown - mark)
            let metres = abs(shown - mark)
            liveMetres = max(liveMetres ?? 0, metres)
            live = max(live ?? 0, metres / mark * 100)
        }
        let moving = abs((flight?.movingTime ?? 0) - truth.movingTime)
        var splits: [Double] = []
        var splitDurations: [Double] = []
        var previous: (order: Int, error: Double)? = (0, 0)
        for split in flight?.splits ?? [] where abs(split.distance - 1000) < 1e-6 {
            let index = split.order - 1
            guard truth.kilometreTimes.indices.contains(index) else { continue }
            let error = split.elapsedEnd - truth.kilometreTimes[index]
            splits.append(error)
            if let previous, previous.order == split.order - 1 {
                splitDurations.append(error - previous.error)
            }
            previous = (split.order, error)
        }
        let gain = flight?.elevationGain ?? 0
        let climbs = truth.elevationGain > 1
        var figures = RunFigures(
            distance: truth.distance > 0 ? (distance - truth.distance) / truth.distance * 100 : 0,
            live: live, liveMetres: liveMetres, moving: moving,
            movingPerStop: truth.stopCount > 0 ? moving / Double(truth.stopCount) : nil, splits: splits,
            kilometres: truth.kilometreTimes.count,
            gainPercent: climbs ? (gain - truth.elevationGain) / truth.elevationGain * 100 : nil,
            flatGain: climbs ? nil : gain, trueGain: truth.elevationGain,
            track: flight.flatMap(trackError), saved: flight != nil, stops: truth.stopCount)
        figures.liveAtMarks = liveAtMarks
        figures.movingSigned = (flight?.movingTime ?? 0) - truth.movingTime
        figures.splitDurations = splitDurations
        return figures
    }

    /// `--detail`: one line per seed (standard error, so `--json` stays one object).
    func printDetail(_ base: Scenario, _ figures: [RunFigures]) {
        for (index, run) in figures.enumerated() {
            let live = run.liveAtMarks.map { format($0, 1) }.joined(separator: " ")
            let splits = run.splits.map { format($0, 1) }.joined(separator: " ")
            FileHandle.standardError.write(
                Data(
                    "  \(base.name) seed \(index + 1): distance \(format(run.distance, 3)) %, moving \(format(run.movingSigned, 1)) s, live m [\(live)], split s [\(splits)]\n"
                        .utf8))
        }
    }

    /// The last entry of a log sorted by elapsed time at or before `time` (binary search).
    static func lastEntry(
        _ log: [(elapsed: Double, distance: Double)], atOrBefore time: Double
    ) -> (elapsed: Double, distance: Double)? {
        var low = 0
        var high = log.count
        while low < high {
            let mid = (low + high) / 2
            if log[mid].elapsed <= time { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? log[low - 1] : nil
    }

    /// What a service measuring the GPX would make of the flight: great-circle steps summed
    /// within each track segment (the exporter splits the track at pauses), against the distance
    /// the flight states, in %.
    static func trackError(_ flight: Flight) -> Double? {
        guard flight.distance > 0 else { return nil }
        return (ExportActivity(flight: flight).trackLength - flight.distance) / flight.distance * 100
    }

    // MARK: - Summaries

    /// Median (the upper one, as the accuracy section takes it) and worst of absolute values.
    struct Summary {
        var median: Double
        var worst: Double
        var count: Int

        init?(_ values: [Double]) {
            guard !values.isEmpty else { return nil }
            let sorted = values.map(abs).sorted()
            median = sorted[sorted.count / 2]
            worst = sorted[sorted.count - 1]
            count = values.count
        }
    }

    /// Each column: its header, its goal (median, worst), the figure per run, its places.
    struct Column: Sendable {
        var title: String
        var goal: String
        var places: Int
        var values: @Sendable ([RunFigures]) -> [Double]
        var meets: (median: @Sendable (Double) -> Bool, worst: @Sendable (Double) -> Bool)
    }

    static let columns: [Column] = [
        Column(
            title: "distance %", goal: "≤0.15 / ≤0.5", places: 2, values: { $0.map(\.distance) },
            meets: ({ $0 <= 0.15 }, { $0 <= 0.5 })),
        Column(
            title: "live %", goal: "≤1 / ≤1", places: 2, values: { $0.compactMap(\.live) },
            meets: ({ $0 <= 1 }, { $0 <= 1 })),
        Column(
            title: "moving s/stop", goal: "≤2 / ≤2", places: 1,
            values: { runs in runs.compactMap { $0.stops > 0 ? $0.movingPerStop : $0.moving } },
            meets: ({ $0 <= 2 }, { $0 <= 2 })),
        Column(
            title: "split s", goal: "≤1 / ≤3", places: 1, values: { $0.flatMap(\.splits) },
            meets: ({ $0 <= 1 }, { $0 <= 3 })),
        Column(
            title: "split Δ s", goal: "≤1 / ≤3", places: 1, values: { $0.flatMap(\.splitDurations) },
            meets: ({ $0 <= 1 }, { $0 <= 3 })),
        Column(
            title: "gain", goal: "±3 % · 0 m flat", places: 1,
            values: { runs in runs.compactMap { $0.gainPercent ?? $0.flatGain } },
            meets: ({ $0 <= 3 }, { $0 <= 3 })),
        Column(
            title: "track vs stated %", goal: "≤0.5 / ≤0.5", places: 2, values: { $0.compactMap(\.track) },
            meets: ({ $0 <= 0.5 }, { $0 <= 0.5 })),
    ]

    private static let nameWidth = 28
    private static let cellWidth = 18

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private func printHeader() {
        print("")
        print("== Conditions (issue 26): each figure median / worst over \(seeds) seeds (absolute values) ==")
        let titles = Self.columns.map { pad($0.title, Self.cellWidth) }.joined()
        let goals = Self.columns.map { pad($0.goal, Self.cellWidth) }.joined()
        print("  \(pad("condition", Self.nameWidth))\(titles)")
        print("  \(pad("goal", Self.nameWidth))\(goals)")
    }

    /// One condition: each cell median / worst, a `*` after a value that misses its goal.
    private func printRow(_ scenario: Scenario, _ runs: [RunFigures]) {
        var cells: [String] = []
        for column in Self.columns {
            guard let summary = Summary(column.values(runs)) else {
                cells.append(pad("—", Self.cellWidth))
                continue
            }
            var median = column.meets.median
            var worst = column.meets.worst
            var unit = ""
            if column.title == "gain" {
                let flat = runs.allSatisfy { $0.flatGain != nil }
                unit = flat ? " m" : " %"
                // Flat: 0 m is the goal, and a gain that prints as 0.0 m meets it.
                if flat { (median, worst) = ({ $0 < 0.05 }, { $0 < 0.05 }) }
            }
            if column.title == "moving s/stop", runs.allSatisfy({ $0.stops == 0 }) { unit = " tot" }
            let text =
                format(summary.median, column.places) + (median(summary.median) ? "" : "*") + " / "
                + format(summary.worst, column.places) + (worst(summary.worst) ? "" : "*") + unit
            cells.append(pad(text, Self.cellWidth))
        }
        let lost = runs.filter { !$0.saved }.count
        let note = lost > 0 ? "  (\(lost) not saved)" : ""
        print("  \(pad(scenario.name, Self.nameWidth))\(cells.joined())\(note)")
    }

    private func printLegend(_ took: Double, runs: Int) {
        print("")
        print("  * misses its goal. distance: the saved flight's. live: the distance the runner saw at")
        print("  each true kilometre, worst per run, as % of that kilometre mark. moving: |error| per stop;")
        print(
            "  \"tot\": a run without stops, its whole error, judged by the same 2 s. split: each full split's"
        )
        print(
            "  end against the true kilometre time, median and worst over every split of every seed. split Δ:"
        )
        print(
            "  each full split's duration against the true kilometre's (the split time a watch shows). gain:")
        print("  % of the true climb, or metres on flat ground (goal 0: 0.0 m as printed). track vs stated:")
        print("  the GPX track's length (steps within its segments) against the stated distance.")
        print("  \(runs) flights in \(format(took, 1)) s.")
    }

    // MARK: - JSON

    private func printJSON(_ rows: [(Scenario, [RunFigures])], seconds took: Double) {
        func rounded(_ value: Double) -> Any {
            value.isFinite ? (value * 10_000).rounded() / 10_000 : NSNull()
        }
        func figure(_ values: [Double], signed: Bool = false, expected: Int? = nil) -> Any {
            guard let summary = Summary(values) else { return NSNull() }
            var object: [String: Any] = [
                "median": rounded(summary.median), "worst": rounded(summary.worst), "count": summary.count,
            ]
            if signed { object["mean_signed"] = rounded(values.reduce(0, +) / Double(values.count)) }
            if let expected { object["expected"] = expected }
            return object
        }
        var conditions: [String: Any] = [:]
        for (scenario, runs) in rows {
            let stops = runs.first?.stops ?? 0
            let flat = runs.allSatisfy { $0.flatGain != nil }
            conditions[scenario.name] =
                [
                    "seeds": runs.count,
                    "saved": runs.filter(\.saved).count,
                    "stops": stops,
                    "true_distance_m": rounded(scenario.totalDistance),
                    "true_elevation_gain_m": rounded(runs.first?.trueGain ?? 0),
                    "distance_error_percent": figure(runs.map(\.distance), signed: true),
                    "live_distance_error_percent": figure(runs.compactMap(\.live)),
                    "live_distance_error_m": figure(runs.compactMap(\.liveMetres)),
                    "moving_time_error_s": figure(runs.map(\.moving)),
                    "moving_time_error_s_per_stop": stops > 0
                        ? figure(runs.compactMap(\.movingPerStop)) : NSNull(),
                    "split_time_error_s": figure(
                        runs.flatMap(\.splits), signed: true, expected: runs.map(\.kilometres).reduce(0, +)),
                    "split_duration_error_s": figure(runs.flatMap(\.splitDurations), signed: true),
                    "elevation_gain_error_percent": flat
                        ? NSNull() : figure(runs.compactMap(\.gainPercent), signed: true),
                    "elevation_gain_flat_m": flat ? figure(runs.compactMap(\.flatGain)) : NSNull(),
                    "track_vs_stated_percent": figure(runs.compactMap(\.track), signed: true),
                ] as [String: Any]
        }
        let object: [String: Any] = [
            "seeds": seeds,
            "seconds": rounded(took),
            "goals": [
                "distance_error_percent": ["median": 0.15, "worst": 0.5],
                "live_distance_error_percent": ["worst": 1],
                "moving_time_error_s_per_stop": ["worst": 2],
                "split_time_error_s": ["median": 1, "worst": 3],
                "split_duration_error_s": ["median": 1, "worst": 3],
                "elevation_gain_error_percent": ["worst": 3],
                "elevation_gain_flat_m": ["worst": 0],
                "track_vs_stated_percent": ["worst": 0.5],
            ],
            "conditions": conditions,
        ]
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
        else {
            Self.complain("the figures could not be written as JSON")
            exit(1)
        }
        print(String(decoding: data, as: UTF8.self))
    }
}
