import Foundation
import Testing
@testable import PizzeriaStorage
import PizzeriaTestSupport

/// Failures are recognised by their identity — SQLite's extended code and the constraint it
/// names — never by matching their text.
@Suite("Errors by identity: result codes and constraints")
struct ErrorIdentityTests {
    let directory = TemporaryDirectory()

    /// Given a table with every kind of constraint
    func openScratch() throws -> Database {
        let database = try Database(path: directory.path("errors.sqlite"), create: true)
        try database.write { db in
            try db.execute(
                """
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE t (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, size INTEGER CONSTRAINT size_positive CHECK (size > 0),
                                parent_id INTEGER REFERENCES parent (id)) STRICT;
                CREATE TRIGGER t_refuse BEFORE INSERT ON t WHEN NEW.code = 'x'
                BEGIN SELECT RAISE(ABORT, 'code_reserved: the code x is reserved'); END;
                INSERT INTO t (id, code, size) VALUES (1, 'a', 1);
                """)
        }
        return database
    }

    func failure(_ sql: String, in database: Database) -> DatabaseError? {
        #expect(throws: DatabaseError.self) { try database.write { try $0.run(sql) } }
    }

    @Test("each constraint is named by code, table and columns")
    func constraints() throws {
        let database = try openScratch()
        #expect(
            failure("INSERT INTO t (id, code) VALUES (2, 'a')", in: database)?.constraint
                == .unique(table: "t", columns: ["code"]))
        #expect(
            failure("INSERT INTO t (id, code) VALUES (1, 'b')", in: database)?.constraint
                == .primaryKey(table: "t", columns: ["id"]))
        #expect(
            failure("INSERT INTO t (id) VALUES (3)", in: database)?.constraint == .notNull(table: "t", column: "code"))
        #expect(
            failure("INSERT INTO t (id, code, size) VALUES (4, 'c', 0)", in: database)?.constraint
                == .check("size_positive"))
        #expect(
            failure("INSERT INTO t (id, code, parent_id) VALUES (5, 'd', 99)", in: database)?.constraint == .foreignKey)
        #expect(
            failure("INSERT INTO t (id, code) VALUES (6, 'x')", in: database)?.constraint
                == .trigger(token: "code_reserved", message: "code_reserved: the code x is reserved"))
    }

    @Test("a primary code matches its extended codes; an extended code only itself")
    func codeMatching() throws {
        let database = try openScratch()
        let unique = try #require(failure("INSERT INTO t (id, code) VALUES (2, 'a')", in: database))
        #expect(ResultCode.SQLITE_CONSTRAINT ~= unique.code)
        #expect(ResultCode.SQLITE_CONSTRAINT_UNIQUE ~= unique.code)
        #expect(!(ResultCode.SQLITE_CONSTRAINT_CHECK ~= unique.code))
        switch unique.code {
        case .SQLITE_CONSTRAINT_PRIMARYKEY?: Issue.record("matched the wrong extended code")
        case .SQLITE_CONSTRAINT?: break
        default: Issue.record("did not match its primary code")
        }
    }

    @Test("library failures carry the SQLite code that means the same, never a sentinel")
    func libraryCodes() throws {
        let database = try openScratch()
        let mismatch = #expect(throws: DatabaseError.self) {
            try database.read { db in try db.fetchOne("SELECT code FROM t") { try $0.int64("code") } }
        }
        #expect(mismatch?.code == .SQLITE_MISMATCH && mismatch?.kind == .typeMismatch)
        let misuse = #expect(throws: DatabaseError.self) {
            try database.write { db in try database.write { _ in _ = db } }
        }
        #expect(misuse?.code == .SQLITE_MISUSE && misuse?.kind == .misuse)
    }

    @Test("a data step naming no migration is refused before anything runs")
    func unknownDataStep() throws {
        let database = try Database(path: directory.path("steps.sqlite"), create: true)
        let migrator = SchemaMigrator(dataSteps: ["0099_missing.sql": { _ in }])
        let error = #expect(throws: DatabaseError.self) { try migrator.migrate(database) }
        #expect(error?.message.contains("0099_missing.sql") == true)
        #expect(
            try database.read { db in try db.fetchOne("SELECT count(*) AS n FROM sqlite_schema") { try $0.int("n") } }
                == 0)
    }
}
