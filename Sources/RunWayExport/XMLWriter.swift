import RunWayCore

/// UTF-8 XML built into one byte buffer: elements, escaped text, and numbers written with a
/// fixed count of decimals straight from integers (no formatter, no locale: a decimal point is
/// always `.`). Fast enough to write a day-long track in well under a second.
struct XMLWriter {
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
        raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
    }

    mutating func raw(_ text: String) {
        bytes += text.utf8
    }

    /// `<name>escaped text</name>`.
    mutating func element(_ name: String, _ text: String) {
        raw("<\(name)>")
        escaped(text)
        raw("</\(name)>")
    }

    /// `<name>value</name>` with `decimals` digits after the point.
    mutating func element(_ name: String, _ value: Double, decimals: Int) {
        raw("<\(name)>")
        number(value, decimals: decimals)
        raw("</\(name)>")
    }

    mutating func element(_ name: String, _ value: Int) {
        raw("<\(name)>\(value)</\(name)>")
    }

    /// `<name>2026-10-03T07:00:03Z</name>`.
    mutating func element(_ name: String, time: Double) {
        raw("<\(name)>\(UTCTime.format(time))</\(name)>")
    }

    mutating func escaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): raw("&amp;")
            case UInt8(ascii: "<"): raw("&lt;")
            case UInt8(ascii: ">"): raw("&gt;")
            case UInt8(ascii: "\""): raw("&quot;")
            case 0..<0x20 where byte != 0x09 && byte != 0x0A && byte != 0x0D: continue  // not XML
            default: bytes.append(byte)
            }
        }
    }

    /// `value` rounded to `decimals` places, trailing zeros kept (e.g. `51.5073510`).
    mutating func number(_ value: Double, decimals: Int) {
        guard value.isFinite else {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded()
        guard scaled < 9e15 else {
            raw(String(value))
            return
        }
        let n = Int64(scaled)
        if value < 0 && n != 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(n / scale)
        if decimals > 0 {
            bytes.append(UInt8(ascii: "."))
            var fraction = n % scale
            var divisor = scale / 10
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
                fraction %= divisor
                divisor /= 10
            }
        }
    }

    private mutating func appendDigits(_ n: Int64) {
        if n >= 10 { appendDigits(n / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(n % 10))
    }
}
