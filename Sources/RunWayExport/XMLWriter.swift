import RunWayCore

/// UTF-8 XML built into one byte buffer: elements, escaped text, and numbers written with a
/// fixed count of decimals straight from integers (no formatter, no locale: a decimal point is
/// always `.`). Fast enough to write a day-long track in well under a second.
struct XMLWriter {
    private(set) var bytes: [UInt8] = []
    /// The last day written by `time`, and its `YYYY-MM-DDT` bytes: a track stays on one day for
    /// thousands of points.
    private var cachedDay = Int.min
    private var cachedDate: [UInt8] = []

    init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
        raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
    }

    mutating func raw(_ text: String) {
        bytes += text.utf8
    }

    /// Markup known at compile time, copied without building a String.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func open(_ name: StaticString) {
        bytes.append(UInt8(ascii: "<"))
        raw(name)
        bytes.append(UInt8(ascii: ">"))
    }

    private mutating func close(_ name: StaticString) {
        bytes.append(UInt8(ascii: "<"))
        bytes.append(UInt8(ascii: "/"))
        raw(name)
        bytes.append(UInt8(ascii: ">"))
    }

    /// `<name>escaped text</name>`.
    mutating func element(_ name: StaticString, _ text: String) {
        open(name)
        escaped(text)
        close(name)
    }

    /// `<name>value</name>` with `decimals` digits after the point.
    mutating func element(_ name: StaticString, _ value: Double, decimals: Int) {
        open(name)
        number(value, decimals: decimals)
        close(name)
    }

    mutating func element(_ name: StaticString, _ value: Int) {
        open(name)
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(Int64(value.magnitude))
        close(name)
    }

    /// `<name>2026-10-03T07:00:03Z</name>`.
    mutating func element(_ name: StaticString, time: Double) {
        open(name)
        self.time(time)
        close(name)
    }

    /// `2026-10-03T07:00:03Z`, with `.fff` when the time has a fraction — `UTCTime.format`'s
    /// text, written straight into the buffer.
    mutating func time(_ seconds: Double) {
        var whole = Int(seconds.rounded(.down))
        var millis = Int(((seconds - Double(whole)) * 1000).rounded())
        if millis == 1000 {
            whole += 1
            millis = 0
        }
        let day = Int((Double(whole) / 86_400).rounded(.down))
        if day != cachedDay {
            cachedDay = day
            cachedDate = Array(UTCTime.components(day * 86_400).date.utf8) + [UInt8(ascii: "T")]
        }
        bytes += cachedDate
        let rest = whole - day * 86_400
        two(rest / 3600)
        bytes.append(UInt8(ascii: ":"))
        two(rest / 60 % 60)
        bytes.append(UInt8(ascii: ":"))
        two(rest % 60)
        if millis > 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(millis / 100))
            two(millis % 100)
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    private mutating func two(_ n: Int) {
        bytes.append(UInt8(ascii: "0") + UInt8(n / 10))
        bytes.append(UInt8(ascii: "0") + UInt8(n % 10))
    }

    mutating func escaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): raw("&amp;" as StaticString)
            case UInt8(ascii: "<"): raw("&lt;" as StaticString)
            case UInt8(ascii: ">"): raw("&gt;" as StaticString)
            case UInt8(ascii: "\""): raw("&quot;" as StaticString)
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
        precondition(decimals <= 9)
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
