import RunWayCore

/// A stored row read back by column name, each value checked as a live one is: a required value
/// that is missing or impossible means the row is damaged (said with the flight and column); an
/// optional one that is impossible reads as missing, as a live sensor's would. What was found is
/// written down in `log` (when given), with what it cost.
struct LogbookRow {
    let row: Row
    let path: String
    let flight: Int64?
    /// What the row is, in words ("sample", "route point", "summary").
    let kind: String
    let log: DamageLog?

    init(_ row: Row, path: String, flight: Int64?, kind: String = "row", log: DamageLog? = nil) {
        self.row = row
        self.path = path
        self.flight = flight
        self.kind = kind
        self.log = log
    }

    /// Not before the Unix epoch nor after GPS time's plausible end (tests fly at small times).
    static let time: ClosedRange<Double> = 0...GPSReport.timeRange.upperBound
    static let duration: ClosedRange<Double> = 0...10_000_000
    static let distance: ClosedRange<Double> = 0...10_000_000
    static let heartRate: ClosedRange<Double> = 20...250
    static let cadence: ClosedRange<Double> = 0...300
    static let pace: ClosedRange<Double> = 1...36_000
    static let altitude: ClosedRange<Double> = -10_000...10_000
    static let heading: ClosedRange<Double> = 0...360
    /// A mission's allowed deviation, s/km (no parser takes more than minutes).
    static let deviation: ClosedRange<Double> = 0...3_600
    static let any: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude

    func number(_ column: String, in range: ClosedRange<Double> = any) throws(StoreError) -> Double {
        guard let value = row[column].double, value.isFinite, range.contains(value) else {
            log?.failed = (column, describe(row[column]))
            let which = flight.map { "flight \($0)" } ?? "a row"
            throw .damaged(reason: "\(which) has \(column) = \(describe(row[column]))", path: path)
        }
        return value
    }

    /// The value, or nil when it is NULL or impossible (written down as damage).
    func optional(_ column: String, in range: ClosedRange<Double> = any) -> Double? {
        guard let value = row[column].double, value.isFinite, range.contains(value) else {
            if row[column] != .null { record(column, cost: .valueMissing) }
            return nil
        }
        return value
    }

    func integer(_ column: String) throws(StoreError) -> Int64 {
        guard let value = row[column].int else {
            log?.failed = (column, describe(row[column]))
            throw .damaged(reason: "\(column) = \(describe(row[column]))", path: path)
        }
        return Int64(value)
    }

    /// The value of `column` as `parse` reads it; a value it does not read makes the row damaged
    /// (`flight N has column = value`).
    func required<T>(_ column: String, _ parse: (SQLValue) -> T?) throws(StoreError) -> T {
        guard let value = parse(row[column]) else {
            log?.failed = (column, describe(row[column]))
            throw .damaged(
                reason: "flight \(flight ?? 0) has \(column) = \(describe(row[column]))", path: path)
        }
        return value
    }

    // The same, by a table description's column (its name is the column's one spelling).

    subscript(column: some TableColumn) -> SQLValue { row[column.name] }

    func number(_ column: some TableColumn, in range: ClosedRange<Double> = any) throws(StoreError) -> Double
    {
        try number(column.name, in: range)
    }

    func optional(_ column: some TableColumn, in range: ClosedRange<Double> = any) -> Double? {
        optional(column.name, in: range)
    }

    func integer(_ column: some TableColumn) throws(StoreError) -> Int64 { try integer(column.name) }

    func required<T>(_ column: some TableColumn, _ parse: (SQLValue) -> T?) throws(StoreError) -> T {
        try required(column.name, parse)
    }

    /// Writes down what the value of `column` cost.
    func record(_ column: String, cost: RowDamage.Cost) {
        log?.add(
            RowDamage(flight: flight, row: kind, column: column, value: describe(row[column]), cost: cost))
    }

    /// Writes down what the last value that failed to read cost (its row, or its flight).
    func recordFailure(cost: RowDamage.Cost) {
        guard let log, let (column, value) = log.failed else { return }
        log.add(RowDamage(flight: flight, row: kind, column: column, value: value, cost: cost))
        log.failed = nil
    }

    /// `body`'s value, or nil when a value of the row is impossible: the row is left out, said.
    func reading<T>(_ body: () throws(StoreError) -> T) -> T? {
        do {
            return try body()
        } catch {
            recordFailure(cost: .rowLeftOut)
            return nil
        }
    }

    private func describe(_ value: SQLValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let v): "\(v)"
        case .real(let v): "\(v)"
        case .text(let s): "'\(s.prefix(40))'"
        case .blob(let bytes): "\(bytes.count) bytes"
        }
    }
}
