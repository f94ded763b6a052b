import RunWayCore

/// What the board decided for the runner, as `decisions` holds it (schema 10).
struct DecisionRow: FlightChildRow {
    var decision: FlightDecision

    enum Column: FlightChildColumn {
        case elapsed, kind, value

        static let spelled: [Self: String] = [.elapsed: "elapsed_s", .kind: "kind", .value: "value"]
    }

    static let statements = FlightChildTable<Column>("decisions", kind: "decision", orderBy: "rowid")

    func value(_ column: Column) -> SQLValue {
        switch column {
        case .elapsed: .real(decision.elapsed)
        case .kind: .text(decision.kind.rawValue)
        case .value: Logbook.value(decision.value)
        }
    }

    /// A kind this build does not know is passed over: a later build's decision means nothing here.
    static func decode(_ r: LogbookRow) throws(StoreError) -> FlightDecision? {
        guard let kind = r[Column.kind].string.flatMap(FlightDecision.Kind.init(rawValue:)) else {
            return nil
        }
        return FlightDecision(
            elapsed: try r.number(Column.elapsed, in: LogbookRow.duration), kind: kind,
            value: r.optional(Column.value, in: LogbookRow.any))
    }
}
