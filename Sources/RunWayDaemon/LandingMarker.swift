import Foundation

/// `landed` beside the logbook, rewritten with the flight's number each time a flight is saved:
/// `runway-drive.path` watches it and rebuilds the USB drive image, so a computer the wearable is
/// plugged into sees the new run. Best effort: a marker that cannot be written costs only the
/// image's freshness (said in the log by the path unit's absence of a rebuild, never a fault).
enum LandingMarker {
    static let name = "landed"

    static func path(beside logbook: String) -> String {
        ((logbook as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
    }

    static func mark(flight id: Int64, beside logbook: String) {
        // Written in place (open, write, close): the close after writing is what PathChanged= sees.
        let fd = open(path(beside: logbook), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o640)
        guard fd >= 0 else { return }
        let text = Array("\(id)\n".utf8)
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
