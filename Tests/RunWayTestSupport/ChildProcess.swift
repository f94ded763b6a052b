import Foundation

/// What a child process said and how it ended.
public struct ChildOutput: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs `process` (configured, not started) to its end, capturing both streams. It blocks: from
/// an async test, call it through `offPool`.
public func runToEnd(_ process: Process) throws -> ChildOutput {
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read before waiting: a full pipe would otherwise block the child.
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ChildOutput(
        status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
        stderr: String(decoding: stderr, as: UTF8.self))
}

/// Runs `executable` with `arguments` to its end.
public func runToEnd(_ executable: String, _ arguments: [String]) throws -> ChildOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    return try runToEnd(process)
}
