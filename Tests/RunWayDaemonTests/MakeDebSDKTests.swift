import Foundation
import RunWayTestSupport
import Testing

/// Issue 29: `make deb SWIFT_SDK=…` builds with `swift build --swift-sdk …` and packages for the
/// SDK's target architecture, not this machine's. No aarch64 Swift SDK can be had here, so the
/// script runs against a stand-in `swift` (SWIFT=…): `swift sdk list` names the SDKs it is told
/// to, and its `swift build` compiles a small C program per product with aarch64-linux-gnu-gcc
/// that prints the version, so everything after the Swift compiler runs for real: the ELF check,
/// the --version check under qemu-aarch64, aarch64's strip, dpkg-deb.
@Suite("make deb with a Swift SDK (a stand-in swift)", .serialized)
struct MakeDebSDKTests {
    static let root = DaemonEndToEndTests.root
    static let stub = #"""
        #!/bin/sh
        # A stand-in for swift: `sdk list` names $STUB_SDKS; `build` makes each product a C program
        # for aarch64 that says "PRODUCT $STUB_VERSION", in $STUB_DIR/bin (--show-bin-path).
        echo "$*" >> "$STUB_DIR/calls"
        if [ "$1" = sdk ] && [ "$2" = list ]; then
            if [ -n "$STUB_SDKS" ]; then printf '%s\n' $STUB_SDKS; else echo "No Swift SDKs are currently installed."; fi
            exit 0
        fi
        [ "$1" = build ] || exit 1
        product=
        while [ $# -gt 0 ]; do
            case $1 in
            --show-bin-path) echo "$STUB_DIR/bin"; exit 0 ;;
            --product) product=$2; shift ;;
            esac
            shift
        done
        mkdir -p "$STUB_DIR/bin"
        printf '#include <stdio.h>\nint main(void) { puts("%s %s"); return 0; }\n' "$product" "$STUB_VERSION" \
            > "$STUB_DIR/$product.c"
        exec aarch64-linux-gnu-gcc -O1 -o "$STUB_DIR/bin/$product" "$STUB_DIR/$product.c"
        """#

    /// Runs scripts/make-deb.sh with the stand-in swift (or `swift` when `real`), in a folder of its own.
    static func makeDeb(
        _ arguments: [String], sdks: [String] = [], environment extra: [String: String] = [:],
        real: Bool = false
    ) throws -> (output: ChildOutput, folder: String, calls: String) {
        let folder = NSTemporaryDirectory() + "make-deb-sdk-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let swift = folder + "/swift"
        try writeExecutable(stub, to: swift)
        let version = try runToEnd(root.appendingPathComponent("scripts/version.sh").path, [])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let process = Process()
        process.executableURL = root.appendingPathComponent("scripts/make-deb.sh")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "SWIFT_SDK")
        environment.removeValue(forKey: "DEB_ARCH")
        environment["SWIFT"] = real ? "swift" : swift
        environment["STUB_DIR"] = folder
        environment["STUB_SDKS"] = sdks.joined(separator: " ")
        environment["STUB_VERSION"] = version
        environment.merge(extra) { $1 }
        process.environment = environment
        let output = try runToEnd(process)
        let calls = (try? String(contentsOfFile: folder + "/calls", encoding: .utf8)) ?? ""
        return (output, folder, calls)
    }

    @Test("without the SDK installed: exit 2 and what to install, naming the SDK, before any build")
    func missingSDKSaysWhatToInstall() throws {
        for real in [false, true] {
            let run = try Self.makeDeb(
                ["--plan"], environment: ["SWIFT_SDK": "runway-test-no-such-sdk-aarch64"], real: real)
            defer { try? FileManager.default.removeItem(atPath: run.folder) }
            #expect(run.output.status == 2, "\(run.output.stdout) \(run.output.stderr)")
            #expect(
                run.output.stderr.contains(
                    #"no Swift SDK named "runway-test-no-such-sdk-aarch64" is installed"#))
            #expect(run.output.stderr.contains("swift sdk install"), "\(run.output.stderr)")
            #expect(run.output.stderr.contains("swift-sdk-generator"), "\(run.output.stderr)")
            #expect(!run.calls.contains("build"), "\(run.calls)")
        }
    }

    @Test("--plan: swift build gets --swift-sdk, the package is the target's architecture")
    func planNamesTheTargetArchitecture() throws {
        let cases = [
            ("aarch64-swift-linux-musl", "arm64"), ("6.0.3-RELEASE_debian_bookworm_aarch64", "arm64"),
            ("x86_64-swift-linux-musl", "amd64"), ("armv7-unknown-linux-gnueabihf", "armhf"),
        ]
        for (sdk, arch) in cases {
            for arguments in [
                ["--plan", "--swift-sdk", sdk, "out"], ["--plan", "--swift-sdk=\(sdk)", "out"],
            ] {
                let run = try Self.makeDeb(arguments, sdks: ["other", sdk])
                defer { try? FileManager.default.removeItem(atPath: run.folder) }
                #expect(run.output.status == 0, "\(sdk): \(run.output.stderr)")
                #expect(
                    run.output.stdout.contains("--static-swift-stdlib --swift-sdk \(sdk) --product runwayd"))
                #expect(run.output.stdout.contains("Architecture: \(arch) (the target of Swift SDK \(sdk))"))
                #expect(run.output.stdout.contains("package: out/runway_"), "\(run.output.stdout)")
                #expect(run.output.stdout.contains("_\(arch).deb"), "\(run.output.stdout)")
            }
        }
        // SWIFT_SDK in the environment is the same as --swift-sdk (make deb SWIFT_SDK=… passes it so).
        let run = try Self.makeDeb(
            ["--plan"], sdks: ["aarch64-swift-linux-musl"],
            environment: ["SWIFT_SDK": "aarch64-swift-linux-musl"])
        defer { try? FileManager.default.removeItem(atPath: run.folder) }
        #expect(
            run.output.stdout.contains("Architecture: arm64"), "\(run.output.stdout) \(run.output.stderr)")
    }

    @Test("an SDK whose name says no architecture needs DEB_ARCH; usage errors exit 2")
    func unnamedArchitectureAndUsage() throws {
        let bare = try Self.makeDeb(["--plan", "--swift-sdk", "pi-sdk"], sdks: ["pi-sdk"])
        defer { try? FileManager.default.removeItem(atPath: bare.folder) }
        #expect(
            bare.output.status == 2 && bare.output.stderr.contains("set DEB_ARCH"), "\(bare.output.stderr)")
        let told = try Self.makeDeb(
            ["--plan", "--swift-sdk", "pi-sdk"], sdks: ["pi-sdk"], environment: ["DEB_ARCH": "arm64"])
        defer { try? FileManager.default.removeItem(atPath: told.folder) }
        #expect(
            told.output.status == 0 && told.output.stdout.contains("Architecture: arm64"), "\(told.output)")
        for arguments in [["--swift-sdk"], ["--bogus"]] {
            let run = try Self.makeDeb(arguments)
            defer { try? FileManager.default.removeItem(atPath: run.folder) }
            #expect(run.output.status == 2, "\(arguments): \(run.output.stderr)")
            #expect(!run.calls.contains("build"))
        }
        let native = try Self.makeDeb(["--plan"])
        defer { try? FileManager.default.removeItem(atPath: native.folder) }
        #expect(
            native.output.status == 0 && !native.output.stdout.contains("--swift-sdk"), "\(native.output)")
    }

    @Test("the whole package for arm64 from a stand-in SDK: Architecture arm64, aarch64 binaries, stripped")
    func armPackageFromAStandInSDK() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/aarch64-linux-gnu-gcc") else {
            Issue.record(
                "no aarch64-linux-gnu-gcc: scripts/install-deps.sh cross (make test's cross-check installs it)"
            )
            return
        }
        let sdk = "6.0.3-RELEASE_debian_bookworm_aarch64"
        let out = NSTemporaryDirectory() + "make-deb-out-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let run = try Self.makeDeb(["--swift-sdk", sdk, out], sdks: [sdk])
        defer { try? FileManager.default.removeItem(atPath: run.folder) }
        #expect(run.output.status == 0, "\(run.output.stdout) \(run.output.stderr)")
        #expect(run.calls.contains("--swift-sdk \(sdk) --product runwayd"), "\(run.calls)")
        #expect(run.calls.contains("--swift-sdk \(sdk) --product runway\n"), "\(run.calls)")
        let deb = run.output.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(deb.hasPrefix(out + "/runway_") && deb.hasSuffix("_arm64.deb"), "\(deb)")
        let field = try runToEnd("/usr/bin/dpkg-deb", ["--field", deb, "Architecture"])
        #expect(field.stdout == "arm64\n", "\(field.stdout) \(field.stderr)")
        let tree = out + "/tree"
        #expect(try runToEnd("/usr/bin/dpkg-deb", ["--extract", deb, tree]).status == 0)
        for binary in ["runwayd", "runway"] {
            let header = try runToEnd("/usr/bin/readelf", ["-h", "-S", "\(tree)/usr/bin/\(binary)"])
            #expect(header.stdout.contains("AArch64"), "\(binary): \(header.stdout)")
            #expect(!header.stdout.contains(".symtab"), "\(binary) is not stripped")
        }
        // An SDK whose name says x86_64 but whose binaries are aarch64: refused, no package.
        let liar = try Self.makeDeb(
            ["--swift-sdk", "x86_64-swift-linux-musl", out + "/liar"], sdks: ["x86_64-swift-linux-musl"])
        defer { try? FileManager.default.removeItem(atPath: liar.folder) }
        #expect(
            liar.output.status == 1 && liar.output.stderr.contains("is built for AArch64"), "\(liar.output)")
        #expect(!FileManager.default.fileExists(atPath: out + "/liar"))
    }
}
