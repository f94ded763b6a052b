import Foundation
import RunWayBluetooth
import RunWayCore
import RunWaySystem

/// One sensor the runner paired with runwayd.
struct PairedSensor: Sendable, Equatable {
    var address: BluetoothAddress
    /// The name BlueZ gave when it was paired; nil when the sensor never said one.
    var name: String?
    var kinds: Set<SensorKind>

    /// The name, else the address: what the log and the replies call it.
    var label: String { name ?? address.text }
}

/// The paired sensors, in runwayd's state beside the logbook (`/var/lib/runway/sensors.json`):
/// the runner's choice made with `runway sensors pair` / `forget`, never edited by hand.
///
///     {"version":1,"sensors":[{"address":"AA:BB:CC:DD:EE:FF","name":"Polar H10","kinds":["heart_rate"]}]}
///
/// Written durably: a temporary file in the same folder, fsynced, renamed over the file, the
/// folder fsynced — a power cut leaves the old list or the new one. (The project's other durable
/// writers — `WAVFile.write`, `ExportDirectory`, salvage — each carry their own rules for
/// devices, FAT and links; none is a shared helper for a small file, so this is the plain case.)
/// Read with the strict JSON parser; a file that is not a list of sensors is set aside as
/// `sensors.json.corrupt-<UTC time>` with a log line and read as none paired: never a crash. A
/// file that is there but cannot be read is read as none paired and never written over.
struct SensorStore: Sendable {
    let path: String

    /// A file larger than this is not runwayd's (two sensors are ~200 bytes).
    static let maximumBytes = 64 * 1024

    /// The file beside the logbook.
    init(logbookDirectory: String) {
        path = (logbookDirectory.isEmpty ? "." : logbookDirectory) + "/sensors.json"
    }

    init(path: String) { self.path = path }

    /// Why the paired sensors could not be stored: one case per step.
    enum WriteError: Error, Sendable, Equatable, CustomStringConvertible {
        case create(path: String, Errno)
        case write(path: String, Errno)
        case rename(path: String, Errno)

        var description: String {
            switch self {
            case .create(let path, let error): "cannot create \(path): \(error)"
            case .write(let path, let error): "cannot write \(path): \(error)"
            case .rename(let path, let error): "cannot rename into \(path): \(error)"
            }
        }
    }

    /// What `load` found.
    struct Loaded: Sendable, Equatable {
        var sensors: [PairedSensor]
        /// What to log: the file was corrupt (and set aside) or unreadable. Nil when it was fine
        /// or absent.
        var problem: String?
        /// The file is there but could not be read (EACCES, EIO…): it must not be written over
        /// (a pairing would replace the runner's list with one sensor).
        var unreadable = false
    }

    func load() -> Loaded {
        let bytes: [UInt8]
        switch read() {
        case .absent: return Loaded(sensors: [], problem: nil)
        case .unreadable(let error):
            return Loaded(
                sensors: [],
                problem: "\(path) cannot be read (\(error)): no sensor paired, and none can be, until it can",
                unreadable: true)
        case .bytes(let read): bytes = read
        }
        do throws(Corrupt) {
            return Loaded(sensors: try Self.parse(bytes), problem: nil)
        } catch {
            let aside = Self.asideName(for: path, at: time(nil))
            let moved = rename(path, aside) == 0
            return Loaded(
                sensors: [],
                problem: "\(path) is corrupt (\(error.reason)): read as no sensor paired; "
                    + (moved ? "kept as \(aside)" : "could not be set aside (\(Errno.current))"))
        }
    }

    /// Where a corrupt file is set aside: `sensors.json.corrupt-20261003T074216Z` (UTC, when it
    /// was found), with `-2`, `-3`… after it when that name is taken, so a second corrupt file
    /// never replaces the first.
    static func asideName(for path: String, at seconds: time_t) -> String {
        let stamp = UTCTime.format(Double(seconds)).filter { $0 != "-" && $0 != ":" }
        let base = path + ".corrupt-" + stamp
        var name = base
        var n = 1
        while access(name, F_OK) == 0 {
            n += 1
            name = base + "-\(n)"
        }
        return name
    }

    private enum Read {
        case absent
        case unreadable(Errno)
        case bytes([UInt8])
    }

    private func read() -> Read {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        } catch {
            return error.rawValue == ENOENT ? .absent : .unreadable(error)
        }
        defer { try? fd.close() }
        var bytes = [UInt8](repeating: 0, count: Self.maximumBytes + 1)
        var filled = 0
        do {
            while filled < bytes.count {
                let n = try fd.read(into: &bytes, from: filled)
                if n == 0 { break }
                filled += n
            }
        } catch {
            return .unreadable(error)
        }
        return .bytes(Array(bytes.prefix(filled)))
    }

    struct Corrupt: Error {
        var reason: String
    }

    static func parse(_ bytes: [UInt8]) throws(Corrupt) -> [PairedSensor] {
        guard bytes.count <= maximumBytes else { throw Corrupt(reason: "larger than \(maximumBytes) bytes") }
        let root: JSONValue
        do { root = try JSONValue.parse(bytes) } catch { throw Corrupt(reason: "not JSON: \(error)") }
        guard root["version"]?.numberValue == 1, case .array(let items)? = root["sensors"] else {
            throw Corrupt(reason: "not version 1 with a \"sensors\" list")
        }
        var sensors: [PairedSensor] = []
        for item in items {
            guard let address = item["address"]?.stringValue.flatMap(BluetoothAddress.init(parsing:)),
                case .array(let words)? = item["kinds"]
            else { throw Corrupt(reason: "a sensor without an address or kinds") }
            let kinds = Set(words.compactMap { $0.stringValue.flatMap(SensorKind.init(rawValue:)) })
            guard !kinds.isEmpty, kinds.count == words.count else {
                throw Corrupt(reason: "\(address): kinds must be heart_rate and/or cadence")
            }
            let name = item["name"]?.stringValue
            // One sensor per kind, as pairing keeps it: a second of a kind is not runwayd's file.
            guard !sensors.contains(where: { !$0.kinds.isDisjoint(with: kinds) || $0.address == address })
            else { throw Corrupt(reason: "two sensors for one kind") }
            sensors.append(PairedSensor(address: address, name: name, kinds: kinds))
        }
        return sensors
    }

    static func render(_ sensors: [PairedSensor]) -> String {
        JSONValue.object([
            ("version", .number(1)),
            (
                "sensors",
                .array(
                    sensors.map { sensor in
                        .object([
                            ("address", .string(sensor.address.text)),
                            ("name", sensor.name.map { .string($0) } ?? .null),
                            ("kinds", .array(sensor.kinds.sorted().map { .string($0.rawValue) })),
                        ])
                    })
            ),
        ]).rendered() + "\n"
    }

    /// Replaces the file with `sensors`, durably.
    func save(_ sensors: [PairedSensor]) throws(WriteError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let temporary = path + ".partial"
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(
                temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, permissions: 0o640)
        } catch {
            throw .create(path: temporary, error)
        }
        do {
            try fd.writeAll(Array(Self.render(sensors).utf8))
            try fd.sync()
        } catch {
            try? fd.close()
            unlink(temporary)
            throw .write(path: temporary, error)
        }
        // Closed once, whatever close says: Linux releases the descriptor even when close
        // fails, and a second close could close one another thread has just been given.
        do {
            try fd.close()
        } catch {
            unlink(temporary)
            throw .write(path: temporary, error)
        }
        guard rename(temporary, path) == 0 else {
            let error = Errno.current
            unlink(temporary)
            throw .rename(path: path, error)
        }
        if let directory = try? FileDescriptor.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) {
            try? directory.sync()
            try? directory.close()
        }
    }
}
