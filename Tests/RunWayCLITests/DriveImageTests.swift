import Foundation
import RunWayTestSupport
import Testing

/// The wearable as a USB drive: the FAT image `runway drive` builds, read back with mtools (an
/// independent reader of FAT), and the gadget script against a stand-in configfs tree (the real
/// configfs and UDC are the emulated board's).
@Suite("USB drive image and gadget")
struct DriveImageTests {
    static func mtools(_ tool: String, _ arguments: [String]) async throws -> RunWayBinary.Output {
        try await RunWayBinary.shell(
            "MTOOLS_SKIP_CHECK=1 MTOOLSRC=/dev/null /usr/bin/\(tool) "
                + arguments.map { "'\($0)'" }.joined(separator: " "))
    }

    @Test func theImageIsAFATDriveLabelledRUNWAYHoldingEveryRunAndNotTheLogbook() async throws {
        let image = ExportCommandTests.directory() + "/usb-drive.img"
        let built = try await RunWayBinary.run([
            "drive", "--image", image, "--logbook", ExportCommandTests.logbook, "--config", "/nonexistent",
        ])
        #expect(built.status == 0, "\(built.stderr)")
        // Six activity files, and the viewer: page, its two scripts, style, logbook, a file per flight.
        #expect(built.stdout.contains("13 files in RUNWAY/"), "\(built.stdout)")
        let info = try await Self.mtools("minfo", ["-i", image, "::"])
        #expect(info.stdout.contains("disk label=\"RUNWAY"), "\(info.stdout)\(info.stderr)")
        let listing = try await Self.mtools("mdir", ["-b", "-i", image, "::/RUNWAY"])
        let names = Set(
            listing.stdout.split(separator: "\n").map {
                ($0 as Substring).split(separator: "/").last.map(String.init) ?? ""
            })
        var expected = Set(ExportCommandTests.reference.keys)
        expected.remove(".runway-manifest")
        #expect(names == expected, "\(listing.stdout)")
        // Each file reads back byte for byte as the export writes it.
        let out = ExportCommandTests.directory()
        for name in expected {
            #expect(
                try await Self.mtools("mcopy", ["-i", image, "::/RUNWAY/\(name)", out + "/" + name]).status
                    == 0)
            #expect(
                FileManager.default.contents(atPath: out + "/" + name) == ExportCommandTests.reference[name],
                "\(name)")
        }
        let root = try await Self.mtools("mdir", ["-b", "-i", image, "::/"])
        #expect(!root.stdout.contains("sqlite") && !listing.stdout.contains("sqlite"))
        // No leftover of the build beside it.
        #expect(!FileManager.default.fileExists(atPath: image + ".building"))
    }

    @Test func anImageThatCannotBeBuiltLeavesTheOldOneServing() async throws {
        let directory = ExportCommandTests.directory()
        let image = directory + "/usb-drive.img"
        try Data("the old image".utf8).write(to: URL(fileURLWithPath: image))
        // A logbook that is not there: nothing is built, the old image stays.
        let failed = try await RunWayBinary.run([
            "drive", "--image", image, "--logbook", directory + "/missing.sqlite", "--config", "/nonexistent",
        ])
        #expect(failed.status == 1)
        #expect(try String(contentsOfFile: image, encoding: .utf8) == "the old image")
    }

    @Test func theGadgetScriptServesTheImageReadOnlyAndReloadsIt() async throws {
        let configfs = ExportCommandTests.directory()
        let udc = ExportCommandTests.directory()
        try FileManager.default.createDirectory(
            atPath: configfs + "/usb_gadget", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: udc + "/fe980000.usb"))
        let image = configfs + "/drive.img"
        try Data("image".utf8).write(to: URL(fileURLWithPath: image))
        try Data("new image".utf8).write(to: URL(fileURLWithPath: image + ".new"))
        let script = RunWayBinary.root.appendingPathComponent("board/runway-gadget").path
        // The image must be the runway user's; here, the test's own user's.
        func gadget(_ arguments: String) async throws -> RunWayBinary.Output {
            try await RunWayBinary.shell(
                "RUNWAY_IMAGE_OWNER=\"$(id -un)\" RUNWAY_CONFIGFS='\(configfs)' RUNWAY_UDC_DIR='\(udc)' "
                    + "'\(script)' \(arguments)")
        }
        func read(_ path: String) -> String {
            (try? String(contentsOfFile: configfs + "/usb_gadget/runway/" + path, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "<none>"
        }
        let up = try await gadget("up '\(image)'")
        #expect(up.status == 0, "\(up.stderr)")
        #expect(read("UDC") == "fe980000.usb")
        #expect(read("idVendor") == "0x1d6b")
        let lun = "functions/mass_storage.usb0/lun.0/"
        #expect(read(lun + "ro") == "1" && read(lun + "removable") == "1")
        // The LUN is given the file the script opened and checked, never the name.
        #expect(read(lun + "file") == "/proc/self/fd/3")
        #expect(
            FileManager.default.fileExists(
                atPath: configfs + "/usb_gadget/runway/configs/c.1/mass_storage.usb0/lun.0/ro"))
        let reload = try await gadget("reload '\(image).new'")
        #expect(
            reload.status == 0 && reload.stderr.contains("now serving the rebuilt \(image).new"),
            "\(reload.stderr)")
        #expect(try await gadget("down").status == 0)
        #expect(read("UDC").isEmpty)
        #expect(try await gadget("bogus").status == 2)
        let missing = try await gadget("up '\(configfs)/none.img'")
        #expect(missing.status == 1 && missing.stderr.contains("runway drive --image"))
    }
}
