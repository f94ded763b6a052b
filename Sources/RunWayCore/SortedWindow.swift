/// The last `capacity` values, kept in arrival order and in sorted order too, so a filter that
/// wants their middle at every step has it without sorting the window each time
/// (`LiveDriftCorrection`'s readings: sorting its 31 intervals and 120 speed differences at every
/// counted step was a fifth of a 24 h flight's replay at landing). Adding is a binary search and
/// a shift of at most `capacity` values. Non-finite values are not kept: they have no place in
/// the order.
struct SortedWindow: Sendable, Equatable {
    let capacity: Int
    /// The values in ascending order.
    private(set) var sorted: [Double] = []
    /// The values in arrival order, a ring whose oldest is at `oldest` once it is full.
    private var arrival: [Double] = []
    private var oldest = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        sorted.reserveCapacity(self.capacity)
        arrival.reserveCapacity(self.capacity)
    }

    var count: Int { sorted.count }
    var isEmpty: Bool { sorted.isEmpty }

    /// The value at the middle of the order, the upper one of the two middles for an even count
    /// (nil when empty).
    var upperMiddle: Double? { sorted.isEmpty ? nil : sorted[sorted.count / 2] }

    mutating func add(_ value: Double) {
        guard value.isFinite else { return }
        if arrival.count < capacity {
            arrival.append(value)
        } else {
            let leaving = arrival[oldest]
            arrival[oldest] = value
            oldest = (oldest + 1) % capacity
            sorted.remove(at: Self.firstIndex(notBelow: leaving, in: sorted))
        }
        sorted.insert(value, at: Self.firstIndex(notBelow: value, in: sorted))
    }

    /// The first index whose value is not below `value` (binary search over ascending values).
    private static func firstIndex(notBelow value: Double, in values: [Double]) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
