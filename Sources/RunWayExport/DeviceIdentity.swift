/// Who wrote a file: the product, its release and the board's serial number, in the FIT's
/// file_id and device_info and the TCX's Creator.
public struct DeviceIdentity: Sendable, Equatable {
    /// FIT's `product_name` and the TCX creator's name.
    public var productName = "RunWay Core"
    /// The release (`RunWayRelease.version`, passed in by the CLI: this target does not import
    /// RunWayControl): one version for `runway`, runwayd, the package and the files.
    public var version = "0.0.0"
    /// A stable number for this board (`serial(machineID:)`); FIT's `uint32z`, never 0.
    public var serialNumber: UInt32 = 1

    public init() {}

    public init(version: String, machineID: String) {
        self.version = version
        serialNumber = Self.serial(machineID: machineID)
    }

    /// FIT's `software_version` (a uint16 read at scale 100): major.minor.patch with one-digit
    /// minor and patch as major × 100 + minor × 10 + patch, so 0.1.0 reads 0.10 and 1.2.3 reads
    /// 1.23; a two-digit minor as major × 100 + minor (2.17.3 reads 2.17, the patch left out).
    public var softwareVersion: Int {
        let (major, minor, patch) = release
        let value = minor <= 9 && patch <= 9 ? major * 100 + minor * 10 + patch : major * 100 + min(minor, 99)
        return min(max(value, 0), 0xFFFE)
    }

    /// The release's major, minor and patch numbers (TCX's VersionMajor, VersionMinor, BuildMajor).
    public var release: (major: Int, minor: Int, patch: Int) {
        let parts = version.split(separator: ".").map { max(Int($0) ?? 0, 0) }
        return (parts.first ?? 0, parts.count > 1 ? parts[1] : 0, parts.count > 2 ? parts[2] : 0)
    }

    /// The board's serial: FNV-1a (32 bits) of "runway-serial:" and the machine id, so the
    /// machine id itself never leaves the board (systemd's machine-id(5) asks that it be hashed
    /// with an application-specific key before it is shown). 0 is FIT's invalid, so it becomes 1.
    public static func serial(machineID: String) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        let trimmed = machineID.split(whereSeparator: { $0 == "\n" || $0 == " " }).first ?? ""
        for byte in "runway-serial:\(trimmed)".utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return hash == 0 ? 1 : hash
    }
}
