// swift-tools-version:6.0
import PackageDescription

/// Every target builds in Swift 6 language mode with warnings treated as errors,
/// so strict-concurrency diagnostics can never pile up unnoticed.
let strict: [SwiftSetting] = [
    .unsafeFlags(["-warnings-as-errors"])
]

let package = Package(
    name: "RunWayCore",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "runway", targets: ["runway"]),
        .executable(name: "runway-bench", targets: ["runway-bench"]),
        .library(name: "RunWayCore", targets: ["RunWayCore"]),
    ],
    targets: [
        .target(name: "RunWayCore", swiftSettings: strict),
        .systemLibrary(name: "CLinux"),
        // The one system layer: errno, file descriptors, poll/eventfd, the monotonic clock,
        // threads and executors (see docs/ARCHITECTURE.md).
        .target(name: "RunWaySystem", dependencies: ["CLinux"], swiftSettings: strict),
        // The control socket's typed contract, imported by both `runway` and `runwayd`.
        // (RunWayHardware for the configuration's button and gpsd types.)
        .target(
            name: "RunWayControl", dependencies: ["RunWayCore", "RunWayHardware"], swiftSettings: strict),
        .systemLibrary(name: "CGPS", pkgConfig: "libgps", providers: [.apt(["libgps-dev"])]),
        // libi2c-dev ships no pkg-config file: the modulemap links -li2c itself.
        .systemLibrary(name: "CI2C", providers: [.apt(["libi2c-dev"])]),
        .systemLibrary(name: "CGpiod", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // The voice: speech from libespeak-ng (both languages) and flite (English), played
        // through ALSA. The two engines' headers only: their libraries are loaded when a voice
        // first needs them (RunWayVoice's SharedLibrary), not linked (no pkgConfig, no `link`).
        .systemLibrary(name: "CEspeakNG", providers: [.apt(["libespeak-ng-dev"])]),
        .systemLibrary(name: "CFlite", providers: [.apt(["flite1-dev"])]),
        .systemLibrary(name: "CAlsa", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .target(
            name: "RunWayStore", dependencies: ["RunWayCore", "RunWaySystem", "CSQLite", "CZlib"],
            swiftSettings: strict),
        .target(
            name: "RunWayHardware", dependencies: ["RunWayCore", "RunWaySystem", "CGPS", "CI2C", "CGpiod"],
            swiftSettings: strict),
        .target(
            name: "RunWayVoice",
            dependencies: ["RunWayCore", "RunWayHardware", "RunWaySystem", "CEspeakNG", "CFlite", "CAlsa"],
            swiftSettings: strict),
        // Bluetooth LE sensors (heart-rate straps, footpods) through BlueZ over D-Bus (sd-bus).
        .target(
            name: "RunWayBluetooth", dependencies: ["RunWayCore", "RunWaySystem", "CSystemd"],
            swiftSettings: strict),
        .target(
            name: "RunWaySimulator", dependencies: ["RunWayCore", "RunWaySystem"], swiftSettings: strict),
        .target(
            name: "RunWayExport", dependencies: ["RunWayCore", "RunWayStore", "RunWaySystem", "CLinux"],
            resources: [
                .embedInCode("Viewer/index.html"), .embedInCode("Viewer/runway-viewer.js"),
                .embedInCode("Viewer/runway-viewer.css"), .embedInCode("Viewer/runway-map.js"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "RunWayCLI",
            dependencies: [
                "RunWayCore", "RunWaySimulator", "RunWayHardware", "RunWayStore", "RunWayExport",
                "RunWaySystem",
                "RunWayControl", "RunWayVoice",
            ],
            swiftSettings: strict),
        .target(
            name: "RunWayDaemon",
            dependencies: [
                "RunWayCore", "RunWayHardware", "RunWayStore", "RunWaySimulator", "RunWaySystem",
                "RunWayControl", "RunWayVoice", "RunWayBluetooth",
                "CSystemd",
            ],
            swiftSettings: strict),
        .executableTarget(name: "runway", dependencies: ["RunWayCLI"], swiftSettings: strict),
        // runwayd's release link (issue 29: its RSS): lld, with the relative relocations packed
        // (DT_RELR, glibc 2.36 and later: Debian 12, what the .deb depends on). Linked by gold, the
        // statically linked runwayd carried 1.8 MiB of RELA entries, every page of them read at
        // start and kept mapped; packed, they are 15 KiB, and lld's layout faults in less of the
        // text around what runs: 3.0 MiB less RSS in flight, measured.
        .executableTarget(
            name: "runwayd", dependencies: ["RunWayDaemon"], swiftSettings: strict,
            linkerSettings: [
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                    .when(configuration: .release))
            ]),
        .executableTarget(
            name: "runway-bench",
            dependencies: [
                "RunWayCore", "RunWaySimulator", "RunWayCLI", "RunWayHardware", "RunWayStore", "RunWayDaemon",
                "RunWayExport", "RunWaySystem", "RunWayControl", "RunWayVoice",
            ],
            swiftSettings: strict),
        .executableTarget(name: "runway-fuzz", dependencies: ["RunWayCLI"], swiftSettings: strict),
        // Test helpers shared by test targets (a real gpsd fed by gpsfake).
        .target(name: "RunWayTestSupport", path: "Tests/RunWayTestSupport", swiftSettings: strict),
        .testTarget(
            name: "RunWayDaemonTests",
            dependencies: [
                "RunWayDaemon", "RunWayCore", "RunWayHardware", "RunWayStore", "RunWaySimulator", "RunWayCLI",
                "RunWaySystem", "RunWayControl", "RunWayTestSupport", "RunWayVoice", "RunWayBluetooth",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "RunWayVoiceTests",
            dependencies: [
                "RunWayVoice", "RunWayCore", "RunWayHardware", "RunWaySimulator", "RunWaySystem",
                "RunWayTestSupport",
            ],
            resources: [.copy("../Fixtures")], swiftSettings: strict),
        .testTarget(name: "RunWaySystemTests", dependencies: ["RunWaySystem"], swiftSettings: strict),
        .testTarget(
            name: "RunWayBluetoothTests",
            dependencies: ["RunWayBluetooth", "RunWayCore", "RunWaySystem", "RunWayTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "RunWayControlTests", dependencies: ["RunWayControl", "RunWayCore"],
            resources: [.copy("../Fixtures")], swiftSettings: strict),
        .testTarget(
            name: "RunWayCoreTests", dependencies: ["RunWayCore", "RunWaySimulator", "RunWaySystem"],
            swiftSettings: strict),
        // The simulator's own models (what the bench's conditions are made of) and the golden that
        // keeps every existing scenario's output unchanged for its seed.
        .testTarget(
            name: "RunWaySimulatorTests", dependencies: ["RunWaySimulator", "RunWayCore", "RunWayExport"],
            swiftSettings: strict),
        .testTarget(
            name: "RunWayStoreTests",
            dependencies: ["RunWayStore", "RunWayCore", "RunWaySimulator", "RunWayTestSupport"],
            resources: [.copy("../Fixtures")],
            swiftSettings: strict),
        .testTarget(
            name: "RunWayHardwareTests",
            // The C modules themselves too, for ABITableTests (what Swift sees of each shim).
            dependencies: [
                "RunWayHardware", "RunWayCore", "RunWayCLI", "RunWaySystem", "RunWayTestSupport",
                "CLinux", "CGPS", "CI2C", "CGpiod", "CSQLite", "CZlib", "CSystemd", "CEspeakNG", "CFlite",
                "CAlsa",
            ],
            resources: [.copy("../Fixtures")],
            swiftSettings: strict),
        .testTarget(
            name: "RunWayExportTests",
            dependencies: [
                "RunWayExport", "RunWayCore", "RunWaySimulator", "RunWayStore", "RunWayTestSupport",
            ],
            resources: [.copy("../Fixtures")],
            swiftSettings: strict),
        .testTarget(
            name: "RunWayCLITests",
            dependencies: [
                "RunWayCLI", "RunWayCore", "RunWaySimulator", "RunWayStore", "RunWayHardware",
                "RunWayTestSupport", "RunWayControl",
            ],
            resources: [.copy("../Fixtures")],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
