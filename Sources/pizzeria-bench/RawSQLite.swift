import CPizzeriaSQLite
import Foundation

/// The baseline's whole toolkit: the C API with prepared statements, nothing else. It is what
/// "no overhead" means in the ratios.
final class RawSQLite {
    let db: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle else {
            throw BenchError("cannot open \(path)")
        }
        db = handle
        sqlite3_busy_timeout(db, 5_000)
        try exec("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; PRAGMA journal_mode = WAL")
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw BenchError(String(cString: sqlite3_errmsg(db))) }
    }

    /// A cached statement, reset, with `values` bound (Int64 or String).
    func prepare(_ sql: String, _ values: [Any] = []) throws -> OpaquePointer {
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        } else {
            var prepared: OpaquePointer?
            guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil) == SQLITE_OK, let prepared else {
                throw BenchError(String(cString: sqlite3_errmsg(db)) + " in " + sql)
            }
            statements[sql] = prepared
            statement = prepared
        }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case let integer as Int64: sqlite3_bind_int64(statement, position, integer)
            case let integer as Int: sqlite3_bind_int64(statement, position, Int64(integer))
            case let text as String: sqlite3_bind_text(statement, position, text, -1, pizzeria_sqlite_transient())
            default: sqlite3_bind_null(statement, position)
            }
        }
        return statement
    }

    /// Runs a statement to completion.
    func run(_ sql: String, _ values: [Any] = []) throws {
        let statement = try prepare(sql, values)
        defer { sqlite3_reset(statement) }
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW { code = sqlite3_step(statement) }
        guard code == SQLITE_DONE else { throw BenchError(String(cString: sqlite3_errmsg(db)) + " in " + sql) }
    }

    /// Calls `row` for each result row.
    func query(_ sql: String, _ values: [Any] = [], _ row: (OpaquePointer) -> Void) throws {
        let statement = try prepare(sql, values)
        defer { sqlite3_reset(statement) }
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW {
            row(statement)
            code = sqlite3_step(statement)
        }
        guard code == SQLITE_DONE else { throw BenchError(String(cString: sqlite3_errmsg(db)) + " in " + sql) }
    }

    func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        return String(cString: bytes)
    }

    func transaction(_ body: () throws -> Void) throws {
        try run("BEGIN IMMEDIATE")
        do {
            try body()
            try run("COMMIT")
        } catch {
            if sqlite3_get_autocommit(db) == 0 { try? run("ROLLBACK") }
            throw error
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
