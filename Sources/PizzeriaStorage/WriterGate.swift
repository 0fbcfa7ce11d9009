import Foundation
import Synchronization

/// The in-process write lock of one database file, shared by every ``Database`` of this process
/// that opens the file, so they queue here rather than on SQLite's file lock — and so a
/// checkpoint can know that no other connection of this process is writing.
///
/// This registry is the process's one piece of global state, for the reason SQLite keeps its own
/// list of open files: locks belong to files, not to handles.
final class WriterGate: @unchecked Sendable {
    // @unchecked: `lock` guards the writer; `owner` is atomic.
    private let lock = NSLock()
    /// The thread holding the gate (0 when free), so a nested write on the same thread is
    /// reported as misuse instead of waiting for itself forever.
    private let owner = Atomic<UInt>(0)

    private struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private static let gates = Mutex<[FileID: WriterGate]>([:])

    /// The gate of the file `status` describes.
    static func shared(for status: stat) -> WriterGate {
        let id = FileID(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        return gates.withLock { gates in
            if let gate = gates[id] { return gate }
            let gate = WriterGate()
            gates[id] = gate
            return gate
        }
    }

    /// Whether the calling thread holds the gate.
    var isHeldByCurrentThread: Bool {
        owner.load(ordering: .acquiring) == UInt(bitPattern: Int(bitPattern: pthread_self()))
    }

    /// Takes the gate if no thread holds it (the calling one included) and returns `true`;
    /// returns `false` at once otherwise. A `true` must be followed by ``leave()``.
    func enterIfFree() -> Bool {
        let me = UInt(bitPattern: Int(bitPattern: pthread_self()))
        guard owner.load(ordering: .acquiring) != me, lock.try() else { return false }
        owner.store(me, ordering: .releasing)
        return true
    }

    /// Gives back the gate taken by ``enterIfFree()``.
    func leave() {
        owner.store(0, ordering: .releasing)
        lock.unlock()
    }

    func run<T>(_ body: () throws -> T) throws -> T {
        let me = UInt(bitPattern: Int(bitPattern: pthread_self()))
        guard owner.load(ordering: .acquiring) != me else {
            throw DatabaseError.misuse(
                "write called inside another write on the same database; nest with the connection's savepoint")
        }
        lock.lock()
        owner.store(me, ordering: .releasing)
        defer {
            owner.store(0, ordering: .releasing)
            lock.unlock()
        }
        return try body()
    }
}
