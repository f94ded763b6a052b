import CGpiod
import Foundation
import RunWayCore
import RunWaySystem

/// A GPIO chip opened through libgpiod v1; the chip and its lines stay inside this wrapper.
public final class GpiodChip {
    public let name: String
    let chip: OpaquePointer

    /// Why a chip or a line could not be had: the errno, what was being opened, and words a
    /// runner wiring a board can act on.
    public struct OpenError: Error, Sendable, Equatable, CustomStringConvertible {
        public enum What: Sendable, Equatable {
            case chip
            /// A line, with the role it was wanted for ("start", "buzzer").
            case line(Int, role: String)
        }

        public var errno: Errno
        public var chip: String
        public var what: What

        public var description: String {
            switch (what, errno) {
            case (.chip, .noSuchFile):
                "/dev/\(chip): no such GPIO chip — is this a Raspberry Pi-class board?"
            case (.chip, .permissionDenied), (.chip, .notPermitted):
                "/dev/\(chip): permission denied — add the user to the gpio group (sudo adduser $USER gpio)"
            case (.chip, _):
                "/dev/\(chip): \(errno)"
            case (.line(let offset, _), .invalidArgument):
                "\(chip) has no line \(offset)"
            case (.line(let offset, let role), Errno(rawValue: EBUSY)):
                "\(chip) line \(offset) (\(role)): in use — by another program or an overlay?"
            case (.line(let offset, let role), _):
                "\(chip) line \(offset) (\(role)): \(errno)"
            }
        }
    }

    /// - Parameter name: `gpiochip0`, or a path under /dev.
    public init(_ name: String = "gpiochip0") throws(OpenError) {
        self.name = name
        guard let chip = gpiod_chip_open_lookup(name) else {
            throw OpenError(errno: .current, chip: name, what: .chip)
        }
        self.chip = chip
    }

    deinit { gpiod_chip_close(chip) }

    func line(_ offset: Int, role: String) throws(OpenError) -> OpaquePointer {
        guard offset >= 0, offset <= Int(UInt32.max), let line = gpiod_chip_get_line(chip, UInt32(offset))
        else {
            throw OpenError(errno: .invalidArgument, chip: name, what: .line(offset, role: role))
        }
        return line
    }
}

/// The buttons on real GPIO lines: one event fd per line plus a wake eventfd, polled by the
/// caller's dedicated thread (`ButtonReader.run`).
public final class GpiodButtonLines: StoppableGPIOLines, @unchecked Sendable {
    // @unchecked Sendable: libgpiod's line handles (`OpaquePointer`, not Sendable) are the
    // reason. The chip, lines and fds are immutable after init; `waitForEdges`, `isPressed` and
    // `now` are called by the one reader thread only (`ButtonReader.run`), so no handle is ever
    // used from two threads; `stop()`, the one call from elsewhere, only signals the wake
    // eventfd (a `WakeSignal`, Sendable), and `deinit` runs after the reader has returned.
    private let chip: GpiodChip
    private let lines: [OpaquePointer]
    private let fds: [Int32]
    private let wake = WakeSignal()

    public init(chip: GpiodChip, buttons: [ButtonConfiguration], consumer: String = "runway") throws(GpiodChip
        .OpenError)
    {
        self.chip = chip
        var lines: [OpaquePointer] = []
        var fds: [Int32] = []
        for button in buttons {
            let line = try chip.line(button.line, role: button.role.rawValue)
            let fd = rw_gpiod_request_button(line, consumer, button.activeLow ? 1 : 0)
            guard fd >= 0 else {
                for line in lines { gpiod_line_release(line) }
                throw GpiodChip.OpenError(
                    errno: Errno(rawValue: -fd), chip: chip.name,
                    what: .line(button.line, role: button.role.rawValue))
            }
            lines.append(line)
            fds.append(fd)
        }
        self.lines = lines
        self.fds = fds
    }

    deinit { for line in lines { gpiod_line_release(line) } }

    /// Makes `waitForEdges` return nil (from any thread).
    public func stop() { wake.signal() }

    public var now: Double { MonotonicClock.seconds }

    public func waitForEdges(until deadline: Double?) -> [(index: Int, time: Double)]? {
        var pollfds = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        pollfds.append(pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0))
        let timeout = deadline.map { Int32(max(0, ($0 - now) * 1000).rounded(.up)) } ?? -1
        _ = try? Poll.wait(&pollfds, timeout: timeout)  // a failure finds no events below
        if pollfds.last!.revents != 0 { return nil }
        var edges: [(index: Int, time: Double)] = []
        var times = [Double](repeating: 0, count: 16)
        for (index, entry) in pollfds.dropLast().enumerated() where entry.revents & Int16(POLLIN) != 0 {
            let count = times.withUnsafeMutableBufferPointer {
                rw_gpiod_read_events(entry.fd, $0.baseAddress, 16)
            }
            for k in 0..<max(0, Int(count)) { edges.append((index, times[k])) }
        }
        return edges
    }

    public func isPressed(_ index: Int) -> Bool { gpiod_line_get_value(lines[index]) == 1 }
}

/// The buzzer's output line.
public final class GpiodOutputLine {
    private let chip: GpiodChip
    private let line: OpaquePointer

    public init(chip: GpiodChip, line offset: Int, consumer: String = "runway") throws(GpiodChip.OpenError) {
        self.chip = chip
        line = try chip.line(offset, role: "buzzer")
        let status = rw_gpiod_request_output(line, consumer)
        guard status == 0 else {
            throw GpiodChip.OpenError(
                errno: Errno(rawValue: -status), chip: chip.name, what: .line(offset, role: "buzzer"))
        }
    }

    deinit {
        gpiod_line_set_value(line, 0)
        gpiod_line_release(line)
    }

    public func set(_ on: Bool) { gpiod_line_set_value(line, on ? 1 : 0) }
}
