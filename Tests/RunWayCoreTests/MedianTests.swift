import Testing

@testable import RunWayCore

@Suite("Medians of readings")
struct MedianTests {
    @Test func theMedianAveragesTheMiddleTwoAndTheUpperMedianIsAReading() {
        #expect([Double]().median == nil)
        #expect([Double]().upperMedian == nil)
        #expect([3.0].median == 3 && [3.0].upperMedian == 3)
        #expect([3.1, 1.0, 2.9].median == 2.9 && [3.1, 1.0, 2.9].upperMedian == 2.9)
        // Four readings, a braking one among them: the pace is one of the running readings.
        #expect([3.0, 1.0, 3.2, 2.8].median == 2.9)
        #expect([3.0, 1.0, 3.2, 2.8].upperMedian == 3.0)
    }
}
