import Foundation
import RunWayTestSupport
import Testing

/// What really runs as root, scored by `systemd-analyze security --offline=yes` as its own unit:
/// a command prefixed "!" runs as root inside its unit's sandbox (the unit without User=, Group=);
/// one prefixed "+" runs as root with no sandbox at all (a unit of that command alone). The
/// offline score of the unit itself counts neither.
@Suite("What runs as root is scored as what it is")
struct RootExposureTests {
    /// The exposure bound for every unit and every root command (issue 22: ≤ 2.0).
    static let bound = 2.0

    /// `text` rewritten as the unit its root command `line` really runs in.
    static func rootVariant(of text: String, command line: Substring) -> String {
        let value = line.split(separator: "=", maxSplits: 1)[1]
        let prefix = value.prefix { "-@:+!".contains($0) }
        let command = value.dropFirst(prefix.count)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if prefix.contains("+") {
            // No sandbox applies: only what says what the unit is.
            let unit = lines.prefix { $0 != "[Service]" }
            return (unit + ["[Service]", "Type=oneshot", "ExecStart=\(command)"]).joined(separator: "\n")
        }
        let credentials = ["User=", "Group=", "SupplementaryGroups=", "DynamicUser="]
        return
            lines
            .filter { entry in !credentials.contains { entry.hasPrefix($0) } }
            .map { $0 == line ? Substring("ExecStart=\(command)") : $0 }
            .filter { !$0.hasPrefix("Exec") || $0.hasPrefix("ExecStart=\(command)") }
            .joined(separator: "\n")
    }

    static func exposure(_ path: String) async throws -> Double {
        let result = try await SystemFilesTests.run(
            "/usr/bin/systemd-analyze", ["security", "--offline=yes", path])
        let line = try #require(
            result.output.split(separator: "\n").first { $0.contains("Overall exposure level") },
            "\(result.output)")
        return try #require(line.split(separator: " ").compactMap { Double($0) }.first)
    }

    @Test func everyRootCommandIsWithinTheBound() async throws {
        let directory = try SystemFilesTests.units()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var scored: [String] = []
        for name in SystemFilesTests.unitFiles where name.hasSuffix(".service") {
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            let commands = text.split(separator: "\n").filter { line in
                line.hasPrefix("Exec") && line.contains("=")
                    && line.split(separator: "=", maxSplits: 1)[1].prefix { "-@:+!".contains($0) }
                        .contains { $0 == "+" || $0 == "!" }
            }
            for (index, command) in commands.enumerated() {
                let variant =
                    directory + "/root\(index)-" + name.replacingOccurrences(of: "@.", with: "@sda1.")
                try Self.rootVariant(of: text, command: command).write(
                    toFile: variant, atomically: true, encoding: .utf8)
                let figure = try await Self.exposure(variant)
                print("systemd-analyze security, as root: \(name) \(command.prefix(60)): \(figure)")
                #expect(figure <= Self.bound, "\(name): \(command) scores \(figure) as root")
                scored.append(name)
            }
        }
        // The gadget's configfs work is root's, in both units that touch it.
        #expect(Set(scored) == ["runway-gadget.service", "runway-drive.service"], "\(scored)")
    }
}

/// `runway-gadget` gives the USB host only the image it was meant to: a name in runway's folder
/// that is a symbolic link, a FIFO, a device, a hard link or someone else's file is refused with
/// a message saying which, and the LUN is given nothing. On a fake configfs (plain folders).
@Suite("runway-gadget serves its own image and nothing else")
struct GadgetImageTests {
    struct Folder {
        let root: String
        var image: String { root + "/state" }
        var lun: String { root + "/configfs/usb_gadget/runway/functions/mass_storage.usb0/lun.0/file" }

        init() throws {
            root = NSTemporaryDirectory() + "rw-gadget-\(UUID().uuidString.prefix(8))"
            for folder in ["/state", "/configfs/usb_gadget", "/udc/dummy_udc.0"] {
                try FileManager.default.createDirectory(
                    atPath: root + folder, withIntermediateDirectories: true)
            }
        }

        func up(_ image: String) async throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(
                fileURLWithPath: SystemFilesTests.root.appendingPathComponent("board/runway-gadget").path)
            process.arguments = ["up", image]
            var environment = ProcessInfo.processInfo.environment
            environment["RUNWAY_CONFIGFS"] = root + "/configfs"
            environment["RUNWAY_UDC_DIR"] = root + "/udc"
            environment["RUNWAY_IMAGE_OWNER"] = String(cString: getpwuid(getuid())!.pointee.pw_name)
            process.environment = environment
            let result = try await offPool { try runToEnd(process) }
            return (result.status, result.stdout + result.stderr)
        }
    }

    @Test func itsOwnImageIsServedThroughTheFileItOpened() async throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(atPath: folder.root) }
        let image = folder.image + "/usb-drive.img"
        try Data(count: 4096).write(to: URL(fileURLWithPath: image))
        let result = try await folder.up(image)
        #expect(result.status == 0, "\(result.output)")
        #expect(try String(contentsOfFile: folder.lun, encoding: .utf8) == "/proc/self/fd/3\n")
    }

    @Test(arguments: [
        ("symlink", "is a symbolic link (to /etc/shadow)"), ("fifo", "not a regular file (fifo)"),
        ("device", "not a regular file"), ("hardlink", "has 2 hard links"),
        ("someone else's", "is owned by"), ("missing", "no such file"),
    ])
    func anythingElseIsRefused(_ kind: String, _ message: String) async throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(atPath: folder.root) }
        var image = folder.image + "/usb-drive.img"
        switch kind {
        case "symlink": symlink("/etc/shadow", image)
        case "fifo": mkfifo(image, 0o644)
        case "device":
            // A block device where root may make one (loop0's numbers), /dev/null otherwise.
            if getuid() != 0 || mknod(image, S_IFBLK | 0o600, dev_t(7 << 8)) != 0 { image = "/dev/null" }
        case "hardlink":
            try Data(count: 4096).write(to: URL(fileURLWithPath: folder.image + "/other"))
            link(folder.image + "/other", image)
        case "someone else's":
            if getuid() == 0 {
                try Data(count: 4096).write(to: URL(fileURLWithPath: image))
                chown(image, 65_534, 65_534)
            } else {
                image = "/usr/bin/env"  // root's
            }
        default: break
        }
        let result = try await folder.up(image)
        #expect(result.status != 0)
        #expect(
            result.output.contains("refusing \(image): ") && result.output.contains(message),
            "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: folder.lun), "the LUN was given a file")
    }
}
