/// A measured value made safe to say: `Int(_:)` traps on NaN, on infinity and past ±9.2 × 10¹⁸,
/// and a damaged reading can be any of those, so every phrase goes through here first.
enum SpokenNumber {
    /// The largest whole number a phrase says: a billion seconds is 31 years, a billion metres
    /// 25 times round the Earth. Past it a value is damage, said as the cap rather than trapping.
    static let cap = 999_999_999

    /// `value` rounded to a whole number, clamped to ±`cap`; nil for NaN or infinity.
    static func whole(_ value: Double) -> Int? {
        guard value.isFinite else { return nil }
        let rounded = value.rounded()
        if rounded >= Double(cap) { return cap }
        if rounded <= -Double(cap) { return -cap }
        return Int(rounded)
    }

    /// A pace worth saying, in whole seconds per km: nil for no pace, for NaN, for a negative one
    /// and for one past a day per km (`Pace.format` draws the same line).
    static func pace(_ secondsPerKm: Double?) -> Int? {
        guard let secondsPerKm, secondsPerKm > 0, secondsPerKm <= 86_400 else { return nil }
        return whole(secondsPerKm)
    }

    /// Whole seconds of a duration: a negative or broken one (a clock stepped back) is said as 0.
    static func seconds(_ duration: Double) -> Int { max(0, whole(duration) ?? 0) }

    /// A distance in hundredths of a kilometre, the precision it is said with (5180 m → 518);
    /// nil below 999.5 m, which is said in metres instead.
    static func centikilometres(_ metres: Double) -> Int? {
        guard metres.isFinite, metres >= 999.5 else { return nil }
        return whole(metres / 10)
    }
}
