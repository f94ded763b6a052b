/// Whole numbers in English words, as a runner says them ("three hundred and twenty"): a speech
/// engine reads digits badly, and "5:38" as a time of day.
enum EnglishNumbers {
    static let ones = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
        "nineteen",
    ]
    static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// `n` in words, British style ("one hundred and one", "one thousand and twenty"). Beyond
    /// ±`SpokenNumber.cap` it says the cap: no input traps.
    static func words(_ n: Int) -> String {
        if n < 0 { return "minus " + words(n == .min ? SpokenNumber.cap : min(-n, SpokenNumber.cap)) }
        let n = min(n, SpokenNumber.cap)
        if n < 1000 { return belowThousand(n, joined: false) }
        var parts: [String] = []
        let millions = n / 1_000_000
        let thousands = n / 1000 % 1000
        let rest = n % 1000
        if millions > 0 { parts.append(belowThousand(millions, joined: false) + " million") }
        if thousands > 0 { parts.append(belowThousand(thousands, joined: false) + " thousand") }
        // "one thousand and five": the "and" before a last part under a hundred.
        if rest > 0 { parts.append(belowThousand(rest, joined: true)) }
        return parts.joined(separator: " ")
    }

    /// 0…999; `joined`: it follows a thousand or a million, so under a hundred takes "and".
    static func belowThousand(_ n: Int, joined: Bool) -> String {
        let hundreds = n / 100
        let rest = n % 100
        if hundreds == 0 { return (joined ? "and " : "") + belowHundred(rest) }
        let head = ones[hundreds] + " hundred"
        return rest == 0 ? head : head + " and " + belowHundred(rest)
    }

    /// 0…99: "twenty-one".
    static func belowHundred(_ n: Int) -> String {
        if n < 20 { return ones[n] }
        return tens[n / 10] + (n % 10 == 0 ? "" : "-" + ones[n % 10])
    }

    /// The digits after a decimal point, one by one ("one eight").
    static func digits(_ n: Int, count: Int) -> String {
        var value = n
        var said: [String] = []
        for _ in 0..<count {
            said.insert(ones[value % 10], at: 0)
            value /= 10
        }
        return said.joined(separator: " ")
    }
}
