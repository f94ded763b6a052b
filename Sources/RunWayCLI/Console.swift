import Foundation
import RunWayHardware
import RunWaySystem

/// Where commands write. Standard output for results, standard error for diagnostics.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    /// True when standard output is a terminal (progress can redraw one line).
    public var isTerminal: Bool
    /// True when standard error is a terminal: a progress line may be drawn there.
    public var errIsTerminal: Bool
    /// Set when the environment has a non-empty NO_COLOR (https://no-color.org).
    public var noColor: Bool
    /// Writes to standard error as it is, without a newline (the progress line).
    public var progress: @Sendable (String) -> Void

    public init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
        isTerminal: Bool,
        errIsTerminal: Bool = false, noColor: Bool = false,
        progress: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.progress = progress
        self.out = out
        self.err = err
        self.isTerminal = isTerminal
        self.errIsTerminal = errIsTerminal
        self.noColor = noColor
    }

    /// Colour and cursor movement on standard output: only on a terminal, never with NO_COLOR.
    public var styled: Bool { isTerminal && !noColor }
    /// The same for standard error (the progress line).
    public var errStyled: Bool { errIsTerminal && !noColor }

    /// Standard output and error through `write(2)`. SIGPIPE is ignored (`ProcessSignals`), so a
    /// reader that went away is an EPIPE: the command ends quietly with status 0, as
    /// `runway logbook | head -1` expects. Any other failure (a full device) is said once on
    /// standard error and ends the command with status 1 — never a crash.
    public static let standard: Console = {
        ProcessSignals.ignoreBrokenPipe()
        return Console(
            out: { StandardStream.write(text: $0 + "\n", to: STDOUT_FILENO) },
            err: { StandardStream.write(text: $0 + "\n", to: STDERR_FILENO) },
            isTerminal: isatty(STDOUT_FILENO) == 1, errIsTerminal: isatty(STDERR_FILENO) == 1,
            noColor: ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false,
            progress: { StandardStream.write(text: $0, to: STDERR_FILENO) })
    }()
}

/// The one place that writes to the process's standard streams.
enum StandardStream {
    static func write(text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        // Not `writeAll`: a stream left non-blocking by whoever shares it is written on after EAGAIN.
        while offset < bytes.count {
            do throws(Errno) {
                offset += try FileDescriptor(rawValue: fd).write(bytes[offset...])
            } catch  where error == .wouldBlock {
                continue
            } catch {
                fail(error, fd: fd)
            }
        }
        bytes.removeAll()
    }

    /// Ends the process: quietly when the reader is gone, with one sentence otherwise.
    static func fail(_ error: Errno, fd: Int32) -> Never {
        if error == .brokenPipe { exit(0) }
        if fd != STDERR_FILENO {
            let name = fd == STDOUT_FILENO ? "standard output" : "fd \(fd)"
            try? FileDescriptor.standardError.writeAll(
                Array("runway: cannot write to \(name): \(error)\n".utf8))
        }
        exit(1)
    }
}
