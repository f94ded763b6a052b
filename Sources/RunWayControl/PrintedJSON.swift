import Foundation
import RunWayCore

extension JSONValue {
    /// The value as `runway status --json` (and `--watch --json`) has always printed runwayd's
    /// objects — they were re-rendered by Foundation's `JSONSerialization` with `.sortedKeys`,
    /// and scripts read those bytes (`Tests/Fixtures/control/cli-*`):
    ///
    /// - keys sorted as Foundation sorts them (numeric, case-insensitive, punctuation first);
    /// - `/` escaped as `\/`, other escapes as JSON's short ones, control characters `\u00XX`;
    /// - numbers as Swift writes a `Double`, less a trailing `.0` (`5000`, `1e+16`, `1e-05`).
    ///
    /// A non-finite number (none comes from the strict parser) prints the whole value as `{}`,
    /// as the failed serialization did.
    public func foundationSortedRendering() -> String {
        var out = ""
        guard Self.render(self, into: &out) else { return "{}" }
        return out
    }

    private static func render(_ value: JSONValue, into out: inout String) -> Bool {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n):
            guard n.isFinite else { return false }
            var text = n.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            out += text
        case .string(let s): quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                guard render(item, into: &out) else { return false }
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, item)) in sorted(members).enumerated() {
                if i > 0 { out += "," }
                quote(key, into: &out)
                out += ":"
                guard render(item, into: &out) else { return false }
            }
            out += "}"
        }
        return true
    }

    /// Foundation's `.sortedKeys` order (swift-corelibs-foundation's JSONSerialization); a key
    /// given twice cannot come from the parser, and the first was what a dictionary kept.
    private static func sorted(_ members: [(String, JSONValue)]) -> [(String, JSONValue)] {
        var seen: Set<String> = []
        let unique = members.filter { seen.insert($0.0).inserted }
        return unique.sorted { a, b in
            a.0.compare(
                b.0, options: [.numeric, .caseInsensitive, .forcedOrdering],
                range: a.0.startIndex..<a.0.endIndex,
                locale: NSLocale.system) == .orderedAscending
        }
    }

    /// A string as JSON writes it (`JSONValue`'s escapes), with Foundation's three of its own:
    /// `\/`, `\b` and `\f`.
    private static func quote(_ s: String, into out: inout String) {
        var plain = ""
        func flush() {
            guard !plain.isEmpty else { return }
            out += JSONValue.string(plain).rendered().dropFirst().dropLast()
            plain = ""
        }
        out += "\""
        for scalar in s.unicodeScalars {
            let escaped: String? =
                switch scalar {
                case "/": "\\/"
                case "\u{08}": "\\b"
                case "\u{0C}": "\\f"
                default: nil
                }
            if let escaped {
                flush()
                out += escaped
            } else {
                plain.unicodeScalars.append(scalar)
            }
        }
        flush()
        out += "\""
    }
}
