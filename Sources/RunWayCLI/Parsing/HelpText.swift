/// `--help`, usage lines and the command list, made from the declarations.
enum HelpText {
    static let width = 100

    /// `usage: runway NAME ARGS [OPTIONS]`, wrapped under the command's name.
    static func usage(_ d: CommandDeclaration) -> String {
        let head = "usage: runway \(d.name)"
        let words = d.arguments.map(\.synopsis) + d.options.map(\.synopsis)
        return wrap(words, first: head, indent: String(repeating: " ", count: head.count + 1))
    }

    /// One command's whole help.
    static func help(_ d: CommandDeclaration) -> String {
        var lines = [paragraph("runway \(d.name): \(d.abstract)", indent: "  ", first: ""), "", usage(d)]
        if !d.discussion.isEmpty {
            lines.append("")
            lines.append(paragraph(d.discussion, indent: ""))
        }
        if !d.arguments.isEmpty {
            lines += ["", "arguments:"] + table(d.arguments.map { ($0.name, $0.help) })
        }
        if !d.options.isEmpty {
            lines +=
                ["", "options:"]
                + table(
                    d.options.map { option in
                        (option.value.map { "\(option.name) \($0)" } ?? option.name, option.help)
                    })
        }
        if !d.examples.isEmpty {
            lines += ["", "examples:"] + d.examples.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// The top-level help: every command by group, with its abstract.
    static func commandList(_ declarations: [CommandDeclaration]) -> String {
        var lines = [
            "usage: runway COMMAND [ARGUMENTS] [OPTIONS]",
            "",
            "The running tracker's command line. 'runway help COMMAND' (or 'runway COMMAND --help')",
            "shows one command's options and an example.",
        ]
        let nameWidth = (declarations.map(\.name.count).max() ?? 0) + 2
        for group in CommandDeclaration.Group.allCases {
            let members = declarations.filter { $0.group == group }
            guard !members.isEmpty else { continue }
            lines += ["", "\(group.rawValue):"]
            for d in members {
                lines.append(
                    paragraph(
                        d.abstract, indent: String(repeating: " ", count: nameWidth + 2),
                        first: "  " + d.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)))
            }
        }
        lines += [
            "",
            paragraph(
                "Local times are shown in --tz ZONE (an IANA name: Asia/Seoul) or --utc-offset ±H[:MM], else the configuration's time_zone (--config FILE, default /etc/runway/runway.json), else the system's (TZ, /etc/localtime), each with its label; JSON stays in UTC with utc_offset_s. Without --logbook, commands use the configuration's logbook (/var/lib/runway/logbook.sqlite).",
                indent: ""),
            "",
            paragraph(
                "Exit status: 0 done, 1 failed (said on standard error), 2 the command line was wrong. Colour and cursor movement only on a terminal, never with NO_COLOR set.",
                indent: ""),
        ]
        return lines.joined(separator: "\n")
    }

    /// Two columns: the name, then its help wrapped beside it.
    static func table(_ rows: [(String, String)]) -> [String] {
        let nameWidth = min((rows.map(\.0.count).max() ?? 0) + 2, 26)
        return rows.map { name, help in
            let first = "  " + name
            let indent = String(repeating: " ", count: nameWidth + 2)
            if first.count + 1 >= indent.count {
                return first + "\n" + paragraph(help, indent: indent)
            }
            return paragraph(
                help, indent: indent,
                first: first.padding(toLength: indent.count, withPad: " ", startingAt: 0))
        }
    }

    /// Words wrapped at `width`, each line after the first indented; a line of its own in the
    /// text stays a line.
    static func paragraph(_ text: String, indent: String, first: String? = nil) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { i, line in
            wrap(
                line.split(separator: " ").map(String.init), first: i == 0 ? (first ?? indent) : indent,
                indent: indent)
        }.joined(separator: "\n")
    }

    private static func wrap(_ words: [String], first: String, indent: String) -> String {
        var lines: [String] = []
        var line = first
        for word in words {
            let fresh = line.last == nil || line.last == " "
            if !fresh && line.count + 1 + word.count > width {
                lines.append(line)
                line = indent + word
            } else {
                line += (fresh ? "" : " ") + word
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
