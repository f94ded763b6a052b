import Foundation
import RunWayCore
import RunWayExport
import RunWaySimulator

/// `runway-bench export`: a 24-hour 1 Hz flight flown through the engine, its per-second series
/// built from its raw log and written as FIT, GPX and TCX; the same records written by Python's
/// gpxpy (GPX) and a plain Python FIT encoder (scripts/bench-fit.py), in the test venv, timed in
/// one run. Goal: GPX ≥ 25× faster than gpxpy.
struct ExportBench {
    func run() {
        print("")
        print("== Export: a 24-hour 1 Hz flight to each format ==")
        let run = SimulatedFlight.fly(.endurance(hours: 24, rate: 1))
        guard let flight = run.flight else {
            print("  no flight landed")
            return
        }
        let clock = ContinuousClock()
        var activity: ExportActivity?
        let prepare = clock.measure {
            activity = ExportActivity(flight: flight, bodyMass: 70, inputs: run.inputs)
        }
        guard let activity else { return }
        print(
            "  flight: \(format(flight.distance / 1000, 1)) km, \(run.inputs.count) raw inputs, "
                + "\(activity.points.count) records, \(activity.laps.count) laps, \(flight.pauses.count) pauses; "
                + "the per-second series: \(format(seconds(prepare) * 1000, 0)) ms")
        var ours: [ExportFormat: Double] = [:]
        for kind in ExportFormat.activityFiles {
            var bytes: [UInt8] = []
            // Best of three, so a page fault or a scheduler hiccup does not set the figure.
            let best = (0..<3).map { _ in
                seconds(
                    clock.measure {
                        bytes = Exporter.encode(
                            activity, kind, name: "bench", notes: nil, options: ExportOptions())
                    })
            }.min()!
            ours[kind] = best
            print(
                "  \(kind.rawValue.uppercased()): \(format(best * 1000, 0)) ms, "
                    + "\(format(Double(bytes.count) / 1_048_576, 1)) MiB "
                    + "(\(format(Double(bytes.count) / Double(max(activity.points.count, 1)), 0)) bytes a record)"
            )
        }
        guard let python = venvPython() else { return }
        baseline(
            python, "scripts/bench-gpxpy.py", gpxRows(activity), label: "gpxpy GPX", ours: ours[.gpx] ?? 0,
            goal: " (goal ≥ 25×)")
        baseline(
            python, "scripts/bench-fit.py", fitRows(activity), label: "Python FIT encoder",
            ours: ours[.fit] ?? 0, goal: "")
    }

    /// The records as bench-gpxpy.py reads them: segment, lat, lon, ele, time, hr, cad.
    private func gpxRows(_ activity: ExportActivity) -> String {
        var tsv = ""
        tsv.reserveCapacity(activity.points.count * 64)
        for (index, segment) in activity.segments.enumerated() {
            for p in segment {
                guard let c = p.coordinate else { continue }
                let ele = p.altitude.map { format($0, 1) } ?? ""
                let hr = p.heartRate.map { String(Int($0.rounded())) } ?? ""
                let cad = ExportActivity.strides(p.cadence).map(String.init) ?? ""
                tsv += "\(index)\t\(c.latitude)\t\(c.longitude)\t\(ele)\t\(p.time)\t\(hr)\t\(cad)\n"
            }
        }
        return tsv
    }

    /// The records as bench-fit.py reads them: time, lat, lon, distance, altitude, speed, hr, cad.
    private func fitRows(_ activity: ExportActivity) -> String {
        var tsv = ""
        tsv.reserveCapacity(activity.points.count * 80)
        func text(_ value: Double?) -> String { value.map { "\($0)" } ?? "" }
        for p in activity.points {
            tsv +=
                "\(p.time)\t\(text(p.coordinate?.latitude))\t\(text(p.coordinate?.longitude))\t\(p.distance)\t"
                + "\(text(p.altitude))\t\(text(p.speed))\t\(text(p.heartRate?.rounded()))\t"
                + "\(ExportActivity.strides(p.cadence).map(String.init) ?? "")\n"
        }
        return tsv
    }

    /// The interop venv's python (`scripts/interop-venv.sh`), or nil, said.
    private func venvPython() -> String? {
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let venv = Process()
        venv.executableURL = root.appendingPathComponent("scripts/interop-venv.sh")
        let pythonPath = Pipe()
        venv.standardOutput = pythonPath
        venv.standardError = FileHandle.nullDevice
        guard (try? venv.run()) != nil else {
            print("  baselines: scripts/interop-venv.sh not found (run from the project's root)")
            return nil
        }
        let python = String(decoding: pythonPath.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        venv.waitUntilExit()
        guard venv.terminationStatus == 0 else {
            print("  baselines: no interop venv (scripts/interop-venv.sh failed)")
            return nil
        }
        return python
    }

    /// `script` over the same records (`tsv`): its seconds and bytes, and ours as a ratio.
    private func baseline(
        _ python: String, _ script: String, _ tsv: String, label: String, ours: Double, goal: String
    ) {
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let input = NSTemporaryDirectory() + "runway-bench-records.tsv"
        let output = NSTemporaryDirectory() + "runway-bench-baseline.out"
        defer {
            try? FileManager.default.removeItem(atPath: input)
            try? FileManager.default.removeItem(atPath: output)
        }
        try? tsv.write(toFile: input, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [root.appendingPathComponent(script).path, input, output]
        let out = Pipe()
        process.standardOutput = out
        guard (try? process.run()) != nil else { return }
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = said.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard fields.count == 2 else {
            print("  \(label): failed (\(said))")
            return
        }
        print(
            "  \(label) (Python \(pythonVersion(python))): \(format(fields[0] * 1000, 0)) ms, "
                + "\(format(fields[1] / 1_048_576, 1)) MiB — RunWay's is \(format(fields[0] / ours, 0))× faster\(goal)"
        )
    }

    private func pythonVersion(_ python: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import platform; print(platform.python_version())"]
        let out = Pipe()
        process.standardOutput = out
        guard (try? process.run()) != nil else { return "?" }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
