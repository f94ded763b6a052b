import Foundation
import RunWayCore
import RunWayExport
import RunWaySimulator
import RunWayTestSupport
import Testing

/// One flight's three files as the independent readers read them: Garmin's FIT SDK and fitdecode
/// (fit_check.py), gpxpy and Python's XML parser (series_check.py), and xmllint with the XSDs.
struct ReadBack {
    var fit: [String: Any]
    var fitdecode: [String: Any]
    var gpx: [String: Any]
    var tcx: [String: Any]
    var gpxValid: (ok: Bool, output: String)
    var tcxValid: (ok: Bool, output: String)

    static func of(_ activity: ExportActivity, device: DeviceIdentity = DeviceIdentity()) async throws
        -> ReadBack
    {
        // Off the pool: a day's three files are seconds of work in a debug build.
        let (fitBytes, gpxBytes, tcxBytes) = try await offPool {
            (
                FITEncoder.encode(activity, device: device), GPXEncoder.encode(activity, name: "series"),
                TCXEncoder.encode(activity, device: device)
            )
        }
        let fit = try await InteropTests.fitReading(fitBytes)
        let gpxPath = try InteropTests.temporary(gpxBytes, "gpx")
        let tcxPath = try InteropTests.temporary(tcxBytes, "tcx")
        defer {
            try? FileManager.default.removeItem(atPath: gpxPath)
            try? FileManager.default.removeItem(atPath: tcxPath)
        }
        let python = try await InteropTests.python()
        let result = try await offPool {
            try runToEnd(
                python,
                [InteropTests.fixtures.appendingPathComponent("series_check.py").path, gpxPath, tcxPath])
        }
        try #require(result.status == 0, "\(result.stderr)")
        let xml = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return ReadBack(
            fit: fit, fitdecode: fit["fitdecode"] as? [String: Any] ?? [:],
            gpx: xml["gpx"] as? [String: Any] ?? [:], tcx: xml["tcx"] as? [String: Any] ?? [:],
            gpxValid: try await InteropTests.validate(gpxBytes, "gpx", schema: "gpx_bundle.xsd"),
            tcxValid: try await InteropTests.validate(tcxBytes, "tcx", schema: "tcx_bundle.xsd"))
    }

    var fitRecords: [[Double?]] { rows(fitdecode["records"]) }
    var gpxRows: [[Double?]] { rows(gpx["rows"]) }
    var tcxRows: [[Double?]] { rows(tcx["rows"]) }

    private func rows(_ value: Any?) -> [[Double?]] {
        (value as? [[Any]] ?? []).map { $0.map { $0 as? Double ?? ($0 as? Int).map(Double.init) } }
    }

    /// Every reader took every file, whole.
    func expectValid(_ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(fit["integrity"] as? Bool == true, "\(label)", sourceLocation: sourceLocation)
        #expect(
            (fit["errors"] as? [String])?.isEmpty == true, "\(label): \(fit["errors"] ?? "")",
            sourceLocation: sourceLocation)
        #expect(
            (fitdecode["errors"] as? [String])?.isEmpty == true, "\(label): \(fitdecode["errors"] ?? "")",
            sourceLocation: sourceLocation)
        #expect(gpxValid.ok, "\(label): \(gpxValid.output.suffix(400))", sourceLocation: sourceLocation)
        #expect(tcxValid.ok, "\(label): \(tcxValid.output.suffix(400))", sourceLocation: sourceLocation)
    }
}

extension InteropTests {
    /// The interop venv's python (scripts/interop-venv.sh).
    static func python() async throws -> String {
        let venv = try await offPool {
            try runToEnd(
                root.appendingPathComponent("scripts/interop-venv.sh").path,
                [root.appendingPathComponent(".build/interop-venv").path])
        }
        try #require(venv.status == 0, "\(venv.stderr)")
        return venv.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The value a raw log gives at a second, found here apart from the export's cursors: the latest
/// reading at or before it, no older than `age`.
func rawValue(_ inputs: [EngineInput], at time: Double, age: Double, _ pick: (EngineInput) -> Double?)
    -> Double?
{
    var best: (time: Double, value: Double)?
    for input in inputs where input.time <= time && time - input.time <= age {
        guard let value = pick(input) else { continue }
        if best == nil || input.time >= best!.time { best = (input.time, value) }
    }
    return best?.value
}
