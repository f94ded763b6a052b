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

/// Writes `text` as a new executable file at `path` (mode 0755, which must not exist yet).
///
/// The descriptor is opened close-on-exec. Tests run in parallel, and any child another test
/// starts while a write descriptor is open inherits it: Foundation's `write(toFile:atomically:)`
/// writes through `mkstemp`, whose descriptor is not close-on-exec, so a child started in that
/// moment kept the file open for writing for its whole life and running the script failed with
/// ETXTBSY ("Text file busy": CI, stop 43). Close-on-exec ends the inherited copy at the child's
/// exec, microseconds after its fork.
public func writeExecutable(_ text: String, to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(fd) }
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        bytes = bytes.dropFirst(written)
    }
}
