#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The libm functions RunWayCore needs, named once so the rest of the module stays free of
/// platform imports (RunWayCore uses the standard library only).
enum CMath {
    static func sin(_ x: Double) -> Double { libmSin(x) }
    static func cos(_ x: Double) -> Double { libmCos(x) }
    static func asin(_ x: Double) -> Double { libmAsin(x) }
    static func atan2(_ y: Double, _ x: Double) -> Double { libmAtan2(y, x) }
    static func pow(_ x: Double, _ y: Double) -> Double { libmPow(x, y) }
    static func exp(_ x: Double) -> Double { libmExp(x) }
}

// File-scope forwarders: inside `CMath` the bare names would resolve to its own members.
private func libmSin(_ x: Double) -> Double { sin(x) }
private func libmCos(_ x: Double) -> Double { cos(x) }
private func libmAsin(_ x: Double) -> Double { asin(x) }
private func libmAtan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
private func libmPow(_ x: Double, _ y: Double) -> Double { pow(x, y) }
private func libmExp(_ x: Double) -> Double { exp(x) }

extension Array where Element == Double {
    /// The index of the first element not less than `value` (`count` when there is none), in
    /// an array sorted ascending: a binary search (a 24 h flight's profile holds 86 400 times).
    func firstIndex(notBelow value: Double) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low + high) / 2
            if self[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The median (the mean of the middle two for an even count); nil when empty.
    var median: Double? {
        guard !isEmpty else { return nil }
        let sorted = sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The upper of the middle two for an even count, so always one of the values: a level set
    /// from readings (a pace, a speed's new level) that no reading gave is no reading's; nil
    /// when empty.
    var upperMedian: Double? { isEmpty ? nil : sorted()[count / 2] }
}
