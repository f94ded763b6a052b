import Foundation
import RunWayCore
import RunWaySystem

/// Runs a tool to its end with posix_spawn and waitpid: standard output discarded, standard error
/// kept (its first 64 KiB) to say why it failed. Not Foundation's `Process`, whose wait runs a
/// CFRunLoop that needs a wakeup socket pair: under runway-gadget.service's sandbox that pair could
/// not be made and `runway drive` spun until systemd killed it (found by make board-test).
enum ChildProcess {
    struct Outcome {
        var status: Int32
        var standardError: String
    }

    enum Failure: Error, CustomStringConvertible {
        case spawn(String, Errno)
        case wait(String, Errno)

        var description: String {
            switch self {
            case .spawn(let tool, let errno): "cannot run \(tool): \(errno)"
            case .wait(let tool, let errno): "cannot wait for \(tool): \(errno)"
            }
        }
    }

    static func run(_ tool: String, _ arguments: [String], environment: [String: String]) throws(Failure)
        -> Outcome
    {
        let pipe: (read: FileDescriptor, write: FileDescriptor)
        do throws(Errno) { pipe = try FileDescriptor.pipe() } catch { throw .spawn(tool, error) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe.write.rawValue, 2)
        let argv = ([tool] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, tool, &actions, nil, argv, envp)
        try? pipe.write.close()
        guard spawned == 0 else {
            try? pipe.read.close()
            throw .spawn(tool, Errno(rawValue: spawned))
        }
        var said: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        // To the end of the tool's standard error (or a failed read).
        while let n = try? pipe.read.read(into: &buffer), n > 0 {
            if said.count < 65_536 { said += buffer[0..<n] }
        }
        try? pipe.read.close()
        var status: Int32 = 0
        do throws(Errno) {
            _ = try Errno.retryingInterrupts { waitpid(pid, &status, 0) }
        } catch {
            throw .wait(tool, error)
        }
        // WIFEXITED / WEXITSTATUS, as the C macros compute them.
        let exited = status & 0x7F == 0
        return Outcome(
            status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
            standardError: String(decoding: said, as: UTF8.self))
    }
}
