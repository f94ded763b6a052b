import Foundation
import RunWayControl
import RunWayCore

/// The parsers that take bytes from outside, as fuzz targets: `make fuzz` drives each with
/// libFuzzer, and the test suite replays the seed corpus and every input that once failed. An
/// entry point may throw its typed error or return anything, but must not crash, hang, or use
/// memory that grows beyond its input.
public enum FuzzEntry {
    public static let targets: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
        ("trace", trace), ("pressure", pressure), ("mission", mission), ("control", control),
        ("configuration", configuration),
    ]

    /// The gpsd JSON trace reader, then a flight of what it read.
    public static func trace(_ bytes: [UInt8]) {
        guard let file = try? GPSTraceFile(LineReader(bytes: bytes, name: "fuzz")) else { return }
        _ = try? FlyCommand.fly(gps: file, pressure: nil, mission: nil)
    }

    /// The pressure CSV reader.
    public static func pressure(_ bytes: [UInt8]) {
        let file = PressureFile(LineReader(bytes: bytes, name: "fuzz"))
        while let sample = try? file.next() { _ = sample }
    }

    /// The control socket's request parser (runwayd).
    public static func control(_ bytes: [UInt8]) {
        _ = try? ControlRequest.parse(bytes)
    }

    /// The daemon's configuration reader (`runwayd --check-config`, and every `runway` command
    /// that reads the logbook's path or the time zone from it).
    public static func configuration(_ bytes: [UInt8]) {
        _ = try? DaemonConfiguration.parse(Data(bytes))
    }

    /// The `--mission` parser.
    public static func mission(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        _ = try? MissionOption.parse(text)
    }
}
