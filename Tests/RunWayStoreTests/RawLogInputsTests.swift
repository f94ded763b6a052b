import Foundation
import RunWayCore
import RunWaySimulator
import Testing

@testable import RunWayStore

/// The raw log read a page at a time (what the touchdown smoother passes over).
@Suite("RawLogInputs: a flight's raw log, paged")
struct RawLogInputsTests {
    @Test func pagesGiveTheWholeLogInOrderOnEveryPass() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let (id, _, _) = try record(.flat5k.ending(at: 900), into: logbook)
        let whole = try logbook.rawInputs(flight: id)
        #expect(whole.count > 500)
        for size in [1, 7, 64, 100_000] {
            let paged = try logbook.rawInputSequence(flight: id, pageSize: size)
            #expect(Array(paged) == whole)
            #expect(Array(paged) == whole)  // a second pass reads it again from the start
            #expect(paged.failure.error == nil)
        }
        #expect(Array(try logbook.rawInputSequence(flight: id + 1)).isEmpty)
    }

    @Test func aReadThatFailsEndsThePassAndIsKept() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let (id, _, _) = try record(.flat5k.ending(at: 900), into: logbook)
        let paged = try logbook.rawInputSequence(flight: id, pageSize: 4)
        var iterator = paged.makeIterator()
        #expect(iterator.next() != nil)
        try logbook.database.execute("ALTER TABLE raw_log RENAME TO raw_log_gone")
        var more = 0
        while iterator.next() != nil { more += 1 }
        #expect(more < 100)  // the rest of the first page (4 commits) at most, not the 900 s
        let error = try #require(paged.failure.error)
        #expect("\(error)".contains("raw"), "\(error)")
    }
}
