import Glibc
import RunWayCore
import RunWaySystem

/// A salvage writes its new logbook under a temporary name beside the target and moves it into
/// place only when it is complete — written, closed, fsynced, renamed without replacing
/// anything, the folder fsynced — so a kill mid-salvage leaves no partial logbook under the
/// target's name, and the next salvage removes what the killed one left and starts again.
extension Logbook {
    /// Where a salvage into `target` writes until it is complete.
    public static func partialPath(forSalvageInto target: String) -> String { target + ".partial" }

    /// Salvages the damaged logbook at `path` into a new logbook at `target` (which must not
    /// exist); nothing is left at `target` when no flight could be saved.
    public static func salvage(
        from path: String, into target: String, configuration: EngineConfiguration = EngineConfiguration(),
        progress: ((Double) -> Void)? = nil
    ) throws(StoreError) -> (flights: [SalvagedFlight], note: String?) {
        let partial = partialPath(forSalvageInto: target)
        removeLogbookFiles(partial)  // what a killed salvage left
        let result: (flights: [SalvagedFlight], note: String?)
        do {
            let logbook = try Logbook(path: partial, journalCapacity: 0)
            result = try logbook.salvage(from: path, configuration: configuration, progress: progress)
        } catch {
            removeLogbookFiles(partial)
            throw error
        }
        // The new logbook is closed here: its rollback journal is gone, the file is whole.
        guard result.flights.contains(where: { $0.newID != nil }) else {
            removeLogbookFiles(partial)
            return result
        }
        do {
            try moveIntoPlace(partial, target)
        } catch {
            removeLogbookFiles(partial)
            throw error
        }
        return result
    }

    /// fsync, rename without replacing (a hard link, then the temporary name removed; where the
    /// filesystem has no links, FAT, a check then a rename), fsync the folder.
    private static func moveIntoPlace(_ partial: String, _ target: String) throws(StoreError) {
        let operation = "moving the salvaged logbook into place"
        try sync(partial, operation: "syncing the salvaged logbook")
        if link(partial, target) == 0 {
            unlink(partial)
        } else {
            let failure = Errno.current
            guard failure == .notPermitted || failure == .notSupported || failure.rawValue == EXDEV else {
                throw .io(failure, operation: operation, path: target)
            }
            guard Glibc.access(target, F_OK) != 0 else {
                throw .io(Errno(rawValue: EEXIST), operation: operation, path: target)
            }
            guard rename(partial, target) == 0 else {
                throw .io(.current, operation: operation, path: target)
            }
        }
        let slash = target.lastIndex(of: "/")
        let folder = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
        try sync(folder, operation: "syncing the folder of the salvaged logbook")
    }

    private static func sync(_ path: String, operation: String) throws(StoreError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(.current, operation: operation, path: path) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw .io(.current, operation: operation, path: path) }
    }

    /// A logbook file with its rollback and raw-log journals.
    static func removeLogbookFiles(_ path: String) {
        for suffix in ["", "-journal", "-rawlog"] { unlink(path + suffix) }
    }
}
