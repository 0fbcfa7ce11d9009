import CPizzeriaSQLite
import Foundation
import PizzeriaStorage

/// The baseline's toolkit: one connection and statements prepared once, bound and stepped
/// through the C API — what a competent C programmer writes. Nothing else.
final class CDatabase {
    let db: OpaquePointer

    init(path: String, synchronous: String, cacheKiB: Int? = nil, checkpointPages: Int = 1_000) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle
        else {
            throw BenchError("cannot open \(path)", exitCode: 74)
        }
        db = handle
        sqlite3_busy_timeout(db, 5_000)
        // The project's pragmas and durability; its checkpoint policy too (the same WAL growth).
        // A PRAGMA value cannot be bound: `synchronous` is one of OFF, NORMAL, FULL, EXTRA (checked in main).
        try exec("PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL; PRAGMA synchronous = \(synchronous)")
        try exec("PRAGMA secure_delete = ON; PRAGMA temp_store = MEMORY")
        // The same program as the project's: a connection the schema knows as the shop's own
        // (migration 38: its writes are not hand edits, and it may say who acts).
        guard pizzeria_sqlite_mark_connection(db) == SQLITE_OK else {
            throw BenchError("cannot mark \(path)", exitCode: 70)
        }
        try exec("CREATE TEMP TABLE IF NOT EXISTS pizzeria_connection (id INTEGER PRIMARY KEY)")
        sqlite3_wal_autocheckpoint(db, Int32(checkpointPages))
        // The same page cache as the project's writer, when the run sets one (an Int: a PRAGMA value cannot be bound).
        if let cacheKiB { try exec("PRAGMA cache_size = -\(cacheKiB)") }
    }

    /// Page-cache hits, misses and pages written since the last call (then reset).
    func cacheCounters() -> (hits: Int, misses: Int, writes: Int) {
        func status(_ operation: Int32) -> Int {
            var current: Int32 = 0, highwater: Int32 = 0
            sqlite3_db_status(db, operation, &current, &highwater, 1)
            return Int(current)
        }
        return (
            status(SQLITE_DBSTATUS_CACHE_HIT), status(SQLITE_DBSTATUS_CACHE_MISS), status(SQLITE_DBSTATUS_CACHE_WRITE)
        )
    }

    deinit { sqlite3_close_v2(db) }

    /// Counts the statements and trigger programs this connection starts into `counter`, as the
    /// project's ``Database/countWriterStatements(into:)`` does for its writer.
    func countStatements(into counter: StatementCounter) {
        sqlite3_trace_v2(
            db, UInt32(SQLITE_TRACE_STMT),
            { _, context, _, text in
                guard let context else { return 0 }
                Unmanaged<StatementCounter>.fromOpaque(context).takeUnretainedValue()
                    .record(text?.assumingMemoryBound(to: CChar.self))
                return 0
            }, Unmanaged.passUnretained(counter).toOpaque())
    }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchError(String(cString: sqlite3_errmsg(db)) + " in " + sql)
        }
    }

    func prepare(_ sql: String) throws -> CStatement { try CStatement(db: db, sql: sql) }
}

/// A statement prepared once.
final class CStatement {
    let handle: OpaquePointer
    let db: OpaquePointer

    init(db: OpaquePointer, sql: String) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
            let statement
        else {
            throw BenchError(String(cString: sqlite3_errmsg(db)) + " in " + sql)
        }
        self.handle = statement
        self.db = db
    }

    deinit { sqlite3_finalize(handle) }

    @discardableResult
    func bind(_ values: Any?...) -> CStatement {
        sqlite3_reset(handle)
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case let integer as Int64: sqlite3_bind_int64(handle, position, integer)
            case let integer as Int: sqlite3_bind_int64(handle, position, Int64(integer))
            case let text as String: sqlite3_bind_text(handle, position, text, -1, pizzeria_sqlite_transient())
            case let uuid as UUID:
                CStatement.withText(of: uuid) {
                    sqlite3_bind_text(handle, position, $0, 36, pizzeria_sqlite_transient())
                }
            default: sqlite3_bind_null(handle, position)
            }
        }
        return self
    }

    /// The lowercase text of `uuid` (36 bytes, as the schema stores ids) in a stack buffer: what a C
    /// programmer binds instead of keeping a million strings around.
    static func withText(of uuid: UUID, _ body: (UnsafePointer<CChar>) -> Void) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 37) { buffer in
            withUnsafeBytes(of: uuid.uuid) { bytes in
                var out = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 { buffer[out] = 45; out += 1 }
                    buffer[out] = CChar(bitPattern: hex[Int(byte >> 4)])
                    buffer[out + 1] = CChar(bitPattern: hex[Int(byte & 15)])
                    out += 2
                }
                buffer[36] = 0
            }
            if let base = buffer.baseAddress { body(base) }
        }
    }

    /// The lowercase text of `uuid`.
    static func string(of uuid: UUID) -> String {
        var text = ""
        withText(of: uuid) { text = String(cString: $0) }
        return text
    }

    /// Steps: true while there is a row.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw BenchError(String(cString: sqlite3_errmsg(db)))
        }
    }

    func run() throws { while try step() {} }

    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// Steps through every row, then resets.
    func forEachRow(_ body: () throws -> Void) throws {
        defer { sqlite3_reset(handle) }
        while try step() { try body() }
    }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        return String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self
        )
    }
}

/// The benchmark's own failure: its words and its exit code (70, a bug or a data set the
/// baseline cannot use, unless it says otherwise: 74 for a file it cannot open).
struct BenchError: Error, CustomStringConvertible {
    let description: String
    let exitCode: Int32
    init(_ description: String, exitCode: Int32 = 70) {
        self.description = description
        self.exitCode = exitCode
    }
}
