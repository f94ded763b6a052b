import RunWayCore

/// The raw sensor log: every input exactly as the engine received it, so any flight can be flown
/// again by a newer engine. A batch is stored as compact text, one input per line (`F`ix,
/// `N`o-fix, `P`ressure, `B`ody (heart rate, cadence, and a footpod's speed and distance when one
/// sent them), `T`ick, commands), numbers in shortest round-trip form, so
/// replay is bit-exact and the rows stay small.
public enum RawLog {
    public static func encode(_ inputs: [EngineInput]) -> String {
        inputs.compactMap(encode).joined(separator: "\n")
    }

    static func n(_ value: Double?) -> String { value.map { "\($0)" } ?? "" }

    static func encode(_ input: EngineInput) -> String? {
        switch input {
        case .fix(let f):
            return [
                "F", n(f.time), n(f.coordinate.latitude), n(f.coordinate.longitude), n(f.horizontalAccuracy),
                n(f.speed), n(f.track), n(f.altitude), "\(f.mode)",
            ].joined(separator: ",")
        case .pressure(let p): return "P,\(n(p.time)),\(n(p.pascals))"
        case .body(let b):
            // A footpod's speed and distance make six fields; without them, the four of old.
            let base = "B,\(n(b.time)),\(n(b.heartRate)),\(n(b.cadence))"
            guard b.footpodSpeed != nil || b.footpodDistance != nil else { return base }
            return base + ",\(n(b.footpodSpeed)),\(n(b.footpodDistance))"
        case .tick(let t): return "T,\(n(t))"
        case .pause(let t): return "PA,\(n(t))"
        case .resume(let t): return "RE,\(n(t))"
        case .togglePause(let t): return "TP,\(n(t))"
        case .lap(let t): return "LP,\(n(t))"
        case .barometerLost(let t): return "BL,\(n(t))"
        case .start: return nil  // stored on the flight row
        case .end: return nil  // the raw log ends where the flight does; a replay lands it
        }
    }

    /// A fix's mode (0–3); anything else (a flipped bit: 1e300) is no fix, never a trap.
    static func mode(_ value: Double?) -> Int {
        guard let value, (0...3).contains(value) else { return 0 }
        return Int(value)
    }

    /// A batch's inputs, in either form: compact (`RawLog.compact`, its first line the mark)
    /// or plain.
    public static func decode(_ text: String) -> [EngineInput] {
        if text.utf8.first == compactMark.utf8.first { return decodeCompact(text) }
        return text.split(separator: "\n").compactMap { line in
            input(
                tag: line.prefix { $0 != "," },
                line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) })
        }
    }

    /// One input from its tag and its fields (`f[0]` is the tag's place, the time is `f[1]`).
    static func input(tag: Substring, _ f: [Double?]) -> EngineInput? {
        // A time past any receiver's (a flipped exponent: 1e300) is no input. A nearer wrong
        // time (a flipped digit: 1759… → 2759…) is the engine's to hold and drop.
        guard let time = f.count > 1 ? f[1] : nil, abs(time) <= GPSReport.timeRange.upperBound else {
            return nil
        }
        switch tag {
        case "F" where f.count == 9:
            guard let lat = f[2], let lon = f[3] else { return nil }
            return .fix(
                Fix(
                    time: time, coordinate: Coordinate(latitude: lat, longitude: lon),
                    horizontalAccuracy: f[4],
                    speed: f[5], track: f[6], altitude: f[7], mode: mode(f[8])))
        case "P" where f.count == 3:
            return f[2].map { .pressure(PressureSample(time: time, pascals: $0)) }
        case "B" where f.count == 4: return .body(BodySample(time: time, heartRate: f[2], cadence: f[3]))
        case "B" where f.count == 6:
            return .body(
                BodySample(
                    time: time, heartRate: f[2], cadence: f[3], footpodSpeed: f[4], footpodDistance: f[5])
            )
        case "T": return .tick(time)
        case "PA": return .pause(at: time)
        case "RE": return .resume(at: time)
        case "TP": return .togglePause(at: time)
        case "LP": return .lap(at: time)
        case "BL": return .barometerLost(at: time)
        default: return nil
        }
    }
}
