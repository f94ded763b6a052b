/// What a flight in progress keeps in memory that grows with its length: each list's element
/// count and the bytes it holds on the heap — an array's capacity × stride (its spare capacity
/// is memory too), the route's and the FDR's chunks as allocated (`ChunkedColumn.bytes`).
/// Deterministic, so a test can bound it where the process's RSS would measure the allocator
/// too (issue 29).
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
        parts.append(Part(name: name, count: list.count, bytes: list.capacity * MemoryLayout<T>.stride))
    }

    mutating func add(_ name: String, count: Int, bytes: Int) {
        parts.append(Part(name: name, count: count, bytes: bytes))
    }

    public var description: String {
        let listed = parts.filter { $0.count > 0 }.map { "\($0.name) \($0.count) (\($0.bytes / 1024) KiB)" }
        return "\(bytes / 1024) KiB: " + listed.joined(separator: ", ")
    }
}

extension FlightInProgress {
    var retained: RetainedMemory {
        var memory = RetainedMemory()
        memory.add("route", count: route.count, bytes: route.bytes)
        memory.add("samples", count: samples.count, bytes: samples.bytes)
        memory.add("decisions", decisions)
        memory.add("alerts", alerts)
        memory.add("pauses", pause.pauses)
        memory.add("moving segments", pause.movingSegments)
        memory.add("zone spans", zoneTime.spans)
        memory.add("splits", splits.completed)
        return memory
    }
}
