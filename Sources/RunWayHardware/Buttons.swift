/// What a button does (from the board configuration).
public enum ButtonRole: String, Sendable, CaseIterable {
    case start
    case pause
    case end
}

/// One button on one GPIO line.
public struct ButtonConfiguration: Sendable, Equatable {
    public var role: ButtonRole
    public var line: Int
    /// Pressed pulls the line low (a button to ground with the internal pull-up).
    public var activeLow: Bool

    public init(role: ButtonRole, line: Int, activeLow: Bool = true) {
        self.role = role
        self.line = line
        self.activeLow = activeLow
    }

    /// The default board (board/README.md): BCM 17 start, 27 pause/resume, 22 end.
    public static let defaultBoard = [
        ButtonConfiguration(role: .start, line: 17), ButtonConfiguration(role: .pause, line: 27),
        ButtonConfiguration(role: .end, line: 22),
    ]
}

/// A recognised press.
public enum ButtonPress: Sendable, Equatable, CustomStringConvertible {
    /// Released before the long-press time: acts on release.
    case short(ButtonRole, at: Double)
    /// Still held at the long-press time: fires then, while held, so the runner knows to let go.
    case long(ButtonRole, at: Double)

    public var description: String {
        switch self {
        case .short(let role, _): "short \(role.rawValue)"
        case .long(let role, _): "long \(role.rawValue)"
        }
    }
}

/// Turns edge wake-ups and confirmed levels into presses.
///
/// An edge only wakes the decoder; the level is read `debounce` later and a change counts only if
/// it differs from the last confirmed level, so a bounce train is one press. While a button is
/// held its level is also polled every `holdPoll` seconds: if the kernel's event queue overflowed
/// and the release edge was lost, the release is still seen and a bump can never turn into END.
public struct ButtonDecoder: Sendable {
    public var debounce = 0.025
    public var longPress = 2.0
    public var holdPoll = 0.05
    public let roles: [ButtonRole]
    private var pressed: [Bool]
    private var pressedAt: [Double]
    private var longFired: [Bool]
    private var checkAt: [Double?]

    public init(roles: [ButtonRole]) {
        self.roles = roles
        pressed = Array(repeating: false, count: roles.count)
        pressedAt = Array(repeating: 0, count: roles.count)
        longFired = Array(repeating: false, count: roles.count)
        checkAt = Array(repeating: nil, count: roles.count)
    }

    /// An edge on button `index` at `time` (monotonic seconds).
    public mutating func edge(_ index: Int, at time: Double) {
        if checkAt[index] == nil { checkAt[index] = time + debounce }
    }

    /// When the decoder next needs to look at the lines.
    public var nextDeadline: Double? {
        var deadlines: [Double] = checkAt.compactMap { $0 }
        for i in roles.indices where pressed[i] && !longFired[i] {
            deadlines.append(pressedAt[i] + longPress)
        }
        return deadlines.min()
    }

    /// Does whatever is due by `now`, reading confirmed levels through `level`.
    public mutating func check(at now: Double, level: (Int) -> Bool) -> [ButtonPress] {
        var presses: [ButtonPress] = []
        for i in roles.indices {
            if let due = checkAt[i], due <= now {
                checkAt[i] = nil
                let isPressed = level(i)
                if isPressed != pressed[i] {
                    pressed[i] = isPressed
                    if isPressed {
                        pressedAt[i] = due - debounce
                        longFired[i] = false
                    } else if !longFired[i] {
                        presses.append(.short(roles[i], at: due))
                    }
                }
                if pressed[i] { checkAt[i] = now + holdPoll }
            }
            if pressed[i], !longFired[i], now >= pressedAt[i] + longPress {
                if level(i) {
                    longFired[i] = true
                    presses.append(.long(roles[i], at: pressedAt[i] + longPress))
                } else {
                    pressed[i] = false  // released unseen: never promote a lost release to a hold
                }
            }
        }
        return presses
    }
}

/// Line-level access to the buttons: edge wake-ups with their monotonic timestamps, and levels.
/// The libgpiod backend and the simulated lines both speak it.
public protocol GPIOLines: AnyObject {
    /// Monotonic time now, seconds.
    var now: Double { get }
    /// Blocks until an edge arrives or `deadline` passes (nil: until an edge or `stop`); returns
    /// the edges read (button index, time). Some may be missing if the kernel's queue overflowed.
    /// Returns nil when stopped.
    func waitForEdges(until deadline: Double?) -> [(index: Int, time: Double)]?
    /// Whether button `index` is pressed now (active level applied).
    func isPressed(_ index: Int) -> Bool
}

/// Lines a service reads on a thread of its own and stops from another: `stop()` makes the
/// reader's `waitForEdges` return nil, from any thread, also before the reader started waiting.
public protocol StoppableGPIOLines: GPIOLines, Sendable {
    func stop()
}

/// The button loop shared by the real lines and the simulated ones.
public enum ButtonReader {
    /// Runs until `lines` is stopped, handing each press to `emit`.
    public static func run(lines: any GPIOLines, decoder: inout ButtonDecoder, emit: (ButtonPress) -> Void) {
        while let edges = lines.waitForEdges(until: decoder.nextDeadline) {
            for edge in edges { decoder.edge(edge.index, at: edge.time) }
            for press in decoder.check(at: lines.now, level: { lines.isPressed($0) }) { emit(press) }
        }
    }
}

/// Simulated button lines on a virtual clock: scripted level changes per button (bounce trains
/// included), an edge for each change, and a per-line event queue of `queueCapacity` that drops
/// what does not fit between two reads, as the kernel's does.
public final class SimulatedGPIOLines: GPIOLines {
    public private(set) var now: Double = 0
    public let queueCapacity: Int
    private var changes: [(time: Double, index: Int, pressed: Bool)]
    private var levels: [Bool]
    private var cursor = 0
    public let endTime: Double
    public private(set) var droppedEdges = 0

    /// - Parameter script: per button, the times its level changes and the new level.
    /// How long the reader takes to get to the queue after a wake-up: edges arriving meanwhile
    /// pile up in it.
    public let readLatency: Double

    public init(
        buttons: Int, script: [(index: Int, time: Double, pressed: Bool)], endTime: Double,
        queueCapacity: Int = 16,
        readLatency: Double = 0.005
    ) {
        changes = script.map { ($0.time, $0.index, $0.pressed) }.sorted { $0.time < $1.time }
        levels = Array(repeating: false, count: buttons)
        self.endTime = endTime
        self.queueCapacity = queueCapacity
        self.readLatency = readLatency
    }

    /// A press from `start` held for `hold` seconds, with `bounces` chatter edges 1 ms apart at
    /// both ends.
    public static func press(_ index: Int, at start: Double, hold: Double, bounces: Int = 0)
        -> [(index: Int, time: Double, pressed: Bool)]
    {
        var script: [(index: Int, time: Double, pressed: Bool)] = []
        for k in 0..<(bounces * 2) { script.append((index, start + Double(k) * 0.001, k % 2 == 0)) }
        script.append((index, start + Double(bounces * 2) * 0.001, true))
        let release = start + hold
        for k in 0..<(bounces * 2) { script.append((index, release + Double(k) * 0.001, k % 2 != 0)) }
        script.append((index, release + Double(bounces * 2) * 0.001, false))
        return script
    }

    public func waitForEdges(until deadline: Double?) -> [(index: Int, time: Double)]? {
        guard now < endTime else { return nil }
        let target = min(deadline ?? endTime, endTime)
        guard cursor < changes.count, changes[cursor].time <= target else {
            now = max(now, target)
            return []
        }
        // Everything that happened while nobody was reading: deliver up to the queue capacity per
        // line, drop the rest.
        let readTime = max(changes[cursor].time, now) + readLatency
        var edges: [(index: Int, time: Double)] = []
        var perLine: [Int: Int] = [:]
        while cursor < changes.count, changes[cursor].time <= readTime {
            let change = changes[cursor]
            levels[change.index] = change.pressed
            perLine[change.index, default: 0] += 1
            if perLine[change.index]! <= queueCapacity {
                edges.append((change.index, change.time))
            } else {
                droppedEdges += 1
            }
            cursor += 1
        }
        now = readTime
        return edges
    }

    /// Lets time pass without reading (a busy reader), so edges pile up in the queue.
    public func stall(until time: Double) {
        while cursor < changes.count, changes[cursor].time <= time {
            levels[changes[cursor].index] = changes[cursor].pressed
            cursor += 1
            droppedEdges += 1
        }
        now = max(now, time)
    }

    public func isPressed(_ index: Int) -> Bool {
        // Apply level changes up to now that were not yet consumed as edges.
        var i = cursor
        var level = levels[index]
        while i < changes.count, changes[i].time <= now {
            if changes[i].index == index { level = changes[i].pressed }
            i += 1
        }
        return level
    }
}
