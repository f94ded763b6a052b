import Testing

@testable import RunWayCore

@Suite("A window of the last values, kept sorted")
struct SortedWindowTests {
    /// Against the plain way (the last `capacity` values, sorted afresh) over a long stream with
    /// repeats: the order and the middle agree at every step, and the oldest value leaves first.
    @Test func itHoldsTheLastValuesInOrder() {
        var state: UInt64 = 0x5eed
        var window = SortedWindow(capacity: 7)
        var plain: [Double] = []
        for _ in 0..<500 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = Double((state >> 33) % 12) / 4  // 12 values: repeats are common
            window.add(value)
            plain.append(value)
            if plain.count > 7 { plain.removeFirst() }
            #expect(window.sorted == plain.sorted())
            #expect(window.upperMiddle == plain.sorted()[plain.count / 2])
        }
        #expect(window.count == 7)
    }

    /// Bad input: NaN and infinities are not kept (they have no place in an order, and a NaN
    /// could never be found again to leave); an empty window has no middle; a capacity under 1
    /// holds one value.
    @Test func nonFiniteValuesAreNotKept() {
        var window = SortedWindow(capacity: 3)
        #expect(window.upperMiddle == nil && window.isEmpty)
        for value in [1.0, .nan, .infinity, -.infinity, 2, 3, .nan, 4] { window.add(value) }
        #expect(window.sorted == [2, 3, 4])
        var one = SortedWindow(capacity: 0)
        one.add(1)
        one.add(2)
        #expect(one.sorted == [2] && one.upperMiddle == 2)
    }
}
