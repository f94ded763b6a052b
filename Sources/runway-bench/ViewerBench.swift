import Foundation
import RunWayCore
import RunWayExport
import RunWaySimulator
import RunWayStore

/// `runway-bench viewer`: the offline viewer of a logbook holding 300 5 km runs (one a day) and
/// one 24-hour flight, exported as a stick would get it and opened from `file://` in Debian's
/// headless Chromium (Tests/Viewer/viewer_check.py --bench). Goals: the logbook drawn and the
/// 24-hour FDR drawn within 1 s each; the viewer's size per flight.
struct ViewerBench {
    func run() {
        print("")
        print("== Viewer: 300 runs and a 24-hour flight, opened in headless Chromium ==")
        guard let run = streamedFlight(.flat5k), let day = streamedEnduranceFlight(hours: 24) else {
            print("  no flight landed")
            return
        }
        let scratch = NSTemporaryDirectory() + "runway-viewer-bench-\(getpid())"
        try? FileManager.default.removeItem(atPath: scratch)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            let logbook = try Logbook(path: scratch + "/logbook.sqlite", journalCapacity: 0)
            for n in 0..<300 {
                var copy = run
                let shift = Double(n - 300) * 86_400
                copy.startTime += shift
                copy.endTime += shift
                let id = try logbook.begin(startTime: copy.startTime, mission: nil, source: "bench")
                try logbook.finish(flight: id, with: copy)
            }
            let dayID = try logbook.begin(startTime: day.startTime, mission: nil, source: "bench")
            try logbook.finish(flight: dayID, with: day)
            try FileManager.default.createDirectory(
                atPath: scratch + "/stick", withIntermediateDirectories: true)
            let folder = try ExportDirectory(destination: scratch + "/stick")
            var options = ExportOptions()
            options.formats = [.html]
            let clock = ContinuousClock()
            var report: ExportReport?
            let took = try clock.measure {
                report = try Exporter.export(from: logbook, to: folder, options: options)
            }
            guard let viewer = report?.viewer else {
                print("  the export wrote no viewer: \(report?.failure.map { "\($0)" } ?? "?")")
                return
            }
            let sizes = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                $0.hasPrefix("runway-flight-")
            }.map { name -> Int in
                ((try? FileManager.default.attributesOfItem(atPath: folder.path + "/" + name)[.size]) as? Int)
                    ?? 0
            }.sorted()
            print(
                "  export of the viewer (301 flights): \(format(seconds(took), 1)) s, "
                    + "\(format(Double(viewer.bytes) / 1_048_576, 1)) MiB in all")
            print(
                "  per flight: \(format(Double(sizes[sizes.count / 2]) / 1024, 1)) KiB for a 5 km run (median), "
                    + "\(format(Double(sizes.last ?? 0) / 1_048_576, 2)) MiB for the 24-hour flight "
                    + "(\(day.samples.count) FDR samples, \(day.simplifiedRoute.points.count) route points)")
            browser(folder.path, flight: dayID)
        } catch {
            print("  no figure: \(error)")
        }
    }

    /// Chromium's times, from the viewer's own mark (performance.now() when a view is drawn).
    private func browser(_ folder: String, flight: Int64) {
        let script = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("Tests/Viewer/viewer_check.py").path
        guard FileManager.default.fileExists(atPath: script) else {
            print("  browser: Tests/Viewer/viewer_check.py not found (run from the project's root)")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, "--bench", folder, "\(flight)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            print("  browser: \(error)")
            return
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let times = try? JSONValue.parse(data),
            let logbookMs = times["logbook_ms"]?.numberValue, let fdrMs = times["fdr_ms"]?.numberValue
        else {
            print("  browser: no figure (is chromium installed? scripts/install-deps.sh test)")
            return
        }
        print(
            "  Chromium (headless, file://): logbook of \(times["rows"]?.numberValue.flatMap { Int(exactly: $0) } ?? 0) flights drawn in "
                + "\(format(logbookMs, 0)) ms; the 24-hour flight's FDR drawn in \(format(fdrMs, 0)) ms "
                + "(from navigation, data file loaded)")
        print("  target: ≤ 1000 ms each")
    }
}
