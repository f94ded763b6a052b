import RunWayCore

/// A gpsd JSON trace read in two passes with memory that does not grow with the file's text.
///
/// Pass one reads each line once (a file, a FIFO or standard input), checks it into a report,
/// and spools the report to disk (`ReportSpool`); in memory it keeps 5 bytes per report for the
/// decisions that need the whole trace. Times must advance: when one does not, either it is wrong
/// or the one before it was (the bt451 capture starts a day ahead), so the reader keeps the
/// longest run of reports whose times never go backwards (patience sorting, online) and reports
/// the others. A trace is one run: a forward jump longer than `maxGap` (a date error, or two
/// sessions in one file) splits it, and the part with the most fixes is kept. Pass two
/// (`reports()`) streams the kept reports from the spool, one per epoch: the first with a
/// position; a fix supersedes a no-fix report of the same time.
public final class GPSTraceFile {
    public let name: String
    public private(set) var diagnostics = DiagnosticLog()
    /// Epochs with a position in the kept part.
    public private(set) var fixCount = 0
    public private(set) var firstFixTime: Double?
    public private(set) var lastFixTime: Double?
    private let spool: ReportSpool
    private var kept: [Bool] = []
    private var part: Range<Int> = 0..<0

    public init(_ reader: LineReader, maxGap: Double = 1800) throws(CLIError) {
        name = reader.name
        spool = try ReportSpool()
        var parent: [Int32] = []
        var tails: [Int32] = []
        var tailTimes: [Double] = []
        while let line = try reader.next() {
            var problems: [String] = []
            if let problem = line.problem {
                problems.append(problem)
            } else if let text = line.text,
                let fix = TraceReader.report(line: text, problem: { problems.append($0) })
            {
                // Patience sorting: the longest run of times that never decrease.
                var low = 0
                var high = tailTimes.count
                while low < high {
                    let mid = (low + high) / 2
                    if tailTimes[mid] <= fix.time { low = mid + 1 } else { high = mid }
                }
                let index = Int32(spool.count)
                parent.append(low > 0 ? tails[low - 1] : -1)
                if low == tails.count {
                    tails.append(index)
                    tailTimes.append(fix.time)
                } else {
                    tails[low] = index
                    tailTimes[low] = fix.time
                }
                try spool.append(fix, line: line.number)
            }
            for problem in problems {
                diagnostics.append(Diagnostic(file: name, line: line.number, message: problem))
            }
        }
        try spool.finish()
        kept = [Bool](repeating: false, count: spool.count)
        var k = tails.last.map(Int.init) ?? -1
        while k >= 0 {
            kept[k] = true
            k = Int(parent[k])
        }
        parent = []
        choosePart(maxGap: maxGap)
    }

    /// Says which reports go backwards, splits the kept ones at long gaps and keeps the part with
    /// the most fixes, naming the others.
    private func choosePart(maxGap: Double) {
        struct Part {
            var range: Range<Int>
            var fixes = 0
            var first: Double
            var last: Double
            var firstFix: Double?
            var lastFix: Double?
        }
        var parts: [Part] = []
        var previousKept: Double?
        var lastFixEpoch: Double?
        for (index, (fix, line)) in spool.records().enumerated() {
            guard kept[index] else {
                let message =
                    previousKept.map { fix.time < $0 } ?? false
                    ? "time \(UTCTime.format(fix.time)) goes backwards (previous fix \(UTCTime.format(previousKept!))) — line skipped"
                    : "time \(UTCTime.format(fix.time)) is ahead of the fixes that follow it — line skipped"
                diagnostics.append(Diagnostic(file: name, line: line, message: message))
                continue
            }
            if let previous = previousKept, fix.time - previous <= maxGap, !parts.isEmpty {
                parts[parts.count - 1].range = parts[parts.count - 1].range.lowerBound..<(index + 1)
                parts[parts.count - 1].last = fix.time
            } else {
                parts.append(Part(range: index..<(index + 1), first: fix.time, last: fix.time))
            }
            previousKept = fix.time
            if fix.hasPosition, lastFixEpoch != fix.time {
                lastFixEpoch = fix.time
                parts[parts.count - 1].fixes += 1
                parts[parts.count - 1].firstFix = parts[parts.count - 1].firstFix ?? fix.time
                parts[parts.count - 1].lastFix = fix.time
            }
        }
        guard let best = parts.indices.max(by: { parts[$0].fixes < parts[$1].fixes }) else { return }
        for (index, other) in parts.enumerated() where index != best {
            let count = other.range.filter { kept[$0] }.count
            diagnostics.append(
                Diagnostic(
                    file: name, line: nil,
                    message:
                        "\(count) report\(count == 1 ? "" : "s") from \(UTCTime.format(other.first)) to \(UTCTime.format(other.last)) "
                        + "are more than \(Int(maxGap / 60)) minutes away from the rest of the run — skipped")
            )
        }
        part = parts[best].range
        fixCount = parts[best].fixes
        firstFixTime = parts[best].firstFix
        lastFixTime = parts[best].lastFix
    }

    /// The kept reports, in time order, one per epoch; read from the spool, so this can be
    /// called again.
    public func reports() -> Reports { Reports(records: spool.records(), kept: kept, part: part) }

    public struct Reports: Sequence, IteratorProtocol {
        var records: ReportSpool.Records
        let kept: [Bool]
        let part: Range<Int>
        var index = 0
        var pending: Fix?

        public mutating func next() -> Fix? {
            while let (fix, _) = records.next() {
                defer { index += 1 }
                guard part.contains(index), kept[index] else { continue }
                guard let held = pending else {
                    pending = fix
                    continue
                }
                if held.time == fix.time {
                    // One report per epoch: the first fix; a fix supersedes a no-fix report.
                    if !held.hasPosition && fix.hasPosition { pending = fix }
                    continue
                }
                pending = fix
                return held
            }
            defer { pending = nil }
            return pending
        }
    }

    func collected() -> GPSTrace {
        GPSTrace(
            reports: Array(reports()),
            diagnostics: diagnostics.kept.sorted { ($0.line ?? 0) < ($1.line ?? 0) })
    }
}
