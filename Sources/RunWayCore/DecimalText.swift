/// Numbers as a person types them on a command line or in a mission: decimal digits, an optional
/// sign and fraction. Swift's `Double(_:)` also takes `0x10`, `1e300`, `inf` and `nan`, which no
/// runner means; they are refused here instead of becoming 16 m or an infinite pace.
public enum DecimalText {
    public static func number(_ text: some StringProtocol) -> Double? {
        var digits = 0
        var dots = 0
        for (i, c) in text.unicodeScalars.enumerated() {
            switch c {
            case "0"..."9": digits += 1
            case ".": dots += 1
            case "+" where i == 0, "-" where i == 0: continue
            default: return nil
            }
        }
        guard digits > 0, digits <= 40, dots <= 1 else { return nil }
        return Double(String(text))
    }

    public static func whole(_ text: some StringProtocol) -> Int? {
        guard let n = number(text), !text.contains("."), n == n.rounded(), abs(n) < 1e15 else { return nil }
        return Int(n)
    }

    public static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
