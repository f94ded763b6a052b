/// A stored value that cannot be right — of the kind a flipped bit or a torn sector leaves,
/// which SQLite's own check passes — and what reading it cost. One bad value costs its own row
/// at most: the flight is flown again from its raw sensor log, or read with that value or row
/// missing; a flight is left out only when its summary is unreadable and it has no raw log.
public struct RowDamage: Sendable, Equatable, CustomStringConvertible {
    public enum Cost: Sendable, Equatable {
        /// An optional value (heart rate, a mission's target) reads as missing.
        case valueMissing
        /// A sample, route point, split, alert or pause is left out.
        case rowLeftOut
        /// The flight's summary is unreadable: it is flown again from its raw sensor log.
        case flownAgain
        /// The flight's summary is unreadable and it has no raw sensor log: it is left out.
        case flightLeftOut
    }

    public var flight: Int64?
    /// What the row is, in words ("sample", "route point", "summary").
    public var row: String
    public var column: String
    /// The value found, as text (`1e+300`, `NULL`, `'x'`).
    public var value: String
    public var cost: Cost
    /// How many rows of this flight had this column damaged in this way.
    public var rows: Int = 1

    public var description: String {
        let which = flight.map { "flight \($0)" } ?? "a flight"
        let found = "\(rows == 1 ? "a \(row)" : "\(rows) \(row)s") with \(column) = \(value)"
        switch cost {
        case .valueMissing:
            return "\(which): \(found), which cannot be right: read as missing"
        case .rowLeftOut:
            return "\(which): \(found), which cannot be right: \(rows == 1 ? "it is" : "they are") left out"
        case .flownAgain:
            return "\(which): its stored summary has \(column) = \(value), which cannot be right: "
                + "flown again from its raw sensor log (`runway reprocess \(flight ?? 0) --replace` stores that)"
        case .flightLeftOut:
            return "\(which): its stored summary has \(column) = \(value), which cannot be right, and it "
                + "has no raw sensor log to fly again: it is left out"
        }
    }
}

/// The damage reads have met, one entry per flight, row kind, column and cost (counted).
final class DamageLog {
    private(set) var entries: [RowDamage] = []
    /// The column and value of the last required value that did not read.
    var failed: (column: String, value: String)?

    func add(_ damage: RowDamage) {
        if let i = entries.firstIndex(where: {
            $0.flight == damage.flight && $0.row == damage.row && $0.column == damage.column
                && $0.cost == damage.cost
        }) {
            entries[i].rows += damage.rows
        } else {
            entries.append(damage)
        }
    }

    /// What another read found: the same damage met again (a flight read twice) counts once.
    func merge(_ other: [RowDamage]) {
        for damage in other {
            if let i = entries.firstIndex(where: {
                $0.flight == damage.flight && $0.row == damage.row && $0.column == damage.column
                    && $0.cost == damage.cost
            }) {
                entries[i].rows = max(entries[i].rows, damage.rows)
            } else {
                entries.append(damage)
            }
        }
    }
}
