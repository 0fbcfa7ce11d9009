import Foundation
import Testing
@testable import PizzeriaStorage
import PizzeriaTestSupport

@Suite("SQLite library facts and the WAL-reset mitigation")
struct SQLiteLibraryTests {
    @Test(
        "versions with and without the WAL-reset bug",
        arguments: [
            (3_040_001, true), (3_044_005, true), (3_044_006, false), (3_045_000, true),
            (3_050_006, true), (3_050_007, false), (3_051_002, true), (3_051_003, false), (3_052_000, false),
        ])
    func walResetVersions(version: Int, affected: Bool) {
        #expect(SQLiteLibrary.hasWALResetBug(versionNumber: version) == affected)
    }

    @Test("the recommended policy follows the linked library")
    func recommendedPolicy() {
        #expect(CheckpointPolicy.recommended.isWALResetMitigation == SQLiteLibrary.hasWALResetBug)
    }

    @Test("under the manual policy the WAL never grows far past the threshold, and no passive checkpoint runs")
    func manualCheckpoints() throws {
        let directory = TemporaryDirectory()
        var configuration = DatabaseConfiguration()
        configuration.checkpointPolicy = .manualWithWriterLock(thresholdPages: 20)
        let path = directory.path("wal.sqlite")
        let database = try Database(path: path, configuration: configuration, create: true)
        try database.withWriter { db in try db.execute("CREATE TABLE t (x BLOB) STRICT") }
        #expect(try database.journalMode() == "wal")
        let autocheckpoint = try database.read { db in
            try db.fetchOne("PRAGMA wal_autocheckpoint") { try $0.int("wal_autocheckpoint") }
        }
        #expect(autocheckpoint == 0)
        for _ in 0..<200 {
            try database.write { db in try db.run("INSERT INTO t VALUES (randomblob(3000))") }
        }
        // Each insert adds about one page; without checkpoints the WAL would hold ~200+ pages.
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(walSize < 40 * 4096 + 4096 * 10)
        #expect(try database.healthProblems().isHealthy)
    }

    @Test("a connection turns SQLite's process-wide memory statistics off, so allocations take no global lock")
    func memoryStatisticsOff() throws {
        let directory = TemporaryDirectory()
        let database = try Database(path: directory.path("memory.sqlite"), create: true)
        try database.withWriter { db in
            try db.execute("CREATE TABLE t (x BLOB) STRICT")
            try db.run("INSERT INTO t VALUES (randomblob(100000))")
        }
        // Nothing in this test process uses SQLite before a Connection does.
        #expect(SQLiteLibrary.memoryStatisticsOff)
        #expect(SQLiteLibrary.applyProcessSettings())
        // With the statistics on, SQLite would count the connection's cache and statements here.
        #expect(SQLiteLibrary.countedMemoryBytes == 0)
    }

    @Test("SHA-256 matches the standard test vectors")
    func sha256() {
        #expect(SHA256.hex("".utf8) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc".utf8) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex(Array(repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
