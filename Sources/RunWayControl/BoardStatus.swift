import Foundation
import RunWayCore

/// What the daemon knows beyond the engine, for `status`.
public struct BoardStatus: Sendable, Equatable {
    public var batteryPercent: Double?
    /// Free bytes where the logbook lives.
    public var storageFreeBytes: Double?
    public var flightID: Int64?
    /// The barometer as runwayd last heard it (nil: it has not read one yet).
    public var barometer: Barometer?
    /// The paired Bluetooth sensors as runwayd's sensor service knows them (`.live` objects);
    /// nil when the service is not running (Bluetooth off in the configuration).
    public var sensors: [ControlSensor]?
    /// Whether the sensor service has a radio to use, and if not why; nil without the service.
    public var bluetooth: ControlBluetooth?
    /// The run START flies (the preflight choice), by name.
    public var run: String?

    public struct Barometer: Sendable, Equatable {
        public var answering: Bool
        /// The newest idle reading, Pa.
        public var pascals: Double?
        /// The tendency over the last hours (nil: under an hour of idle readings).
        public var weather: Barograph.Reading?

        public init(answering: Bool, pascals: Double?, weather: Barograph.Reading?) {
            self.answering = answering
            self.pascals = pascals
            self.weather = weather
        }
    }

    /// Free bytes on the filesystem holding `directory` (the logbook's), or nil when it cannot be
    /// read: what `status` says and what the checklist turns into hours of recording.
    public static func freeBytes(in directory: String) -> Double? {
        let attributes = try? FileManager.default.attributesOfFileSystem(
            forPath: directory.isEmpty ? "." : directory)
        return (attributes?[.systemFreeSize] as? NSNumber)?.doubleValue
    }

    public init(
        batteryPercent: Double? = nil, storageFreeBytes: Double? = nil, flightID: Int64? = nil,
        barometer: Barometer? = nil, sensors: [ControlSensor]? = nil, bluetooth: ControlBluetooth? = nil,
        run: String? = nil
    ) {
        self.run = run
        self.sensors = sensors
        self.bluetooth = bluetooth
        self.batteryPercent = batteryPercent
        self.storageFreeBytes = storageFreeBytes
        self.flightID = flightID
        self.barometer = barometer
    }
}
