import Foundation
import Testing

/// A real gpsd fed by `gpsfake` on a free loopback port (never 2947), as the tests need it.
///
/// gpsd flushes a device's input when it opens it, and gpsfake writes as fast as gpsd reads, so a
/// client that connects after the feed began would miss the start of the log. Started with `-n`,
/// gpsd opens the device as soon as gpsfake adds it; a lead-in of `$GPTXT` sentences (no
/// position, no time) then gives the client time to watch before the log proper begins: 1000
/// sentences, 2 s (room for a slow, loaded CI machine), because gpsfake is told to pause 2 ms
/// after each sentence (WRITE_PAD; `cycle` sets a pace of its own). gpsfake's own pause on Linux
/// is 0, which made the lead-in a few milliseconds: a client on a loaded machine once missed a
/// run's first 40 fixes.
public final class GPSFake: @unchecked Sendable {
    // Mutable state is touched only by the test that owns the instance.
    public let port: UInt16
    let process: Process
    let logPath: String

    public static let leadIn: String = {
        let body = "GPTXT,01,01,02,RunWay lead-in"
        var checksum: UInt8 = 0
        for byte in body.utf8 { checksum ^= byte }
        return String(repeating: "$\(body)*\(String(format: "%02X", checksum))\r\n", count: 1000)
    }()

    /// gpsfake's pause after each sentence, in seconds, when no `cycle` is given.
    public static let sentencePause = 0.002

    /// - Parameter cycle: seconds between sentences (gpsfake's `-c`); nil leaves gpsfake's pace.
    public init(log: String, extraLeadIn: Bool = true, port: UInt16? = nil, cycle: Double? = nil) throws {
        for tool in ["gpsfake", "gpsd"] {
            let found = ["/usr/bin/\(tool)", "/usr/sbin/\(tool)"].contains {
                FileManager.default.isExecutableFile(atPath: $0)
            }
            try #require(found, "\(tool) is missing: make test installs gpsd and gpsd-clients")
        }
        self.port = try port ?? Self.freePort()
        logPath = NSTemporaryDirectory() + "runway-gpsfake-\(UUID().uuidString).log"
        let body = try String(contentsOfFile: log, encoding: .utf8)
        try ((extraLeadIn ? Self.leadIn : "") + body).write(
            toFile: logPath, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gpsfake")
        process.arguments =
            ["-1", "-q", "-n", "-P", String(self.port)] + (cycle.map { ["-c", String($0)] } ?? []) + [logPath]
        var environment = ProcessInfo.processInfo.environment
        environment["WRITE_PAD"] = String(Self.sentencePause)
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Kills gpsfake and the gpsd it started. With `-n`, gpsfake neither exits at the end of its
    /// log nor honours SIGTERM, so it gets SIGKILL; tests judge "done" by what the client
    /// delivered, never by gpsfake exiting.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        Self.killDaemons(port: port)
        try? FileManager.default.removeItem(atPath: logPath)
    }

    /// Kills the gpsd serving `port` (gpsfake's child), as a crash would.
    public static func killDaemons(port: UInt16) {
        let pkill = Process()
        pkill.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
        pkill.arguments = ["-KILL", "-f", "gpsd .*-S \(port)"]
        try? pkill.run()
        pkill.waitUntilExit()
    }

    deinit { stop() }

    /// A port the kernel just handed out on loopback, released for gpsd to take.
    public static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        try #require(bound, "no free loopback port")
        return UInt16(bigEndian: address.sin_port)
    }
}
