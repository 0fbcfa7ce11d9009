import Foundation

/// How long a worker thread stays for more work once its queue is empty: callers whose writes
/// just finished usually queue their next one within microseconds, so a thread waits a moment
/// for it rather than end and have another started.
private let workerIdleLinger: TimeInterval = 0.005

/// A queue served by up to `maximumThreads` threads, each taking up to `maximumBatch` queued items
/// at a time and running `execute` on them. Threads start on demand and end once the queue has
/// stayed empty for a moment, so an idle database holds no thread. The writer thread
/// (``WriteBatcher``, one thread) and the commit syncer (``CommitSyncer``, a few) are both one.
final class WorkerThreads<Item: Sendable>: @unchecked Sendable {
    // @unchecked: `pending`, `threads` and `unfinishedItems` are guarded by `condition`.
    private let condition = NSCondition()
    private var pending: [Item] = []
    /// Threads alive (working, or waiting a moment for more work).
    private var threads = 0
    /// Items enqueued and not yet run to their end.
    private var unfinishedItems = 0
    private let name: String
    private let maximumThreads: Int
    private let maximumBatch: Int
    private let execute: @Sendable ([Item]) -> Void

    init(
        name: String, maximumThreads: Int, maximumBatch: Int = .max, execute: @escaping @Sendable ([Item]) -> Void
    ) {
        (self.name, self.maximumThreads, self.maximumBatch, self.execute) = (
            name, maximumThreads, maximumBatch, execute
        )
    }

    /// Items enqueued and not yet run to their end.
    var unfinished: Int {
        condition.lock()
        defer { condition.unlock() }
        return unfinishedItems
    }

    /// Queues `items`, starting a thread when fewer than `maximumThreads` are alive.
    func enqueue(contentsOf items: [Item]) {
        condition.lock()
        pending.append(contentsOf: items)
        unfinishedItems += items.count
        if threads < maximumThreads {
            threads += 1
            let thread = Thread { [self] in loop() }
            thread.name = name
            thread.start()
        }
        condition.signal()
        condition.unlock()
    }

    /// Takes what is queued (up to the batch limit) and runs it; ends once the queue has stayed
    /// empty for the linger.
    private func loop() {
        while true {
            condition.lock()
            if pending.isEmpty { _ = condition.wait(until: Date().addingTimeInterval(workerIdleLinger)) }
            guard !pending.isEmpty else {
                threads -= 1
                condition.unlock()
                return
            }
            let batch = Array(pending.prefix(maximumBatch))
            pending.removeFirst(batch.count)
            condition.unlock()
            execute(batch)
            condition.lock()
            unfinishedItems -= batch.count
            condition.unlock()
        }
    }
}
