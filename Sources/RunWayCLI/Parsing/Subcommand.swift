/// One `runway` command: what it takes (its declaration), read from a parsed command line into
/// typed values (`init`), then run. Usage errors thrown by either are shown with the command's
/// usage.
protocol Subcommand: Sendable {
    static var declaration: CommandDeclaration { get }
    init(_ arguments: ParsedArguments) throws(CLIError)
    func run(console: Console) async throws(CLIError) -> Int32
}
