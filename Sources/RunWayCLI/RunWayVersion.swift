import RunWayControl
import RunWayStore

/// `runway --version`: the release, and what a logbook written by this build is.
public enum RunWayVersion {
    /// `RunWayRelease.version`: the same for runwayd and the Debian package.
    public static let release = RunWayRelease.version

    public static var description: String {
        "runway \(release) (logbook schema \(Logbook.schemaVersionWritten), engine version \(Logbook.engineVersionWritten))"
    }
}
