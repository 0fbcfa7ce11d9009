import Foundation
import Testing
@testable import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Connection: values, statements, transactions")
struct ConnectionTests {
    let directory = TemporaryDirectory()

    func openScratch() throws -> Database {
        let database = try Database(path: directory.path("scratch.sqlite"), create: true)
        try database.withWriter { db in
            try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v ANY) STRICT")
        }
        return database
    }

    @Test(
        "every value type round-trips, NULL and empty values included",
        arguments: [
            DatabaseValue.null,
            .integer(0), .integer(Int64.max), .integer(Int64.min),
            .real(3.25), .real(-0.5),
            .text(""), .text("Margherita"), .text("Pizza 🍕 «Quattro Stagioni» 四季 é"),
            .text("'); DROP TABLE t;--"),
            .blob(Data()), .blob(Data([0, 1, 2, 255])),
            .blob(Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })),
        ])
    func roundTrip(value: DatabaseValue) throws {
        let database = try openScratch()
        try database.write { db in try db.run("INSERT INTO t (id, v) VALUES (1, ?)", [value]) }
        let read = try database.read { db in try db.fetchOne("SELECT v FROM t WHERE id = 1") { try $0.value("v") } }
        #expect(read == value)
        let type = try database.read { db in
            try db.fetchOne("SELECT typeof(v) AS value FROM t") { try $0.string("value") }
        }
        #expect(type?.uppercased() == value.typeName)
    }

    @Test("a connection's memory: its parsed schema grows with the schema, its cache with the pages read")
    func memory() throws {
        let database = try openScratch()
        let small = try database.writerMemory()
        #expect(small.schemaBytes > 0)
        try database.withWriter { db in
            for index in 0..<20 {
                try db.execute("CREATE TABLE wide\(index) (id INTEGER PRIMARY KEY, a TEXT, b TEXT, c INTEGER) STRICT")
            }
            try db.execute(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50) INSERT INTO t (v) SELECT zeroblob(3000) FROM n"
            )
        }
        let large = try database.writerMemory()
        #expect(large.schemaBytes > small.schemaBytes)
        #expect(large.pageCacheBytes > small.pageCacheBytes)
        #expect(large.statementBytes >= 0)
    }

    @Test("typed readers refuse NULL and other types with a type-mismatch error")
    func typedReaders() throws {
        let database = try openScratch()
        try database.write { db in try db.run("INSERT INTO t (id, v) VALUES (1, NULL), (2, 'x')") }
        try database.read { db throws in
            #expect(try db.fetchOne("SELECT v FROM t WHERE id = 1") { try $0.optionalString("v") } == .some(nil))
            #expect(throws: DatabaseError.self) {
                try db.fetchOne("SELECT v FROM t WHERE id = 1") { try $0.string("v") }
            }
            let error = #expect(throws: DatabaseError.self) {
                try db.fetchOne("SELECT v FROM t WHERE id = 2") { try $0.int64("v") }
            }
            #expect(error?.kind == .typeMismatch)
            #expect(
                try db.fetchOne("SELECT v FROM t WHERE id = 2") { try $0.get(try $0.column("v"), as: String?.self) }
                    == "x")
        }
    }

    @Test("a cursor yields rows one by one and a nested query with the same SQL works")
    func cursorIteration() throws {
        let database = try openScratch()
        try database.write { db throws in
            for i in 1...100 { try db.run("INSERT INTO t (id, v) VALUES (?, ?)", [i, i * i]) }
        }
        let pairs = try database.read { db -> [(Int, Int)] in
            var pairs: [(Int, Int)] = []
            let cursor = try db.query("SELECT id, v FROM t WHERE id <= ? ORDER BY id", [3])
            while let row = try cursor.next() {
                let id = try row.int("id")
                // Same SQL while the outer cursor is live: must not disturb it.
                let inner = try db.fetchOne("SELECT id, v FROM t WHERE id <= ? ORDER BY id", [1]) { try $0.int("v") }
                pairs.append((id, try row.int("v") + (inner ?? 0) - 1))
            }
            return pairs
        }
        #expect(pairs.map(\.0) == [1, 2, 3])
        #expect(pairs.map(\.1) == [1, 4, 9])
    }

    @Test("a transaction that throws leaves nothing behind")
    func rollbackOnThrow() throws {
        struct Boom: Error {}
        let database = try openScratch()
        #expect(throws: Boom.self) {
            try database.write { db throws in
                try db.run("INSERT INTO t (id, v) VALUES (1, 'a')")
                throw Boom()
            }
        }
        #expect(
            try database.read { db in try db.fetchOne("SELECT count(*) AS value FROM t") { try $0.int("value") } } == 0)
        // The connection is usable afterwards.
        try database.write { db in try db.run("INSERT INTO t (id, v) VALUES (1, 'a')") }
        #expect(
            try database.read { db in try db.fetchOne("SELECT count(*) AS value FROM t") { try $0.int("value") } } == 1)
    }

    @Test("a failing nested savepoint rolls back only its own work")
    func nestedSavepoints() throws {
        struct Boom: Error {}
        let database = try openScratch()
        try database.write { db throws in
            try db.run("INSERT INTO t (id, v) VALUES (1, 'outer')")
            try db.savepoint {
                try db.run("INSERT INTO t (id, v) VALUES (2, 'middle')")
                #expect(throws: Boom.self) {
                    try db.savepoint {
                        try db.run("INSERT INTO t (id, v) VALUES (3, 'inner')")
                        throw Boom()
                    }
                }
            }
        }
        let ids = try database.read { db in try db.fetchAll("SELECT id FROM t ORDER BY id") { try $0.int("id") } }
        #expect(ids == [1, 2])
    }

    @Test("a write transaction inside another is refused as misuse")
    func nestedTransactionIsMisuse() throws {
        let database = try openScratch()
        try database.write { db throws in
            let error = #expect(throws: DatabaseError.self) { try db.transaction {} }
            #expect(error?.kind == .misuse)
        }
    }

    @Test("a one-statement read cannot write, whichever connection serves it, and leaves no transaction open")
    func readStatementCannotWrite() throws {
        let database = try openScratch()
        try database.write { db in try db.run("INSERT INTO t (v) VALUES (1)") }
        // The writer is idle, so the read is served by it (its cache is the warm one) …
        let write = #expect(throws: DatabaseError.self) {
            try database.readStatement { db in try db.run("INSERT INTO t (v) VALUES (2)") }
        }
        #expect(write?.code == .SQLITE_READONLY, "\(String(describing: write))")  // SQLITE_READONLY
        #expect(throws: DatabaseError.self) { try database.readStatement { db in try db.execute("DELETE FROM t") } }
        let open = #expect(throws: DatabaseError.self) { try database.readStatement { db in try db.run("BEGIN") } }
        #expect(open?.kind == .misuse)
        // … and inside a write (the writer is taken) a reader serves it, read-only by opening mode.
        try database.write { _ throws in
            #expect(throws: DatabaseError.self) {
                try database.readStatement { db in try db.run("INSERT INTO t (v) VALUES (3)") }
            }
            #expect(
                try database.readStatement { db in
                    try db.fetchOne("SELECT count(*) AS value FROM t") { try $0.int("value") }
                } == 1)
        }
        // Nothing was written, and the writer works as before.
        #expect(
            try database.readStatement { db in
                try db.fetchOne("SELECT count(*) AS value FROM t") { try $0.int("value") }
            } == 1)
        try database.write { db in try db.run("INSERT INTO t (v) VALUES (4)") }
        #expect(
            try database.read { db in try db.fetchOne("SELECT count(*) AS value FROM t") { try $0.int("value") } } == 2)
    }

    @Test("a write inside a write on the same database is misuse, not a deadlock")
    func nestedWriteIsMisuse() throws {
        let database = try openScratch()
        try database.write { _ in
            let error = #expect(throws: DatabaseError.self) { try database.write { _ in } }
            #expect(error?.kind == .misuse)
        }
        // The writer is free again afterwards.
        try database.write { db in try db.run("INSERT INTO t (v) VALUES (1)") }
    }

    @Test("errors keep the SQL as prepared (with ?) and never the values: constraint, type mismatch, parameter count")
    func errorsWithoutValues() throws {
        let database = try openScratch()
        try database.write { db in try db.run("INSERT INTO t (id, v) VALUES (?, ?)", [1, "secret-value"]) }
        let constraint = #expect(throws: DatabaseError.self) {
            try database.write { db in try db.run("INSERT INTO t (id, v) VALUES (?, ?)", [1, "secret-value"]) }
        }
        #expect(constraint?.isConstraint == true && constraint?.code == .SQLITE_CONSTRAINT_PRIMARYKEY)
        #expect(constraint?.sql == "INSERT INTO t (id, v) VALUES (?, ?)")
        // The library's own messages: reading the secret as a number, binding the wrong count.
        let mismatch = #expect(throws: DatabaseError.self) {
            try database.read { db in try db.fetchOne("SELECT v FROM t WHERE id = ?", [1]) { try $0.int64("v") } }
        }
        let count = #expect(throws: DatabaseError.self) {
            try database.write { db in
                try db.run("INSERT INTO t (id, v) VALUES (?, ?)", [2, "secret-value", "other-secret"])
            }
        }
        for error in [constraint, mismatch, count] {
            #expect(error != nil)
            #expect(error?.description.contains("secret") == false, "\(String(describing: error))")
        }
    }

    @Test("a writer waiting past the busy timeout gets a distinct busy error")
    func busyError() throws {
        var configuration = DatabaseConfiguration()
        configuration.busyTimeoutMilliseconds = 100
        let path = directory.path("busy.sqlite")
        let database = try Database(path: path, configuration: configuration, create: true)
        try database.withWriter { db in try db.execute("CREATE TABLE t (x INTEGER) STRICT") }

        // Another connection (as another process would) holds the write lock.
        let other = try Connection(path: path, mode: .readWrite, configuration: configuration)
        try other.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES (1)")
        let error = #expect(throws: DatabaseError.self) {
            try database.write { db in try db.run("INSERT INTO t VALUES (2)") }
        }
        #expect(error?.kind == .busy)
        #expect(error?.isBusy == true)
        // Readers are not blocked by the writer (WAL): they see the last committed state.
        #expect(
            try database.read { db in try db.fetchOne("SELECT count(*) AS value FROM t") { try $0.int("value") } } == 0)
        try other.execute("COMMIT")
        try database.write { db in try db.run("INSERT INTO t VALUES (2)") }
        #expect(
            try database.read { db in try db.fetchOne("SELECT count(*) AS value FROM t") { try $0.int("value") } } == 2)
    }

    @Test("many threads share one Database: every write lands, reads stay consistent")
    func manyThreads() async throws {
        let database = try openScratch()
        try database.withWriter { db in
            try db.execute("CREATE TABLE counter (n INTEGER NOT NULL) STRICT; INSERT INTO counter VALUES (0)")
        }
        let writers = 8, perWriter = 50
        try await withThrowingTaskGroup(of: Void.self) { group in
            for w in 0..<writers {
                group.addTask {
                    for i in 0..<perWriter {
                        try database.write { db throws in
                            // Read-modify-write: only safe because writes are serialized.
                            let n = try db.fetchOne("SELECT n FROM counter") { try $0.int("n") } ?? 0
                            try db.run("UPDATE counter SET n = ?", [n + 1])
                            try db.run("INSERT INTO t (v) VALUES (?)", [w * 1000 + i])
                        }
                    }
                }
                group.addTask {
                    for _ in 0..<perWriter {
                        // In one read transaction the two queries see the same snapshot.
                        let (n, rows) = try database.read { db in
                            (
                                try db.fetchOne("SELECT n FROM counter") { try $0.int("n") } ?? -1,
                                try db.fetchOne("SELECT count(*) AS value FROM t") { try $0.int("value") } ?? -2
                            )
                        }
                        #expect(n == rows)
                    }
                }
            }
            try await group.waitForAll()
        }
        let final = try database.read { db in try db.fetchOne("SELECT n FROM counter") { try $0.int("n") } }
        #expect(final == writers * perWriter)
    }
}

@Suite("Reads on the idle writer (one-shot processes)")
struct ReadsOnIdleWriterTests {
    let directory = TemporaryDirectory()

    func open(readsOnIdleWriter: Bool) throws -> Database {
        var configuration = DatabaseConfiguration()
        configuration.readsOnIdleWriter = readsOnIdleWriter
        let database = try Database(
            path: directory.path("\(readsOnIdleWriter).sqlite"), configuration: configuration, create: true)
        try database.write { db in
            try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT) STRICT; INSERT INTO t (v) VALUES ('a')")
        }
        return database
    }

    @Test("with the option, reads run on the writer: no reader connection is opened, writes are refused there")
    func readsShareTheWriter() throws {
        let database = try open(readsOnIdleWriter: true)
        for _ in 0..<3 {
            #expect(try database.read { try $0.fetchAll("SELECT v FROM t") { try $0.string("v") } } == ["a"])
        }
        #expect(database.readerConnectionsOpened == 0)
        let refused = #expect(throws: DatabaseError.self) {
            try database.read { db in try db.run("INSERT INTO t (v) VALUES ('b')") }
        }
        #expect(refused?.code == .SQLITE_READONLY, "\(String(describing: refused))")
        #expect(try database.read { try $0.fetchAll("SELECT v FROM t") { try $0.string("v") } } == ["a"])
    }

    @Test("with the option, a read while this thread holds the writer still takes a reader")
    func busyWriterFallsBackToAReader() throws {
        let database = try open(readsOnIdleWriter: true)
        try database.withWriter { _ throws in
            #expect(try database.read { try $0.fetchAll("SELECT v FROM t") { try $0.string("v") } } == ["a"])
        }
        #expect(database.readerConnectionsOpened == 1)
    }

    @Test("without it (the default), a read opens a reader connection")
    func defaultUsesReaders() throws {
        let database = try open(readsOnIdleWriter: false)
        #expect(try database.read { try $0.fetchAll("SELECT v FROM t") { try $0.string("v") } } == ["a"])
        #expect(database.readerConnectionsOpened == 1)
    }
}
