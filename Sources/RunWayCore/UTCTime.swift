/// ISO-8601 UTC times as gpsd writes them (`2018-08-20T09:47:37.000Z`), to and from seconds
/// since the Unix epoch. Written out because the engine's time axis must not depend on the
/// host's time zone or locale.
public enum UTCTime {
    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`; `nil` for anything else.
    public static func parse(_ text: String) -> Double? {
        let chars = Array(text.utf8)
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= chars.count else { return nil }
            var value = 0
            for c in chars[i..<(i + n)] {
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            i += n
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < chars.count, chars[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(45), let month = digits(2), expect(45), let day = digits(2),
            i < chars.count, chars[i] == 84 || chars[i] == 32
        else { return nil }
        i += 1
        guard let hour = digits(2), expect(58), let minute = digits(2), expect(58), let second = digits(2)
        else { return nil }
        var fraction = 0.0
        if i < chars.count, chars[i] == 46 {
            i += 1
            var scale = 0.1
            var any = false
            while i < chars.count, chars[i] >= 48, chars[i] <= 57 {
                fraction += Double(chars[i] - 48) * scale
                scale /= 10
                i += 1
                any = true
            }
            guard any else { return nil }
        }
        var offset = 0
        if expect(90) {  // Z
        } else if i < chars.count, chars[i] == 43 || chars[i] == 45 {
            let sign = chars[i] == 43 ? 1 : -1
            i += 1
            guard let oh = digits(2) else { return nil }
            _ = expect(58)
            guard let om = digits(2) else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == chars.count, day >= 1, day <= daysIn(year: year, month: month), hour < 24, minute < 60,
            second <= 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
    }

    /// Days in `month` of `year` (proleptic Gregorian): 28–31, and 0 for a month that is not
    /// 1–12, so `day <= daysIn(…)` checks a day and its month at once.
    public static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: 31
        case 4, 6, 9, 11: 30
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        default: 0
        }
    }

    /// Times this far from 1970 (±3 million years) are formatted; past them, or not a number,
    /// the time is said to be invalid instead of trapping in an Int conversion.
    public static let formattable: ClosedRange<Double> = -1e14...1e14

    /// `2026-10-03T07:00:03Z` (with `.fff` when the time has a fraction); `invalid time` for one
    /// outside `formattable`.
    public static func format(_ seconds: Double) -> String {
        guard formattable.contains(seconds) else { return "invalid time" }
        let whole = Int((seconds).rounded(.down))
        let millis = Int(((seconds - Double(whole)) * 1000).rounded())
        let (date, time) = components(whole + (millis == 1000 ? 1 : 0))
        let fraction = millis == 0 || millis == 1000 ? "" : "." + pad(millis, 3)
        return "\(date)T\(time)\(fraction)Z"
    }

    /// `2026-10-03` and `07:00:03` in UTC.
    public static func components(_ seconds: Int) -> (date: String, time: String) {
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let rest = seconds - days * 86_400
        let (y, m, d) = civilFromDays(days)
        return (
            "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))",
            "\(pad(rest / 3600, 2)):\(pad(rest / 60 % 60, 2)):\(pad(rest % 60, 2))"
        )
    }

    public static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// (year, month, day) of a day counted from 1970-01-01.
    public static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// `1:02:03` or `12:03` for a duration in seconds; `--` for none.
    public static func duration(_ seconds: Double?) -> String {
        guard let seconds, formattable.contains(seconds) else { return "--" }
        let total = Int(seconds.rounded())
        let h = total / 3600
        let m = total / 60 % 60
        let s = total % 60
        return h > 0 ? "\(h):\(pad(m, 2)):\(pad(s, 2))" : "\(m):\(pad(s, 2))"
    }
}
