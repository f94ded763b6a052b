import Foundation
import RunWayTestSupport
import Testing

/// Runs the built `runway` executable, as a user or a script would.
struct RunWayBinary {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var executable: URL {
        for config in ["debug", "release"] {
            let url = root.appendingPathComponent(".build/\(config)/runway")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return root.appendingPathComponent(".build/debug/runway")
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `runway` with `arguments`; with `fileSizeLimit` (bytes) under `ulimit -f`, so a
    /// write past it fails with EFBIG — a card that is all but full. (The shell is `/bin/sh`,
    /// dash, whose `ulimit -f` counts 512-byte blocks.)
    static func run(_ arguments: [String], fileSizeLimit: Int? = nil) throws -> Output {
        let process = Process()
        if let fileSizeLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                [
                    "-c", "trap '' XFSZ; ulimit -f \(fileSizeLimit / 512); exec \"$0\" \"$@\"",
                    executable.path,
                ]
                + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        return try collect(process)
    }

    /// Runs `process` to its end, capturing both streams.
    private static func collect(_ process: Process) throws -> Output {
        let output = try runToEnd(process)
        return Output(status: output.status, stdout: output.stdout, stderr: output.stderr)
    }

    /// Runs a bash script in which `$RUNWAY` is the built executable: pipes, FIFOs, redirections.
    static func shell(_ script: String) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        var environment = ProcessInfo.processInfo.environment
        environment["RUNWAY"] = executable.path
        process.environment = environment
        return try collect(process)
    }

    static func fixture(_ name: String) throws -> String {
        let url = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/traces/\(name)"))
        return url.path
    }

    /// A temporary file with `contents`.
    static func temporary(_ contents: String, suffix: String) throws -> String {
        let path = NSTemporaryDirectory() + "runway-test-\(UUID().uuidString)\(suffix)"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `run`, off Swift's cooperative pool: an async test that waits for a child process must not
    /// hold one of the pool's few threads (on 2 cores, two such waits starve every other test's
    /// tasks, the daemon tests' timers among them).
    static func run(_ arguments: [String], fileSizeLimit: Int? = nil) async throws -> Output {
        try await offPool { try run(arguments, fileSizeLimit: fileSizeLimit) }
    }

    /// `shell`, off the cooperative pool.
    static func shell(_ script: String) async throws -> Output {
        try await offPool { try shell(script) }
    }
}
