import RunWayStore

/// `runway --version`: the release, and what a logbook written by this build is.
public enum RunWayVersion {
    public static let release = "0.1.0"

    public static var description: String {
        "runway \(release) (logbook schema \(Logbook.schemaVersionWritten), engine version \(Logbook.engineVersionWritten))"
    }
}
