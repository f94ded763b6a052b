import CSystemd
import Glibc
import RunWaySystem

/// Why a D-Bus call failed, as sd-bus said it: the D-Bus error name and message when the peer
/// (or the bus) answered with an error, else the negative errno of the local failure. Callers
/// turn it into the `BluetoothError` their request stands for (`BlueZRadio.error(for:…)`).
struct BusFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// e.g. "org.bluez.Error.AuthenticationFailed"; nil when sd-bus failed locally.
    var name: String?
    var message: String
    /// The errno sd-bus returned (positive), 0 when the failure came as an error reply.
    var errno: Int32

    var description: String { name.map { "\($0): \(message)" } ?? "errno \(errno): \(message)" }

    /// A local failure of an sd-bus call that returned `-code`.
    static func local(_ code: Int32, _ what: String) -> BusFailure {
        BusFailure(name: nil, message: "\(what): \(String(cString: strerror(code)))", errno: code)
    }

    /// The error an sd_bus_error (from sd_bus_call or an error reply) carries.
    init(error: UnsafePointer<sd_bus_error>, errno code: Int32) {
        name = error.pointee.name.map { String(cString: $0) }
        message = error.pointee.message.map { String(cString: $0) } ?? String(cString: strerror(code))
        errno = code
    }

    init(name: String?, message: String, errno: Int32) {
        self.name = name
        self.message = message
        self.errno = errno
    }
}

/// A D-Bus value read from a message: every type BlueZ sends, containers included. Variants
/// keep their wrapper (`.variant`); the accessors below look through it.
indirect enum DBusValue: Sendable, Equatable {
    case boolean(Bool)
    case signed(Int64)
    case unsigned(UInt64)
    case double(Double)
    /// s, o and g.
    case string(String)
    /// ay, read in one piece.
    case bytes([UInt8])
    case array([DBusValue])
    case dictionary([(key: DBusValue, value: DBusValue)])
    case structure([DBusValue])
    case variant(DBusValue)
    /// A unix file descriptor (h): its index, not duplicated (BlueZ sends none we use).
    case descriptor(Int32)

    static func == (a: DBusValue, b: DBusValue) -> Bool {
        switch (a, b) {
        case (.boolean(let x), .boolean(let y)): x == y
        case (.signed(let x), .signed(let y)): x == y
        case (.unsigned(let x), .unsigned(let y)): x == y
        case (.double(let x), .double(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.bytes(let x), .bytes(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.dictionary(let x), .dictionary(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.structure(let x), .structure(let y)): x == y
        case (.variant(let x), .variant(let y)): x == y
        case (.descriptor(let x), .descriptor(let y)): x == y
        default: false
        }
    }

    /// The value inside any number of variants.
    var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    var string: String? {
        if case .string(let s) = unwrapped { return s }
        return nil
    }

    var boolean: Bool? {
        if case .boolean(let b) = unwrapped { return b }
        return nil
    }

    var integer: Int? {
        switch unwrapped {
        case .signed(let v): Int(exactly: v)
        case .unsigned(let v): Int(exactly: v)
        default: nil
        }
    }

    var bytes: [UInt8]? {
        switch unwrapped {
        case .bytes(let b): b
        case .array(let items) where items.isEmpty: []
        default: nil
        }
    }

    var strings: [String]? {
        guard case .array(let items) = unwrapped else { return nil }
        let strings = items.compactMap(\.string)
        return strings.count == items.count ? strings : nil
    }

    /// A dictionary with string keys (a{sv}, a{sa{sv}}, a{oa{…}}), variants kept as values.
    var stringKeyed: [String: DBusValue]? {
        guard case .dictionary(let pairs) = unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for pair in pairs {
            guard let key = pair.key.string else { return nil }
            result[key] = pair.value
        }
        return result
    }
}

/// A D-Bus argument to append to a method call: the few shapes BlueZ's calls take.
indirect enum DBusArgument: Sendable {
    case string(String)
    case objectPath(String)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case uint32(UInt32)
    case bytes([UInt8])
    case strings([String])
    case variant(DBusArgument)
    /// a{sv}: every value goes in a variant.
    case options([(String, DBusArgument)])

    var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .uint32: "u"
        case .bytes: "ay"
        case .strings: "as"
        case .variant: "v"
        case .options: "a{sv}"
        }
    }
}

/// A D-Bus type code as sd-bus takes it (a C `char`, whichever signedness it has).
func typeCode(_ ascii: Unicode.Scalar) -> CChar { CChar(truncatingIfNeeded: UInt8(ascii: ascii)) }

/// One sd-bus connection (sd_bus*), owned by the one thread that made it: sd-bus is not
/// thread-safe, so this class is not Sendable and every call must come from that thread.
/// Synchronous calls are bounded (`call`'s timeout, 1 s by default); everything else is
/// non-blocking: `process()` handles what has arrived, `callAsync` and `match` register C
/// callbacks that `process()` invokes.
final class BusConnection {
    let bus: OpaquePointer

    /// How long connecting may take: the socket's authentication and the bus's Hello. sd-bus
    /// would wait up to its own 90 s auth timeout (and 25 s for Hello) the first time a call
    /// needs the bus, on the thread that owns it.
    static let connectTimeout = 2.0

    /// The system bus (where bluetoothd lives): `DBUS_SYSTEM_BUS_ADDRESS`, else the standard
    /// socket, as sd_bus_open_system finds it — opened here so that the wait is bounded.
    convenience init() throws(BusFailure) {
        let address =
            getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) }
            ?? "unix:path=/run/dbus/system_bus_socket"
        try self.init(address: address)
    }

    /// The bus at `address` (`unix:path=/run/…`): the system bus, or a private bus in tests.
    /// Returns once the bus has authenticated us and answered Hello, or throws ETIMEDOUT after
    /// `connectTimeout`.
    convenience init(address: String) throws(BusFailure) {
        var bus: OpaquePointer?
        var r = sd_bus_new(&bus)
        guard r >= 0, let bus else { throw .local(-r, "sd_bus_new") }
        // Before sd_bus_start: the Hello it sends takes the timeout in force then.
        r = sd_bus_set_method_call_timeout(bus, UInt64(Self.connectTimeout * 1e6))
        if r >= 0 { r = sd_bus_set_address(bus, address) }
        if r >= 0 { r = sd_bus_set_bus_client(bus, 1) }
        if r >= 0 { r = sd_bus_start(bus) }
        if r >= 0 { r = Self.waitReady(bus) }
        guard r >= 0 else {
            sd_bus_unref(bus)
            throw .local(-r, "cannot connect to the D-Bus at \(address)")
        }
        self.init(bus)
    }

    /// Processes the connection's authentication and Hello until it is ready, at most
    /// `connectTimeout`: 0, or a negative errno (-ETIMEDOUT when it took too long).
    private static func waitReady(_ bus: OpaquePointer) -> Int32 {
        let deadline = MonotonicClock.seconds + connectTimeout
        while true {
            let ready = sd_bus_is_ready(bus)
            if ready != 0 { return ready < 0 ? ready : 0 }
            let processed = sd_bus_process(bus, nil)
            if processed < 0 { return processed }
            if processed > 0 { continue }
            let left = deadline - MonotonicClock.seconds
            guard left > 0 else { return -ETIMEDOUT }
            let waited = sd_bus_wait(bus, UInt64(left * 1e6))
            if waited < 0 { return waited }
        }
    }

    private init(_ bus: OpaquePointer) {
        self.bus = bus
        // sd-bus's own synchronous calls (AddMatch in sd_bus_add_match) wait at most 1 s, not
        // its default 25 s.
        sd_bus_set_method_call_timeout(bus, 1_000_000)
    }

    deinit {
        sd_bus_flush_close_unref(bus)
    }

    var descriptor: Int32 { sd_bus_get_fd(bus) }

    /// Seconds until sd-bus needs `process()` (a reply's timeout, or queued input: 0); nil: none.
    func timeout() -> Double? {
        var deadline: UInt64 = 0
        guard sd_bus_get_timeout(bus, &deadline) > 0, deadline != UInt64.max else { return nil }
        if deadline == 0 { return 0 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        return deadline > nowMicroseconds ? Double(deadline - nowMicroseconds) / 1e6 : 0
    }

    /// Handles one incoming message or timeout (its callbacks run now); false: nothing was left.
    func processOne() throws(BusFailure) -> Bool {
        let r = sd_bus_process(bus, nil)
        guard r >= 0 else { throw .local(-r, "the D-Bus connection failed") }
        return r > 0
    }

    /// Writes what is queued (requests just sent), waiting only while the socket is full.
    func flush() throws(BusFailure) {
        let r = sd_bus_flush(bus)
        guard r >= 0 else { throw .local(-r, "the D-Bus connection failed") }
    }

    /// A method call message with `arguments` appended, auto-start off (a missing bluetoothd is
    /// reported, not activated behind the caller's back). The caller unrefs it.
    func methodCall(
        _ destination: String, _ path: String, _ interface: String, _ member: String,
        _ arguments: [DBusArgument]
    ) throws(BusFailure) -> OpaquePointer {
        var message: OpaquePointer?
        var r = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard r >= 0, let message else { throw .local(-r, "cannot build \(interface).\(member)") }
        r = sd_bus_message_set_auto_start(message, 0)
        for argument in arguments where r >= 0 { r = Self.append(argument, to: message) }
        guard r >= 0 else {
            sd_bus_message_unref(message)
            throw .local(-r, "cannot build \(interface).\(member)")
        }
        return message
    }

    /// Calls and waits for the reply, at most `timeout` seconds; the reply's arguments.
    func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String,
        _ arguments: [DBusArgument] = [], timeout: Double = 1
    ) throws(BusFailure) -> [DBusValue] {
        let message = try methodCall(destination, path, interface, member, arguments)
        defer { sd_bus_message_unref(message) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let r = sd_bus_call(bus, message, UInt64(timeout * 1e6), &error, &reply)
        guard r >= 0, let reply else { throw BusFailure(error: &error, errno: -r) }
        defer { sd_bus_message_unref(reply) }
        return try Self.readAll(reply)
    }

    /// Sends without waiting; `callback` gets the reply (or the error, or sd-bus's timeout
    /// error after `timeout` seconds) from a later `process()`, with `userdata`. The returned
    /// slot keeps the call: unref it to cancel (the callback then never runs).
    func callAsync(
        _ destination: String, _ path: String, _ interface: String, _ member: String,
        _ arguments: [DBusArgument], timeout: Double, callback: sd_bus_message_handler_t,
        userdata: UnsafeMutableRawPointer
    ) throws(BusFailure) -> OpaquePointer {
        let message = try methodCall(destination, path, interface, member, arguments)
        defer { sd_bus_message_unref(message) }
        var slot: OpaquePointer?
        let r = sd_bus_call_async(bus, &slot, message, callback, userdata, UInt64(timeout * 1e6))
        guard r >= 0, let slot else { throw .local(-r, "cannot send \(interface).\(member)") }
        return slot
    }

    /// Adds a match rule (waits for the bus to confirm it, bounded by sd-bus's method-call
    /// timeout); unref the slot to remove it.
    func match(
        _ rule: String, callback: sd_bus_message_handler_t, userdata: UnsafeMutableRawPointer
    ) throws(BusFailure) -> OpaquePointer {
        var slot: OpaquePointer?
        let r = sd_bus_add_match(bus, &slot, rule, callback, userdata)
        guard r >= 0, let slot else { throw .local(-r, "cannot add the match \(rule)") }
        return slot
    }

    // MARK: Writing

    static func append(_ argument: DBusArgument, to m: OpaquePointer) -> Int32 {
        switch argument {
        case .string(let s): return sd_bus_message_append_basic(m, typeCode("s"), s)
        case .objectPath(let s): return sd_bus_message_append_basic(m, typeCode("o"), s)
        case .boolean(let b):
            var value: Int32 = b ? 1 : 0
            return sd_bus_message_append_basic(m, typeCode("b"), &value)
        case .int16(let n):
            var value = n
            return sd_bus_message_append_basic(m, typeCode("n"), &value)
        case .uint16(let n):
            var value = n
            return sd_bus_message_append_basic(m, typeCode("q"), &value)
        case .uint32(let n):
            var value = n
            return sd_bus_message_append_basic(m, typeCode("u"), &value)
        case .bytes(let bytes):
            return bytes.withUnsafeBytes {
                sd_bus_message_append_array(m, typeCode("y"), $0.baseAddress, $0.count)
            }
        case .strings(let strings):
            return container(m, "a", "s") { strings.reduce(0) { $0 < 0 ? $0 : append(.string($1), to: m) } }
        case .variant(let inner):
            return container(m, "v", inner.signature) { append(inner, to: m) }
        case .options(let pairs):
            return container(m, "a", "{sv}") {
                pairs.reduce(0) { r, pair in
                    r < 0
                        ? r
                        : container(m, "e", "sv") {
                            let key = append(.string(pair.0), to: m)
                            return key < 0 ? key : append(.variant(pair.1), to: m)
                        }
                }
            }
        }
    }

    private static func container(
        _ m: OpaquePointer, _ type: Unicode.Scalar, _ contents: String, _ body: () -> Int32
    ) -> Int32 {
        var r = sd_bus_message_open_container(m, typeCode(type), contents)
        if r >= 0 { r = body() }
        if r >= 0 { r = sd_bus_message_close_container(m) }
        return r
    }

    // MARK: Reading

    /// Every argument of `message` from its current position on.
    static func readAll(_ message: OpaquePointer) throws(BusFailure) -> [DBusValue] {
        var values: [DBusValue] = []
        while let value = try readNext(message) { values.append(value) }
        return values
    }

    /// The next value in the current container; nil at its end.
    static func readNext(_ m: OpaquePointer) throws(BusFailure) -> DBusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let r = sd_bus_message_peek_type(m, &type, &contents)
        guard r >= 0 else { throw .local(-r, "cannot read a D-Bus message") }
        guard r > 0 else { return nil }
        return try read(m, UInt8(truncatingIfNeeded: type), contents)
    }

    private static func basic<T>(_ m: OpaquePointer, _ type: UInt8, _ zero: T) throws(BusFailure) -> T {
        var value = zero
        let r = withUnsafeMutablePointer(to: &value) {
            sd_bus_message_read_basic(m, CChar(truncatingIfNeeded: type), $0)
        }
        guard r > 0 else { throw .local(r < 0 ? -r : EBADMSG, "cannot read a D-Bus value") }
        return value
    }

    private static func read(
        _ m: OpaquePointer, _ type: UInt8, _ contents: UnsafePointer<CChar>?
    ) throws(BusFailure) -> DBusValue {
        switch Unicode.Scalar(type) {
        case "y": return .unsigned(UInt64(try basic(m, type, UInt8(0))))
        case "b": return .boolean(try basic(m, type, Int32(0)) != 0)
        case "n": return .signed(Int64(try basic(m, type, Int16(0))))
        case "q": return .unsigned(UInt64(try basic(m, type, UInt16(0))))
        case "i": return .signed(Int64(try basic(m, type, Int32(0))))
        case "u": return .unsigned(UInt64(try basic(m, type, UInt32(0))))
        case "x": return .signed(try basic(m, type, Int64(0)))
        case "t": return .unsigned(try basic(m, type, UInt64(0)))
        case "d": return .double(try basic(m, type, Double(0)))
        case "h": return .descriptor(try basic(m, type, Int32(0)))
        case "s", "o", "g":
            let pointer = try basic(m, type, UnsafePointer<CChar>?.none)
            return .string(pointer.map { String(cString: $0) } ?? "")
        case "a":
            let signature = contents.map { String(cString: $0) } ?? ""
            if signature == "y" {
                var data: UnsafeRawPointer?
                var size = 0
                let r = sd_bus_message_read_array(m, typeCode("y"), &data, &size)
                guard r >= 0 else { throw .local(-r, "cannot read a byte array") }
                guard let data, size > 0 else { return .bytes([]) }
                return .bytes(Array(UnsafeRawBufferPointer(start: data, count: size)))
            }
            try enter(m, type, contents)
            var items: [DBusValue] = []
            var pairs: [(key: DBusValue, value: DBusValue)] = []
            while true {
                var entryType: CChar = 0
                var entryContents: UnsafePointer<CChar>?
                let r = sd_bus_message_peek_type(m, &entryType, &entryContents)
                guard r >= 0 else { throw .local(-r, "cannot read a D-Bus array") }
                guard r > 0 else { break }
                if UInt8(truncatingIfNeeded: entryType) == UInt8(ascii: "e") {
                    try enter(m, UInt8(ascii: "e"), entryContents)
                    guard let key = try readNext(m), let value = try readNext(m) else {
                        throw .local(EBADMSG, "a dictionary entry without key and value")
                    }
                    try exit(m)
                    pairs.append((key, value))
                } else {
                    items.append(try read(m, UInt8(truncatingIfNeeded: entryType), entryContents))
                }
            }
            try exit(m)
            return signature.hasPrefix("{") ? .dictionary(pairs) : .array(items)
        case "v":
            try enter(m, type, contents)
            guard let inner = try readNext(m) else { throw .local(EBADMSG, "an empty variant") }
            try exit(m)
            return .variant(inner)
        case "r":
            try enter(m, type, contents)
            let fields = try readAll(m)
            try exit(m)
            return .structure(fields)
        default:
            throw .local(EBADMSG, "a D-Bus type '\(Character(Unicode.Scalar(type)))' RunWay does not read")
        }
    }

    private static func enter(_ m: OpaquePointer, _ type: UInt8, _ contents: UnsafePointer<CChar>?)
        throws(BusFailure)
    {
        let r = sd_bus_message_enter_container(m, CChar(truncatingIfNeeded: type), contents)
        guard r > 0 else { throw .local(r < 0 ? -r : EBADMSG, "cannot enter a D-Bus container") }
    }

    private static func exit(_ m: OpaquePointer) throws(BusFailure) {
        let r = sd_bus_message_exit_container(m)
        guard r >= 0 else { throw .local(-r, "cannot leave a D-Bus container") }
    }
}
