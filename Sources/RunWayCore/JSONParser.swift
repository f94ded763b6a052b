/// JSON from outside (the control socket, the configuration, runwayd's replies), read strictly:
/// RFC 8259 and nothing more, each object key once (`{"command":"status","command":"stop"}` is
/// refused, not read as either), numbers finite, nesting bounded, strings valid UTF-8 without raw
/// control characters. Total: any bytes give a value or a `ParseError`, in one pass.
extension JSONValue {
    /// Why bytes are not one JSON value; `offset` counts bytes from the start.
    public enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case unexpectedEnd
        case unexpected(byte: UInt8, offset: Int)
        case duplicateKey(String, offset: Int)
        case tooDeep(limit: Int)
        case numberOutOfRange(String)
        case controlCharacterInString(offset: Int)
        case badEscape(offset: Int)
        case notUTF8(offset: Int)
        case trailing(offset: Int)

        public var description: String {
            switch self {
            case .empty: "no JSON value (the input is empty)"
            case .unexpectedEnd: "the JSON ends in the middle of a value"
            case .unexpected(let byte, let offset):
                "unexpected \(Self.show(byte)) at byte \(offset)"
            case .duplicateKey(let key, let offset):
                "\"\(JSONValue.string(key).rendered().dropFirst().dropLast())\" is given twice (again at byte \(offset)): give each key once"
            case .tooDeep(let limit): "nested more than \(limit) deep"
            case .numberOutOfRange(let text):
                "the number \(text.prefix(40))\(text.count > 40 ? "…" : "") is too large for any field"
            case .controlCharacterInString(let offset):
                "a raw control character in a string at byte \(offset) (write it as \\u00XX)"
            case .badEscape(let offset): "a bad escape in a string at byte \(offset)"
            case .notUTF8(let offset): "bytes that are not UTF-8 in a string at byte \(offset)"
            case .trailing(let offset): "more after the JSON value, at byte \(offset)"
            }
        }

        static func show(_ byte: UInt8) -> String {
            (0x21...0x7E).contains(byte)
                ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        }
    }

    /// Objects and arrays nested deeper than this are refused (no client's request nests more
    /// than three; the limit keeps the parser's recursion far from the stack's end).
    public static let maxDepth = 64

    public static func parse(_ bytes: some Collection<UInt8>) throws(ParseError) -> JSONValue {
        var parser = JSONParser(bytes: Array(bytes))
        return try parser.document()
    }

    /// The member named `key` of an object; nil for anything else.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// True or false only: `1`, `"true"` and `null` are not booleans.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var numberValue: Double? { if case .number(let n) = self { n } else { nil } }
    public var isNull: Bool { self == .null }
}

struct JSONParser {
    typealias ParseError = JSONValue.ParseError
    let bytes: [UInt8]
    var i = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() throws(ParseError) -> JSONValue {
        skipSpace()
        guard i < bytes.count else { throw .empty }
        let value = try self.value(depth: 0)
        skipSpace()
        guard i == bytes.count else { throw .trailing(offset: i) }
        return value
    }

    mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
            i += 1
        }
    }

    func peek() throws(ParseError) -> UInt8 {
        guard i < bytes.count else { throw .unexpectedEnd }
        return bytes[i]
    }

    mutating func expect(_ word: String, _ value: JSONValue) throws(ParseError) -> JSONValue {
        for byte in word.utf8 {
            guard try peek() == byte else { throw .unexpected(byte: bytes[i], offset: i) }
            i += 1
        }
        return value
    }

    mutating func value(depth: Int) throws(ParseError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case let byte: throw .unexpected(byte: byte, offset: i)
        }
    }

    mutating func object(depth: Int) throws(ParseError) -> JSONValue {
        var members: [(String, JSONValue)] = []
        var keys: Set<String> = []
        var more = try opened(closedBy: UInt8(ascii: "}"), depth: depth)
        while more {
            skipSpace()
            let at = i
            guard try peek() == UInt8(ascii: "\"") else { throw .unexpected(byte: bytes[i], offset: i) }
            let key = try string()
            guard keys.insert(key).inserted else { throw .duplicateKey(key, offset: at) }
            skipSpace()
            guard try peek() == UInt8(ascii: ":") else { throw .unexpected(byte: bytes[i], offset: i) }
            i += 1
            skipSpace()
            members.append((key, try value(depth: depth)))
            more = try continues(closedBy: UInt8(ascii: "}"))
        }
        return .object(members)
    }

    mutating func array(depth: Int) throws(ParseError) -> JSONValue {
        var items: [JSONValue] = []
        var more = try opened(closedBy: UInt8(ascii: "]"), depth: depth)
        while more {
            skipSpace()
            items.append(try value(depth: depth))
            more = try continues(closedBy: UInt8(ascii: "]"))
        }
        return .array(items)
    }

    /// Steps into the `{` or `[` of an object or array at `depth`: false when `close` follows at
    /// once (it is empty, and stepped past), true when a first element comes.
    mutating func opened(closedBy close: UInt8, depth: Int) throws(ParseError) -> Bool {
        guard depth <= JSONValue.maxDepth else { throw .tooDeep(limit: JSONValue.maxDepth) }
        i += 1
        skipSpace()
        guard try peek() != close else {
            i += 1
            return false
        }
        return true
    }

    /// After an element: true past a `,` (another comes), false past `close` (the end).
    mutating func continues(closedBy close: UInt8) throws(ParseError) -> Bool {
        skipSpace()
        let byte = try peek()
        guard byte == UInt8(ascii: ",") || byte == close else { throw .unexpected(byte: byte, offset: i) }
        i += 1
        return byte == UInt8(ascii: ",")
    }

    /// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, finite as a Double.
    mutating func number() throws(ParseError) -> Double {
        let start = i
        func digits(_ parser: inout JSONParser) throws(ParseError) -> Int {
            let from = parser.i
            while parser.i < parser.bytes.count, (48...57).contains(parser.bytes[parser.i]) { parser.i += 1 }
            guard parser.i > from else {
                guard parser.i < parser.bytes.count else { throw .unexpectedEnd }
                throw .unexpected(byte: parser.bytes[parser.i], offset: parser.i)
            }
            return parser.i - from
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        let leadingZero = i < bytes.count && bytes[i] == UInt8(ascii: "0")
        let whole = try digits(&self)
        if leadingZero && whole > 1 { throw .unexpected(byte: bytes[i - whole + 1], offset: i - whole + 1) }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            _ = try digits(&self)
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            _ = try digits(&self)
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw .numberOutOfRange(text) }
        return value
    }

    /// A string at `i` (its opening quote), escapes decoded, as UTF-8 checked text.
    mutating func string() throws(ParseError) -> String {
        let opening = i
        i += 1
        var out: [UInt8] = []
        while true {
            let byte = try peek()
            switch byte {
            case UInt8(ascii: "\""):
                i += 1
                guard let text = String(validating: out, as: UTF8.self) else {
                    throw .notUTF8(offset: opening)
                }
                return text
            case UInt8(ascii: "\\"):
                i += 1
                try escape(into: &out)
            case 0..<0x20: throw .controlCharacterInString(offset: i)
            default:
                out.append(byte)
                i += 1
            }
        }
    }

    mutating func escape(into out: inout [UInt8]) throws(ParseError) {
        let at = i - 1
        let byte = try peek()
        i += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
            UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D,
            UInt8(ascii: "t"): 0x09,
        ]
        if let decoded = simple[byte] {
            out.append(decoded)
            return
        }
        guard byte == UInt8(ascii: "u") else { throw .badEscape(offset: at) }
        var code = try hex4(at: at)
        if (0xD800..<0xDC00).contains(code) {
            // A high surrogate must be followed by an escaped low one.
            guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u")
            else {
                throw .badEscape(offset: at)
            }
            i += 2
            let low = try hex4(at: at)
            guard (0xDC00..<0xE000).contains(low) else { throw .badEscape(offset: at) }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(code) {
            throw .badEscape(offset: at)
        }
        guard let scalar = Unicode.Scalar(code) else { throw .badEscape(offset: at) }
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    mutating func hex4(at escape: Int) throws(ParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw .unexpectedEnd }
        var value: UInt32 = 0
        for byte in bytes[i..<(i + 4)] {
            let digit: UInt8
            switch byte {
            case 48...57: digit = byte - 48
            case 65...70: digit = byte - 55
            case 97...102: digit = byte - 87
            default: throw .badEscape(offset: escape)
            }
            value = value * 16 + UInt32(digit)
        }
        i += 4
        return value
    }
}
