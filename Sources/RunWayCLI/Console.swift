import Foundation

/// Where commands write. Standard output for results, standard error for diagnostics.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    /// True when standard output is a terminal (progress can redraw one line).
    public var isTerminal: Bool

    public init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, isTerminal: Bool
    ) {
        self.out = out
        self.err = err
        self.isTerminal = isTerminal
    }

    public static let standard = Console(
        out: { text in
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        },
        err: { text in
            FileHandle.standardError.write(Data((text + "\n").utf8))
        },
        isTerminal: isatty(STDOUT_FILENO) == 1)
}
