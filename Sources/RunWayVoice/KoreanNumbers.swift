/// Whole numbers in Korean words, in Hangul: Sino-Korean for minutes, seconds and distances
/// (오 분 삼십팔 초, 삼 킬로미터), native Korean for counting and hours (셋, 둘, 하나; 한 시간),
/// as Korean runners say them. A speech engine reads digits and units less well than words.
enum KoreanNumbers {
    static let sinoDigits = ["영", "일", "이", "삼", "사", "오", "육", "칠", "팔", "구"]

    /// `n` in Sino-Korean: 십일, 이십일, 백일, 천, 십만. A leading 일 is not said before 십, 백,
    /// 천 or 만 (십, not 일십), and groups of four digits are spaced (구십구만 구천구백구십구),
    /// as Korean writes them. Beyond ±`SpokenNumber.cap` it says the cap: no input traps.
    static func sino(_ n: Int) -> String {
        if n < 0 { return "마이너스 " + sino(n == .min ? SpokenNumber.cap : min(-n, SpokenNumber.cap)) }
        let n = min(n, SpokenNumber.cap)
        if n == 0 { return sinoDigits[0] }
        var groups: [String] = []
        let units = [(100_000_000, "억"), (10_000, "만"), (1, "")]
        var rest = n
        for (size, name) in units {
            let group = rest / size
            rest %= size
            guard group > 0 else { continue }
            // 만 alone is 10 000, but 억 takes its 일 (일억).
            let number = group == 1 && name == "만" ? "" : belowTenThousand(group)
            groups.append(number + name)
        }
        return groups.joined(separator: " ")
    }

    /// 1…9999 without spaces: 구천구백구십구.
    static func belowTenThousand(_ n: Int) -> String {
        var said = ""
        for (size, name) in [(1000, "천"), (100, "백"), (10, "십")] {
            let digit = n / size % 10
            guard digit > 0 else { continue }
            said += (digit == 1 ? "" : sinoDigits[digit]) + name
        }
        let last = n % 10
        return last > 0 ? said + sinoDigits[last] : said
    }

    static let nativeOnes = ["", "하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉"]
    /// Before a counter (한 시간, 두 시간): the short forms.
    static let nativeOnesBefore = ["", "한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉"]
    static let nativeTens = ["", "열", "스물", "서른", "마흔", "쉰", "예순", "일흔", "여든", "아흔"]

    /// `n` in native Korean, 1…99 (하나, 열하나, 스물하나); `beforeCounter` gives the forms
    /// said before a counter (한, 스무). Native numbers stop at 99: past it, and for 0 or less,
    /// the Sino-Korean number.
    static func native(_ n: Int, beforeCounter: Bool = false) -> String {
        guard (1...99).contains(n) else { return sino(n) }
        let ten = n / 10
        let one = n % 10
        if beforeCounter && n == 20 { return "스무" }
        return nativeTens[ten] + (beforeCounter ? nativeOnesBefore[one] : nativeOnes[one])
    }

    /// The digits after a decimal point, one by one, as Korean reads them (점 일팔).
    static func digits(_ n: Int, count: Int) -> String {
        var value = n
        var said = ""
        for _ in 0..<count {
            said = sinoDigits[value % 10] + said
            value /= 10
        }
        return said
    }
}
