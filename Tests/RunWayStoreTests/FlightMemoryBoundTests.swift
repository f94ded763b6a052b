import Foundation
import RunWayCore
import Testing

@testable import RunWayStore

/// Issue 29: what a long flight keeps in memory, counted (the bytes its lists have allocated, the
/// journal reader's bytes), not read from the test process's RSS. A 6 h flight at 10 Hz GPS is flown
/// through the computer and the recorder into a logbook whose raw-log journal fills and is
/// absorbed into SQLite several times on the way.
@Suite("A long flight's memory stays within its bound")
struct FlightMemoryBoundTests {
    /// A runner at 3 m/s due east with the receiver's speed and track, 10 fixes a second.
    static func fix(at time: Double, start: Double) -> Fix {
        let metres = (time - start) * 3
        let degreesPerMetre = 1 / 111_320.0
        return Fix(
            time: time,
            coordinate: Coordinate(
                latitude: 52, longitude: 13 + metres * degreesPerMetre / cos(52 * .pi / 180)),
            horizontalAccuracy: 4, speed: 3, track: 90, altitude: 40)
    }

    /// The bound, per hour of flight, on the bytes the engine's lists hold (capacity, not count):
    /// issue 29 allows runwayd 2 MiB of growth from hour 1 to hour 24, 89 KiB an hour for the
    /// whole process; these lists may take 48 KiB of it, the rest is margin for the allocator and
    /// other growth. Before issue 29 they held 113 KiB an hour counted (the route's 1 900 fixes ×
    /// 24 B and the FDR's 720 samples × 96 B), up to twice that with the arrays' doubling. Since,
    /// the route is 12 B a point and a sample 22 B, in chunks allocated whole (`InFlightRecords`).
    /// Measured on this flight (its 2 118 counted fixes an hour, `computer.retained` printed at
    /// each hour of `swift test --filter FlightMemoryBoundTests`): 47 KiB at 1 h, 263 KiB at
    /// 6 h, 43 KiB an hour; `runway-bench memory --hours 24 --rate 10` (1 895 fixes an hour):
    /// 45 KiB at 1 h, 986 KiB at 24 h, 41 KiB an hour, and the process's own memory grew
    /// 1.2 MiB from hour 1 to 24 (3.1 MiB before). `spare` is the constant beside the growth:
    /// each column's last chunk partly written (256 values) and the lists' headers.
    static let bytesPerHour = 48 * 1024
    static let spare = 16 * 1024
    static let readerBytes = 3 * 64 * 1024

    @Test func aSixHourTenHertzFlightKeepsWithinItsBound() throws {
        let hours = 6.0
        // A 1 MiB journal: it fills every 40 minutes or so at 10 Hz, so the 6 h flight absorbs it
        // several times, as the 4 MiB one every ~3 h of a day's flight.
        let logbook = try Logbook(path: temporaryLogbookPath(), journalCapacity: 1 << 20)
        #expect(logbook.prepareJournal() == nil)
        let recorder = FlightRecorder(logbook: logbook)
        var computer = FlightComputer()
        let start = 1_800_000_000.0
        func fly(_ input: EngineInput) {
            _ = recorder.take(.flew(input, computer.handle(input)), after: computer)
        }
        fly(.start(at: start, mission: nil, countdown: false))
        var largest = 0
        for tenth in 1...Int(hours * 36_000) {
            fly(.fix(Self.fix(at: start + Double(tenth) / 10, start: start)))
            if tenth % 36_000 == 0 {
                let retained = computer.retained
                let hour = Double(tenth) / 36_000
                #expect(
                    retained.bytes <= Int(hour * Double(Self.bytesPerHour)) + Self.spare,
                    "\(hour) h: \(retained)")
                largest = max(largest, logbook.journalReadingPeak)
            }
        }
        #expect(computer.isFlying && recorder.flightID != nil)
        #expect(largest > 0, "the journal was never absorbed: the test does not test the reader")
        #expect(largest <= Self.readerBytes, "the journal's reader held \(largest) bytes")
        #expect(recorder.commit(until: computer.now))
        var fixes = 0
        for case .fix in try logbook.rawInputSequence(flight: #require(recorder.flightID)) { fixes += 1 }
        #expect(fixes == Int(hours * 36_000), "every fix is in the raw log, absorbed or not")
    }
}
