/// A change of a GPWS band alert (SINK RATE, OVERSPEED, HR HIGH, HR LOW), as a monitor reports it.
public enum GPWSChange: Sendable, Equatable {
    /// An episode began (backdated to when the verdict first said so): a callout.
    case began(GPWSAlert, at: Double)
    /// It ended (backdated likewise); said only once no same-kind return followed within the
    /// merge window.
    case ended(GPWSAlert, at: Double)
    /// A long episode, said again.
    case repeated(GPWSAlert, at: Double)
}

/// What a band alert is saying now.
public enum GPWSAlertState: Sendable, Equatable {
    case normal
    case alerting(GPWSAlert)
}

/// The bearable half of a band alert, the same for pace and heart rate (SPEC "bearable
/// callouts"): a verdict must hold `confirmSeconds` before it takes effect (the episode is
/// backdated to when it began); an episode of the same kind that begins within `mergeSeconds`
/// of the last one's end is the same episode; a long episode is said again every
/// `repeatSeconds`, never continuously. The monitors decide the verdict; this keeps the episodes.
struct AlertEpisodeKeeper: Sendable {
    var confirmSeconds: Double
    var mergeSeconds: Double
    var repeatSeconds: Double
    private(set) var state: GPWSAlertState = .normal
    private var candidate: (state: GPWSAlertState, since: Double)?
    /// An episode that ended, not yet reported: a same-kind return within `mergeSeconds` continues it.
    private var pendingEnd: (kind: GPWSAlert, at: Double)?
    private var lastSaid: Double = 0

    init(confirmSeconds: Double, mergeSeconds: Double, repeatSeconds: Double) {
        self.confirmSeconds = confirmSeconds
        self.mergeSeconds = mergeSeconds
        self.repeatSeconds = repeatSeconds
    }

    /// Forgets a verdict that has not yet held (no verdict now: standing, settling, no reading).
    mutating func dropCandidate() { candidate = nil }

    /// Moves to `next` once it has held `confirmSeconds`.
    mutating func settle(_ next: GPWSAlertState, at time: Double) -> [GPWSChange] {
        guard next != state else {
            candidate = nil
            return []
        }
        if candidate?.state != next { candidate = (next, time) }
        guard let since = candidate?.since, time - since >= confirmSeconds else { return [] }
        candidate = nil
        var changes: [GPWSChange] = []
        if case .alerting(let old) = state {
            // Held back: a same-kind return within mergeSeconds continues this episode.
            pendingEnd = (old, since)
        }
        state = next
        if case .alerting(let new) = next {
            if let pending = pendingEnd, pending.kind == new {
                pendingEnd = nil  // the same episode goes on
            } else {
                changes += flushPendingEnd(at: .infinity)
                changes.append(.began(new, at: since))
                lastSaid = time
            }
        }
        return changes
    }

    /// A long episode's repeat, when `repeatSeconds` have passed since it was last said.
    mutating func repeatIfDue(at time: Double) -> [GPWSChange] {
        guard case .alerting(let kind) = state, time - lastSaid >= repeatSeconds else { return [] }
        lastSaid = time
        return [.repeated(kind, at: time)]
    }

    /// Ends any episode at once (pause, MISSION COMPLETE, touchdown); nothing is held back.
    mutating func silence(at time: Double) -> [GPWSChange] {
        candidate = nil
        var changes = flushPendingEnd(at: .infinity)
        if case .alerting(let kind) = state { changes.append(.ended(kind, at: time)) }
        state = .normal
        return changes
    }

    /// Reports a held-back end once `mergeSeconds` have passed without a return (or now, with
    /// `.infinity`).
    mutating func flushPendingEnd(at time: Double) -> [GPWSChange] {
        guard let pending = pendingEnd, time - pending.at >= mergeSeconds else { return [] }
        pendingEnd = nil
        return [.ended(pending.kind, at: pending.at)]
    }
}
