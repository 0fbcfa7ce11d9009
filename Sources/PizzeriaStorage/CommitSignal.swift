import Synchronization

/// Wakes waiters when a write of this process commits, so a feed can look for new rows at once
/// instead of at its next poll. Other processes' commits are found by polling.
public final class CommitSignal: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, Never>
    }
    private let waiters = Mutex<(next: UInt64, list: [Waiter])>((0, []))

    init() {}

    /// Wakes everyone waiting.
    func notify() {
        let woken = waiters.withLock { state -> [Waiter] in
            defer { state.list.removeAll() }
            return state.list
        }
        for waiter in woken { waiter.continuation.resume() }
    }

    /// Returns at the next commit of this process, or when the task is cancelled.
    public func next() async {
        let id = waiters.withLock { state -> UInt64 in
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let cancelled = waiters.withLock { state -> Bool in
                    if Task.isCancelled { return true }
                    state.list.append(Waiter(id: id, continuation: continuation))
                    return false
                }
                if cancelled { continuation.resume() }
            }
        } onCancel: {
            let waiter = waiters.withLock { state -> Waiter? in
                guard let index = state.list.firstIndex(where: { $0.id == id }) else { return nil }
                return state.list.remove(at: index)
            }
            waiter?.continuation.resume()
        }
    }
}
