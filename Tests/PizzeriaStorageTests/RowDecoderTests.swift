import Foundation
import Synchronization
import Testing
@testable import PizzeriaStorage
import PizzeriaTestSupport

/// Counts how often a decoder resolves its columns, across the suite's tests.
private let resolutions = Atomic<Int>(0)

/// A decoder of the scratch table's two columns, by name.
private struct PairDecoder: RowDecoder {
    let id, value: Column

    init(columns: ColumnResolver) throws {
        resolutions.add(1, ordering: .relaxed)
        (id, value) = (try columns("id"), try columns("v"))
    }

    func decode(_ row: Row) throws -> (id: Int64, value: String) {
        (try row.int64(id), try row.string(value))
    }
}

@Suite("Rows by name: decoders resolve their columns once per prepared statement")
struct RowDecoderTests {
    let directory = TemporaryDirectory()

    func openScratch() throws -> Database {
        let database = try Database(path: directory.path("rows.sqlite"), create: true)
        try database.write { db in
            try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL) STRICT")
            try db.run("INSERT INTO t (id, v) VALUES (1, 'one'), (2, 'two')")
        }
        return database
    }

    @Test("columns are found by name whatever their position in the SELECT")
    func byName() throws {
        let database = try openScratch()
        try database.read { db in
            let forward = try db.fetchAll("SELECT id, v FROM t ORDER BY id", [], PairDecoder.self)
            let reversed = try db.fetchAll("SELECT v, id FROM t ORDER BY id", [], PairDecoder.self)
            #expect(forward.map(\.value) == ["one", "two"])
            #expect(reversed.map(\.value) == ["one", "two"] && reversed.map(\.id) == [1, 2])
        }
    }

    @Test("a strict integer column reads its value, the largest and smallest included")
    func strictInteger() throws {
        let database = try openScratch()
        try database.write { db in
            try db.execute("CREATE TABLE n (k INTEGER NOT NULL) STRICT")
            try db.run("INSERT INTO n (k) VALUES (0), (-1), (9223372036854775807), (-9223372036854775808), (42)")
            // STRICT refuses another type in the column: the premise of reading it unchecked.
            #expect(throws: DatabaseError.self) { try db.run("INSERT INTO n (k) VALUES ('7x')") }
            #expect(throws: DatabaseError.self) { try db.run("INSERT INTO n (k) VALUES (NULL)") }
        }
        let values = try database.read { db in
            try db.fetchAll("SELECT k FROM n ORDER BY rowid") { row in row.strictInteger(try row.column("k")) }
        }
        #expect(values == [0, -1, Int.max, Int.min, 42])
    }

    @Test("a stream steps without decoding: the row is there to look at, decoded only when asked; false after the last")
    func stepWithoutDecoding() throws {
        let database = try openScratch()
        let seen = try database.read { db in
            try db.withRows(StatementKey("SELECT id, v FROM t ORDER BY id"), [], PairDecoder.self) { rows in
                var seen: [String] = []
                while try rows.step() {
                    let id = try rows.row.int64(try rows.row.column("id"))
                    // Only the second row is decoded; the first is looked at and passed over.
                    if id == 2 { seen.append(try rows.decoder.decode(rows.row).value) } else { seen.append("#\(id)") }
                }
                #expect(try rows.step() == false && rows.next() == nil)
                return seen
            }
        }
        #expect(seen == ["#1", "two"])
    }

    @Test("a cached statement keeps its decoder: the names are resolved once, not per row or call")
    func resolvedOnce() throws {
        let database = try openScratch()
        // Given a statement no other test prepares
        let sql = "SELECT id, v FROM t WHERE id >= ? ORDER BY id"
        let before = resolutions.load(ordering: .relaxed)
        // When it runs three times on the writer connection (one statement cache)
        try database.withWriter { db in
            for _ in 0..<3 { _ = try db.fetchAll(sql, [0], PairDecoder.self) }
        }
        // Then the decoder resolved its columns once
        #expect(resolutions.load(ordering: .relaxed) - before == 1)
    }

    @Test("a query that lost a decoder's column fails at once, naming the column and the SQL")
    func missingColumn() throws {
        let database = try openScratch()
        let error = #expect(throws: DatabaseError.self) {
            try database.read { db in try db.fetchAll("SELECT id FROM t", [], PairDecoder.self) }
        }
        #expect(error?.kind == .misuse)
        #expect(error?.message.contains("'v'") == true && error?.message.contains("SELECT id FROM t") == true)
    }

    @Test("two columns of one name are refused instead of guessed")
    func ambiguousColumn() throws {
        let database = try openScratch()
        let error = #expect(throws: DatabaseError.self) {
            try database.read { db in
                try db.fetchOne("SELECT a.v, b.v FROM t a JOIN t b ON b.id = a.id") { try $0.string("v") }
            }
        }
        #expect(error?.message.contains("two result columns are named 'v'") == true)
    }

    @Test("reading a column by a name the query lacks throws instead of reading another column")
    func unknownName() throws {
        let database = try openScratch()
        #expect(throws: DatabaseError.self) {
            try database.read { db in try db.fetchOne("SELECT id FROM t") { try $0.int("identifier") } }
        }
    }
}
