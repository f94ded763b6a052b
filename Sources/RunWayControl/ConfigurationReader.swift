import Foundation
import RunWayCore

/// Walks the JSON with the key path in hand.
struct Reader {
    typealias Problem = DaemonConfiguration.Problem
    let value: JSONValue
    let path: String

    func child(_ key: String, _ value: JSONValue) -> Reader {
        Reader(value: value, path: path.isEmpty ? key : "\(path).\(key)")
    }

    func fail(_ expected: String) -> Problem {
        Problem(path: path, message: "expected \(expected), got \(Self.describe(value))")
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .array: "a list"
        case .object: "an object"
        default: value.rendered()  // a string quoted, its control characters escaped
        }
    }

    /// The object's keys (each once: the parser refuses a second), refusing any not in `known`.
    func object(known: [String]) throws(Problem) -> [String: Reader] {
        guard case .object(let members) = value else { throw fail("an object") }
        var result: [String: Reader] = [:]
        for (key, value) in members {
            guard known.contains(key) else {
                let at = path.isEmpty ? key : "\(path).\(key)"
                throw Problem(path: at, message: "unknown key (known here: \(known.joined(separator: ", ")))")
            }
            result[key] = child(key, value)
        }
        return result
    }

    var isNull: Bool { value.isNull }

    /// A JSON number (not a string, not true/false) inside `range`, checked before any use.
    func number(_ expected: String, in range: ClosedRange<Double>) throws(Problem) -> Double {
        guard let n = value.numberValue, range.contains(n) else { throw fail(expected) }
        return n
    }

    func whole(_ expected: String, in range: ClosedRange<Int>) throws(Problem) -> Int {
        let n = try number(expected, in: Double(range.lowerBound)...Double(range.upperBound))
        guard n == n.rounded() else { throw fail(expected) }
        return Int(n)
    }

    /// A non-empty string without control characters: a NUL would cut a path short at the C
    /// boundary (another file), a newline would split a log line.
    func string(_ expected: String) throws(Problem) -> String {
        guard let s = value.stringValue, !s.isEmpty else { throw fail(expected) }
        if let bad = s.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw Problem(
                path: path,
                message:
                    "expected \(expected), got \(Self.describe(value)), which holds the control character U+\(UTCTime.pad(Int(bad.value), 4))"
            )
        }
        return s
    }

    func bool(_ expected: String) throws(Problem) -> Bool {
        guard let b = value.boolValue else { throw fail(expected) }
        return b
    }

    static let gpioLine = "a GPIO line 0–53"
}
