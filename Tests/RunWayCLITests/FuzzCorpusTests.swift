import Foundation
import Testing

@testable import RunWayCLI

/// Every input in the fuzz corpora (the seeds, and each input `make fuzz` once found failing)
/// runs through its parser in the normal suite, so a fixed finding stays fixed.
@Suite("Fuzz corpora replay through the parsers")
struct FuzzCorpusTests {
    @Test(arguments: FuzzEntry.targets.map(\.name))
    func theCorpusRunsWithoutCrashing(_ name: String) throws {
        let folder = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/fuzz/\(name)"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!files.isEmpty)
        let run = try #require(FuzzEntry.targets.first { $0.name == name }).run
        for file in files {
            run(Array(try Data(contentsOf: folder.appendingPathComponent(file))))
        }
    }
}
