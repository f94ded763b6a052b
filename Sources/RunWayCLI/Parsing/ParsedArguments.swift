/// One command line read against its command's declaration: options in any order with the
/// positionals, `--name value` or `--name=value`, and `--` ending the options. Anything the
/// declaration does not name is a usage error that names it.
public struct ParsedArguments: Sendable {
    public let declaration: CommandDeclaration
    private var values: [String: String] = [:]
    private var flags: Set<String> = []
    private var positionals: [String] = []
    /// True when `--help` or `-h` was among the options.
    public private(set) var wantsHelp = false

    public init(_ arguments: [String], for declaration: CommandDeclaration) throws(CLIError) {
        self.declaration = declaration
        var rest = arguments[...]
        var optionsEnded = false
        while let argument = rest.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                wantsHelp = true
                continue
            }
            if !argument.hasPrefix("--"), argument.dropFirst().allSatisfy({ $0.isNumber || $0 == "." }) {
                positionals.append(argument)  // a negative number
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard let option = declaration.option(named: name) else {
                throw .usage(Self.unknown(name, in: declaration))
            }
            if values[name] != nil || flags.contains(name) { throw .usage("\(name) is given twice") }
            if option.isFlag {
                if parts.count == 2 { throw .usage("\(name) takes no value") }
                flags.insert(name)
                continue
            }
            if parts.count == 2 {
                values[name] = String(parts[1])
                continue
            }
            // `fly --gps --json` means a forgotten file name, not a file called --json (a value
            // that really starts with -- can be given as --gps=--name).
            guard let value = rest.popFirst() else {
                throw .usage("\(name) needs a value (\(option.value!))")
            }
            if value.hasPrefix("--") { throw .usage("\(name) needs a value, not the option \(value)") }
            values[name] = value
        }
        if wantsHelp { return }
        let allowed = declaration.arguments.count
        if positionals.count > allowed {
            let extra = positionals[allowed]
            throw .usage(
                allowed == 0
                    ? "\(declaration.name) takes no arguments, not \"\(extra)\""
                    : "unexpected argument \"\(extra)\"")
        }
        for option in declaration.options where option.required && values[option.name] == nil {
            throw .usage("\(declaration.name) needs \(option.name) \(option.value ?? "")")
        }
        for (i, argument) in declaration.arguments.enumerated()
        where argument.required && i >= positionals.count {
            throw .usage("\(declaration.name) needs \(argument.name): \(argument.help)")
        }
    }

    /// An option's value, or nil when it was not given.
    public func value(_ name: String) -> String? {
        precondition(declaration.option(named: name)?.isFlag == false, "\(name) is not a declared option")
        return values[name]
    }

    /// Whether a flag was given.
    public func flag(_ name: String) -> Bool {
        precondition(declaration.option(named: name)?.isFlag == true, "\(name) is not a declared flag")
        return flags.contains(name)
    }

    /// The positional argument declared as `name`, or nil when it was not given.
    public func argument(_ name: String) -> String? {
        guard let i = declaration.arguments.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("\(name) is not a declared argument")
        }
        return i < positionals.count ? positionals[i] : nil
    }

    /// "unknown option --x", with the nearest declared one when a letter or two is off.
    static func unknown(_ name: String, in declaration: CommandDeclaration) -> String {
        let said = "\(declaration.name) has no option \(Diagnostic.escaped(name))"
        let near = declaration.options.map(\.name).min { distance($0, name) < distance($1, name) }
        guard let near, distance(near, name) <= 2 else { return said }
        return said + "; did you mean \(near)?"
    }

    /// Levenshtein distance, for "did you mean".
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let old = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = old
            }
        }
        return row[b.count]
    }
}
