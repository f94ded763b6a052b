import Foundation
import RunWayCore
import RunWayTestSupport
import Testing

@testable import RunWayStore

/// A power cut, 50 times (500 with `make soak`): a child process records the simulated demo run
/// into a logbook and is killed with SIGKILL at a random moment; the logbook must pass
/// `PRAGMA integrity_check`, the flight must be recovered, and nothing older than the bound may
/// be lost.
@Suite("Kill test: SIGKILL mid-flight loses seconds, never the run", .serialized)
struct KillTests {
    static let bound = 5.0

    struct Cut {
        var reached: Double
        var recordedUntil: Double
        var loss: Double { reached - recordedUntil }
    }

    /// Runs the child until it reports `target` seconds of flight, then kills it.
    static func cut(at target: Int, logbook: String) throws -> Int {
        let process = Process()
        process.executableURL = RunWayBinary.executable
        process.arguments = ["demo", "--speed", "1000", "--logbook", logbook, "--progress"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var buffer = Data()
        var reached = -1
        let reader = pipe.fileHandleForReading
        reading: while process.isRunning || reached < 0 {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if line.hasPrefix("at "), let at = Int(line.dropFirst(3)) {
                    reached = at
                    if at >= target {
                        kill(process.processIdentifier, SIGKILL)
                        break reading
                    }
                }
            }
        }
        process.waitUntilExit()
        return reached
    }

    @Test func sigkillAtRandomMomentsNeverCorruptsAndLosesLessThanTheBound() async throws {
        let iterations = Int(ProcessInfo.processInfo.environment["RUNWAY_KILL_ITERATIONS"] ?? "") ?? 50
        var generator = SystemRandomNumberGenerator()
        var worst = 0.0
        var corruptions = 0
        for _ in 0..<iterations {
            let path = NSTemporaryDirectory() + "runway-kill-\(UUID().uuidString).sqlite"
            defer {
                for suffix in ["", "-wal", "-shm", "-journal", "-rawlog"] {
                    try? FileManager.default.removeItem(atPath: path + suffix)
                }
            }
            let target = Int.random(in: 10...1700, using: &generator)
            let reached = try await offPool { try Self.cut(at: target, logbook: path) }
            try #require(reached >= 0, "the child never reported progress")
            let logbook = try Logbook(path: path)
            let check = try logbook.database.query("PRAGMA integrity_check").first?.first?.string
            if check != "ok" { corruptions += 1 }
            let rows = try logbook.database.query("SELECT id, start_time, status FROM flights")
            let row = try #require(rows.first, "no flight row after \(reached) s")
            let start = row[1].double ?? 0
            let recordedUntil = (try logbook.recordedUntil(flight: Int64(row[0].int ?? 0)) ?? start) - start
            let loss = Double(reached) - recordedUntil
            worst = max(worst, loss)
            #expect(loss <= Self.bound, "lost \(loss) s at \(reached) s")
            if row[2].string == "flying" {
                let id = Int64(row[0].int ?? 0)
                let replayed = try logbook.replay(flight: id)
                let recovered = try logbook.recoverInterruptedFlights()
                #expect(recovered.map(\.id) == [id])
                if recovered.first?.kept == true {
                    #expect(try logbook.entries().first?.status == .recovered)
                    // Recovery flew the raw log again: its splits are what the engine says for it.
                    #expect(try logbook.splits(flight: id) == (replayed?.splits ?? []))
                } else {
                    // Under 100 m flown: not recorded, said once, removed.
                    #expect((replayed?.distance ?? 0) < 100)
                    #expect(try logbook.entries().isEmpty)
                }
            }
        }
        #expect(corruptions == 0)
        print(
            "kill test: \(iterations) cuts, \(corruptions) corruptions, worst loss \(String(format: "%.1f", worst)) s"
        )
    }
}
