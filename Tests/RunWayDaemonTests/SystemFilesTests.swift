import Foundation
import RunWayTestSupport
import Testing

/// The files that install runwayd on a board, checked with systemd's own tools: every unit
/// verifies without a word, the service's exposure is within the bound, sysusers accepts the
/// user file; the udev rules parse as udev's grammar.
@Suite("systemd units, sysusers and udev rules")
struct SystemFilesTests {
    static let root = DaemonEndToEndTests.root

    /// Runs `tool` to its end; `output` is what it wrote to either stream.
    static func run(_ tool: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let result = try await offPool { try runToEnd(tool, arguments) }
        return (result.status, result.stdout + result.stderr)
    }

    /// The units in a scratch directory, the service's ExecStart pointed at the built runwayd
    /// (verify checks that the program exists).
    static func units() throws -> String {
        let directory = NSTemporaryDirectory() + "runway-units-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let service = try String(
            contentsOf: root.appendingPathComponent("systemd/runwayd.service"), encoding: .utf8)
        try service.replacingOccurrences(
            of: "ExecStart=/usr/bin/runwayd", with: "ExecStart=\(DaemonEndToEndTests.executable)"
        ).write(toFile: directory + "/runwayd.service", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            atPath: root.appendingPathComponent("systemd/runwayd.socket").path,
            toPath: directory + "/runwayd.socket")
        return directory
    }

    @Test func everyUnitVerifiesWithoutAWord() async throws {
        let directory = try Self.units()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // verify exits 0 on unknown keys: any output at all is a failure.
        let result = try await Self.run(
            "/usr/bin/systemd-analyze",
            ["verify", directory + "/runwayd.service", directory + "/runwayd.socket"])
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    @Test func theServicesExposureIsWithinTheBound() async throws {
        let directory = try Self.units()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try await Self.run(
            "/usr/bin/systemd-analyze", ["security", "--offline=yes", directory + "/runwayd.service"])
        let line = try #require(
            result.output.split(separator: "\n").first { $0.contains("Overall exposure level") },
            "\(result.output)")
        let figure = try #require(line.split(separator: " ").compactMap { Double($0) }.first)
        #expect(figure <= 1.5, "\(line)")
        print("systemd-analyze security: \(line)")
    }

    @Test func sysusersAcceptsTheUserFile() async throws {
        let result = try await Self.run(
            "/usr/bin/systemd-sysusers",
            ["--dry-run", Self.root.appendingPathComponent("systemd/runway.sysusers").path])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("ignoring"), "\(result.output)")
    }

    /// udev 252 has no `udevadm verify` and `udevadm test` reads only the system's rule
    /// directories: each line is checked against udev's grammar here, key by key.
    @Test func theUdevRulesParse() throws {
        let text = try String(
            contentsOf: Self.root.appendingPathComponent("udev/60-runway.rules"), encoding: .utf8)
        let matchKeys: Set = ["SUBSYSTEM", "KERNEL", "ACTION", "ATTR", "ENV"]
        let assignKeys: Set = ["GROUP", "MODE", "OWNER", "TAG", "RUN", "ENV"]
        var rules = 0
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.allSatisfy(\.isWhitespace)
        {
            rules += 1
            for pair in line.split(separator: ",") {
                let entry = pair.trimmingCharacters(in: .whitespaces)
                let match = entry.firstMatch(of: /^([A-Z]+)(\{[^}]*\})?\s*(==|!=|=|\+=|:=)\s*"([^"]*)"$/)
                let parsed = try #require(match, "not a udev key: \(entry)")
                let (key, op) = (String(parsed.1), String(parsed.3))
                let known = op == "==" || op == "!=" ? matchKeys.contains(key) : assignKeys.contains(key)
                #expect(known, "\(key)\(op) in \(line)")
                if key == "MODE" { #expect(parsed.4.allSatisfy(\.isNumber) && parsed.4.count == 4) }
            }
        }
        #expect(rules == 2)
    }
}
