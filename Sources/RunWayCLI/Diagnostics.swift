import RunWayStore

/// A problem with one line of an input file: said plainly, with where it is.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

/// A failure that ends a command: one sentence, and the exit status it deserves.
public struct CLIError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// 1: the command could not do its work; 2: the command line was wrong.
    public var exitCode: Int32

    public init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }

    public static func usage(_ message: String) -> CLIError { CLIError(message, exitCode: 2) }

    /// A logbook failure, naming the logbook once.
    static func logbook(_ path: String, _ error: any Error) -> CLIError {
        CLIError((error as? StoreError)?.context == path ? "logbook \(error)" : "logbook \(path): \(error)")
    }

    public var description: String { message }
}
