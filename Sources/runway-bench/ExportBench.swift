import Foundation
import RunWayCore
import RunWayExport
import RunWaySimulator

/// `runway-bench export`: a 24-hour 1 Hz flight written as FIT, GPX and TCX, and the same GPX
/// written by Python's gpxpy (the test venv's), timed in one run. Goal: GPX ≥ 25× faster.
struct ExportBench {
    func run() {
        print("")
        print("== Export: a 24-hour 1 Hz flight to each format ==")
        guard let flight = streamedEnduranceFlight(hours: 24) else {
            print("  no flight landed")
            return
        }
        let clock = ContinuousClock()
        var activity: ExportActivity?
        let prepare = clock.measure { activity = ExportActivity(flight: flight, bodyMass: 70) }
        guard let activity else { return }
        print(
            "  flight: \(format(flight.distance / 1000, 1)) km, \(activity.points.count) track points, "
                + "\(activity.laps.count) laps, \(flight.pauses.count) pauses; preparing the track: "
                + "\(format(seconds(prepare) * 1000, 0)) ms")
        var gpxSeconds = 0.0
        var gpxBytes = 0
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
            if kind == .gpx {
                gpxSeconds = best
                gpxBytes = bytes.count
            }
            print(
                "  \(kind.rawValue.uppercased()): \(format(best * 1000, 0)) ms, "
                    + "\(format(Double(bytes.count) / 1_048_576, 1)) MiB "
                    + "(\(format(Double(bytes.count) / Double(max(activity.points.count, 1)), 0)) bytes a point)"
            )
        }
        baseline(activity, ours: gpxSeconds, ourBytes: gpxBytes)
    }

    /// The same track through gpxpy, in the interop venv (`scripts/interop-venv.sh`).
    private func baseline(_ activity: ExportActivity, ours: Double, ourBytes: Int) {
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let venv = Process()
        venv.executableURL = root.appendingPathComponent("scripts/interop-venv.sh")
        let pythonPath = Pipe()
        venv.standardOutput = pythonPath
        venv.standardError = FileHandle.nullDevice
        guard (try? venv.run()) != nil else {
            print("  gpxpy: scripts/interop-venv.sh not found (run from the project's root)")
            return
        }
        let python = String(decoding: pythonPath.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        venv.waitUntilExit()
        guard venv.terminationStatus == 0 else {
            print("  gpxpy: no interop venv (scripts/interop-venv.sh failed)")
            return
        }
        var tsv = ""
        tsv.reserveCapacity(activity.points.count * 64)
        for (index, segment) in activity.segments.enumerated() {
            for p in segment {
                guard let c = p.coordinate else { continue }
                let ele = p.altitude.map { format($0, 1) } ?? ""
                let hr = p.heartRate.map { String(Int($0.rounded())) } ?? ""
                let cad = p.cadence.map { String(Int(($0 / 2).rounded())) } ?? ""
                tsv +=
                    "\(index)\t\(c.latitude)\t\(c.longitude)\t\(ele)\t\(p.time)\t\(hr)\t\(cad)\n"
            }
        }
        let input = NSTemporaryDirectory() + "runway-bench-points.tsv"
        let output = NSTemporaryDirectory() + "runway-bench-gpxpy.gpx"
        defer {
            try? FileManager.default.removeItem(atPath: input)
            try? FileManager.default.removeItem(atPath: output)
        }
        try? tsv.write(toFile: input, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [root.appendingPathComponent("scripts/bench-gpxpy.py").path, input, output]
        let out = Pipe()
        process.standardOutput = out
        guard (try? process.run()) != nil else { return }
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = said.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard fields.count == 2 else {
            print("  gpxpy: failed (\(said))")
            return
        }
        print(
            "  gpxpy (Python \(pythonVersion(python))): \(format(fields[0] * 1000, 0)) ms, "
                + "\(format(fields[1] / 1_048_576, 1)) MiB — RunWay's GPX is \(format(fields[0] / ours, 0))× faster "
                + "(goal ≥ 25×)")
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
