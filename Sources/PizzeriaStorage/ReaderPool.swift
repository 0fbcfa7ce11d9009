import Foundation

/// Read-only connections, opened on demand up to a limit and reused.
final class ReaderPool: @unchecked Sendable {
    // @unchecked: `idle` is guarded by `lock`; a connection taken out of `idle` belongs to the
    // one thread that took it until it is put back.
    private let path: String
    private let configuration: DatabaseConfiguration
    private let mode: Connection.OpenMode
    private let lock = NSLock()
    private var idle: [Connection] = []
    /// How many reader connections were opened so far (each parses the schema on first use).
    private var opened = 0
    /// ``opened``, read under the lock.
    var openedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return opened
    }
    private let slots: DispatchSemaphore

    init(path: String, configuration: DatabaseConfiguration, mode: Connection.OpenMode) {
        self.path = path
        self.configuration = configuration
        self.mode = mode
        self.slots = DispatchSemaphore(value: max(1, configuration.maximumReaderCount))
    }

    func withReader<T>(_ body: (Connection) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let connection = try take()
        defer { put(connection) }
        connection.lend()
        defer { connection.giveBack() }
        return try body(connection)
    }

    private func take() throws -> Connection {
        lock.lock()
        let reused = idle.popLast()
        lock.unlock()
        if let reused { return reused }
        let connection = try Connection(path: path, mode: mode, configuration: configuration)
        lock.lock()
        opened += 1
        lock.unlock()
        connection.confine()
        return connection
    }

    /// Closes the idle connections.
    func closeAll() {
        lock.lock()
        idle.removeAll()
        lock.unlock()
    }

    private func put(_ connection: Connection) {
        lock.lock()
        idle.append(connection)
        lock.unlock()
    }
}
