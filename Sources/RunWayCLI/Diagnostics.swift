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

    /// Text from a file (and the file's own name) can hold escape sequences and newlines: each
    /// control character is shown as `\xNN`, so a hostile file can neither forge lines nor drive
    /// the terminal.
    public var description: String {
        let file = Self.escaped(file)
        if let line { return "\(file):\(line): \(Self.escaped(message))" }
        return "\(file): \(Self.escaped(message))"
    }

    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
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
        if let said = error as? CLIError { return said }
        guard let error = error as? StoreError else { return CLIError("logbook \(path): \(error)") }
        if case .noLogbook = error { return CLIError("\(error)") }
        return CLIError(error.path == path ? "logbook \(error)" : "logbook \(path): \(error)")
    }

    public var description: String { message }
}

extension String {
    /// The text with its first letter in upper case (a sentence that starts with a word).
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
