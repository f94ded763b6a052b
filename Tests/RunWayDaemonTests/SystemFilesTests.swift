import Foundation
import RunWayTestSupport
import Testing

/// The files that install runwayd on a board, checked with systemd's own tools: every unit
/// verifies without a word, the service's exposure is within the bound, sysusers accepts the
/// user file; udev itself applies the rules to synthetic devices.
@Suite("systemd units, sysusers and udev rules")
struct SystemFilesTests {
    static let root = DaemonEndToEndTests.root

    /// Runs `tool` to its end; `output` is what it wrote to either stream.
    static func run(_ tool: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        let result = try await offPool { try runToEnd(tool, arguments) }
        return (result.status, result.stdout + result.stderr)
    }

    static let unitFiles = [
        "runwayd.service", "runwayd.socket", "runway-export@.service", "runway-stick@.service",
        "runway-gadget.service", "runway-drive.service", "runway-drive.path",
    ]

    /// The units in a scratch directory, their ExecStart= pointed at the built executables
    /// (verify checks that the programs exist).
    static func units() throws -> String {
        let directory = NSTemporaryDirectory() + "runway-units-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let built = URL(fileURLWithPath: DaemonEndToEndTests.executable).deletingLastPathComponent().path
        for name in Self.unitFiles {
            let text = try String(contentsOf: root.appendingPathComponent("systemd/\(name)"), encoding: .utf8)
            try text.replacingOccurrences(of: "/usr/bin/runway", with: built + "/runway")
                .replacingOccurrences(
                    of: "/usr/lib/runway/runway-gadget",
                    with: root.appendingPathComponent("board/runway-gadget").path
                )
                .write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
        return directory
    }

    @Test func everyUnitVerifiesWithoutAWord() async throws {
        let directory = try Self.units()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // verify exits 0 on unknown keys: any output at all is a failure.
        let result = try await Self.run(
            "/usr/bin/systemd-analyze",
            ["verify"]
                + Self.unitFiles.map { directory + "/" + $0.replacingOccurrences(of: "@.", with: "@sda1.") })
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    @Test(arguments: [
        "runwayd.service", "runway-export@sda1.service", "runway-stick@sda1.service", "runway-gadget.service",
        "runway-drive.service",
    ])
    func eachServicesExposureIsWithinTheBound(unit: String) async throws {
        let directory = try Self.units()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try await Self.run(
            "/usr/bin/systemd-analyze", ["security", "--offline=yes", directory + "/" + unit])
        let line = try #require(
            result.output.split(separator: "\n").first { $0.contains("Overall exposure level") },
            "\(result.output)")
        let figure = try #require(line.split(separator: " ").compactMap { Double($0) }.first)
        #expect(figure <= 1.5, "\(line)")
        print("systemd-analyze security: \(line)")
    }

    /// The names one key of a unit file lists, over every line that sets it.
    static func listed(_ key: String, in unit: String) throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent("systemd/\(unit)"), encoding: .utf8)
        return Set(
            text.split(separator: "\n").filter { $0.hasPrefix(key + "=") }
                .flatMap { $0.dropFirst(key.count + 1).split(separator: " ").map(String.init) })
    }

    /// Units stop in the reverse of their start order: runwayd, gpsd's client, is ordered after
    /// gpsd.service so it closes its connection before gpsd stops. Had gpsd closed it first, its
    /// end of 127.0.0.1:2947 would stay in TIME_WAIT for 60 s and gpsd.socket (bound without
    /// SO_REUSEADDR) could not start again for that minute: the board test's runner boot lost its
    /// GPS that way at c526f64. Ordered, never wanted: the socket starts gpsd.
    @Test func runwaydStopsBeforeGpsd() throws {
        let after = try Self.listed("After", in: "runwayd.service")
        #expect(after.isSuperset(of: ["gpsd.socket", "gpsd.service"]), "\(after)")
        let wanted = try Self.listed("Wants", in: "runwayd.service").union(
            Self.listed("Requires", in: "runwayd.service"))
        #expect(!wanted.contains("gpsd.service"), "\(wanted)")
    }

    @Test func sysusersAcceptsTheUserFile() async throws {
        let result = try await Self.run(
            "/usr/bin/systemd-sysusers",
            ["--dry-run", Self.root.appendingPathComponent("systemd/runway.sysusers").path])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("ignoring"), "\(result.output)")
    }

    /// What udev decides for one synthetic device under the project's rules alone
    /// (scripts/udev-dry-run.sh: a fake sysfs in a private mount namespace, nothing on this
    /// machine touched): the GROUP and MODE it assigns, by group name; nil where the namespace
    /// cannot be made (not root).
    static func udevDecision(
        rules: [String], subsystem: String, devpath: String, uevent: [String]
    ) async throws -> (group: String?, mode: String?, output: String)? {
        let files = rules.map { root.appendingPathComponent($0).path }.joined(separator: ",")
        let result = try await run(
            root.appendingPathComponent("scripts/udev-dry-run.sh").path,
            [files, subsystem, devpath] + uevent)
        if result.status == 77 {
            print("udev rules: not exercised, \(result.output)")
            return nil
        }
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n")
        // Any complaint about a rule file (unknown key, bad value, unknown group) is a defect.
        let complaints = lines.filter {
            $0.contains("runway.rules") && !$0.contains("Reading rules file")
                && !$0.contains("Skipping overridden") && !$0.contains(" GROUP ") && !$0.contains(" MODE ")
        }
        #expect(complaints.isEmpty, "\(complaints)")
        var groups: [String: String] = [:]
        for line in lines where line.hasPrefix("group ") {
            let fields = line.split(separator: " ")
            groups[String(fields[2])] = String(fields[1])
        }
        func assigned(_ key: String) -> String? {
            lines.last { $0.contains("runway.rules:") && $0.contains(" \(key) ") }
                .flatMap { $0.split(separator: " ").last.map(String.init) }
        }
        return (assigned("GROUP").map { groups[$0] ?? $0 }, assigned("MODE"), result.output)
    }

    @Test func gpioChipsGoToGroupGpio() async throws {
        guard
            let decision = try await Self.udevDecision(
                rules: ["udev/60-runway.rules"], subsystem: "gpio",
                devpath: "/devices/platform/soc/fe200000.gpio/gpiochip0",
                uevent: ["MAJOR=254", "MINOR=0", "DEVNAME=gpiochip0"])
        else { return }
        #expect(decision.group == "gpio" && decision.mode == "0660", "\(decision.output)")
    }

    @Test func i2cBusesGoToGroupI2c() async throws {
        guard
            let decision = try await Self.udevDecision(
                rules: ["udev/60-runway.rules"], subsystem: "i2c-dev",
                devpath: "/devices/platform/soc/fe804000.i2c/i2c-1/i2c-dev/i2c-1",
                uevent: ["MAJOR=89", "MINOR=1", "DEVNAME=i2c-1"])
        else { return }
        #expect(decision.group == "i2c" && decision.mode == "0660", "\(decision.output)")
    }

    @Test func otherDevicesAreLeftAlone() async throws {
        guard
            let decision = try await Self.udevDecision(
                rules: ["udev/60-runway.rules"], subsystem: "tty", devpath: "/devices/virtual/tty/ttyS0",
                uevent: ["MAJOR=4", "MINOR=64", "DEVNAME=ttyS0"])
        else { return }
        #expect(decision.group == nil && decision.mode == nil, "\(decision.output)")
    }

    static let stick = [
        "MAJOR=8", "MINOR=1", "DEVNAME=sda1", "DEVTYPE=partition", "ID_BUS=usb", "ID_FS_USAGE=filesystem",
        "ID_FS_TYPE=vfat",
    ]

    @Test func aUSBStickLabelledRUNWAYStartsTheExport() async throws {
        guard
            let decision = try await Self.udevDecision(
                rules: ["udev/61-runway-export.rules"], subsystem: "block",
                devpath: "/devices/platform/soc/usb1/1-1/1-1:1.0/host0/target0:0:0/0:0:0:0/block/sda/sda1",
                uevent: Self.stick + ["ID_FS_LABEL=RUNWAY"])
        else { return }
        #expect(decision.output.contains("SYSTEMD_WANTS=runway-export@sda1.service"), "\(decision.output)")
        #expect(decision.output.contains("TAGS=:systemd:"), "\(decision.output)")
    }

    @Test func anyOtherStickIsLeftAlone() async throws {
        for label in ["ID_FS_LABEL=PHOTOS", "ID_FS_LABEL=runway2"] {
            guard
                let decision = try await Self.udevDecision(
                    rules: ["udev/61-runway-export.rules"], subsystem: "block",
                    devpath:
                        "/devices/platform/soc/usb1/1-1/1-1:1.0/host0/target0:0:0/0:0:0:0/block/sda/sda1",
                    uevent: Self.stick + [label])
            else { return }
            #expect(!decision.output.contains("SYSTEMD_WANTS"), "\(decision.output)")
        }
    }
}
