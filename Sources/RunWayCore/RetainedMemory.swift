/// What a flight in progress keeps in memory that grows with its length: each list's element
/// count and its bytes (count × stride; an array's spare capacity is not counted). Deterministic,
/// so a test can bound it where the process's RSS would measure the allocator too (issue 29).
public struct RetainedMemory: Sendable, Equatable, CustomStringConvertible {
    public struct Part: Sendable, Equatable {
        public var name: String
        public var count: Int
        public var bytes: Int
    }

    public var parts: [Part] = []

    public init() {}

    public var bytes: Int { parts.reduce(0) { $0 + $1.bytes } }

    /// The part named `name`, if the flight keeps one.
    public subscript(name: String) -> Part? { parts.first { $0.name == name } }

    mutating func add<T>(_ name: String, _ list: [T]) {
        parts.append(Part(name: name, count: list.count, bytes: list.count * MemoryLayout<T>.stride))
    }

    public var description: String {
        let listed = parts.filter { $0.count > 0 }.map { "\($0.name) \($0.count) (\($0.bytes / 1024) KiB)" }
        return "\(bytes / 1024) KiB: " + listed.joined(separator: ", ")
    }
}

extension FlightInProgress {
    var retained: RetainedMemory {
        var memory = RetainedMemory()
        memory.add("route", route)
        memory.add("samples", samples)
        memory.add("decisions", decisions)
        memory.add("alerts", alerts)
        memory.add("pauses", pause.pauses)
        memory.add("moving segments", pause.movingSegments)
        memory.add("zone spans", zoneTime.spans)
        memory.add("splits", splits.completed)
        return memory
    }
}
