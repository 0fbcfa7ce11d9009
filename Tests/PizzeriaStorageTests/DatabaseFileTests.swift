import Foundation
import Testing
@testable import PizzeriaStorage
import PizzeriaTestSupport

@Suite("Files that are not plain database files; read-only opens; confinement; backups")
struct DatabaseFileTests {
    let directory = TemporaryDirectory()

    /// Every file of the database, with its bytes.
    func snapshot(_ path: String) -> [String: Data?] {
        Dictionary(uniqueKeysWithValues: ["", "-wal", "-shm", "-journal"].map { ($0, fileBytes(path + $0)) })
    }

    @Test("FIFOs, sockets, directories, devices and links to them are refused at once, creating nothing")
    func notRegularFiles() throws {
        let fifo = directory.path("fifo"), folder = directory.path("folder"), toNull = directory.path("null-link")
        let dangling = directory.path("dangling"), socketPath = directory.path("socket")
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: toNull, withDestinationPath: "/dev/null")
        try FileManager.default.createSymbolicLink(
            atPath: dangling, withDestinationPath: directory.path("nowhere/x.sqlite"))
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in socketPath.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)

        for path in [fifo, folder, toNull, "/dev/null", socketPath, dangling] {
            for readOnly in [false, true] {
                let error = #expect(throws: DatabaseError.self, "\(path)") {
                    try Database(path: path, create: true, readOnly: readOnly)
                }
                #expect(error?.kind == .notADatabase, "\(path): \(String(describing: error))")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal"))
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-wal"))
        #expect(!FileManager.default.fileExists(atPath: directory.path("nowhere")))
    }

    @Test("a read-only open changes no byte and creates no companion: empty, rollback-mode and closed WAL files")
    func readOnlyOpenChangesNothing() throws {
        let empty = directory.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))

        let rollback = directory.path("rollback.sqlite")
        do {
            let db = try Connection(path: rollback, mode: .readWriteCreate)
            try db.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        }

        let closedWAL = directory.path("wal.sqlite")
        do {
            let database = try Database(path: closedWAL, create: true)
            try database.write { db in try db.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1);") }
        }
        #expect(fileBytes(closedWAL + "-wal") == nil)

        for path in [empty, rollback, closedWAL] {
            let before = snapshot(path)
            let database = try Database(path: path, readOnly: true)
            #expect(database.isReadOnly)
            _ = try database.read { db in try db.fetchAll("SELECT name FROM sqlite_schema") { try $0.string("name") } }
            _ = try database.healthProblems()
            _ = try database.journalMode()
            #expect(throws: DatabaseError.self) { try database.write { db in try db.execute("CREATE TABLE u (y)") } }
            #expect(snapshot(path) == before, "\(path) changed")
        }
    }

    @Test("readers cannot write, even after switching query_only off")
    func readersAreReadOnly() throws {
        let database = try Database(path: directory.path("r.sqlite"), create: true)
        try database.write { db in try db.execute("CREATE TABLE t (x)") }
        let error = #expect(throws: DatabaseError.self) {
            try database.read { db in
                try db.execute("PRAGMA query_only = OFF")
                try db.run("INSERT INTO t VALUES (1)")
            }
        }
        #expect(error?.code?.primary == .SQLITE_READONLY)
        #expect(
            try database.read { db in try db.fetchOne("SELECT count(*) AS value FROM t") { try $0.int("value") } } == 0)
    }

    @Test("a connection used outside its closure is refused as misuse")
    func connectionEscape() throws {
        let database = try Database(path: directory.path("e.sqlite"), create: true)
        try database.write { db in try db.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1), (2);") }
        let reader = try database.read { $0 }
        let misuse = #expect(throws: DatabaseError.self) { try reader.fetchAll("SELECT x FROM t") { try $0.int("x") } }
        #expect(misuse?.kind == .misuse)
        let writer = try database.write { $0 }
        #expect(throws: DatabaseError.self) { try writer.run("INSERT INTO t VALUES (3)") }
        let cursor = try database.read { try $0.query("SELECT x FROM t") }
        #expect(throws: DatabaseError.self) { _ = try cursor.next() }
        // From another thread while lent: refused too.
        let escaped = try database.read { db -> Bool in
            let box = UncheckedBox(db)
            let refused = Mutex2<[Bool]>([])
            let done = DispatchSemaphore(value: 0)
            Thread {
                refused.append((try? box.value.execute("SELECT 1")) == nil)
                done.signal()
            }.start()
            done.wait()
            return refused.value == [true]
        }
        #expect(escaped)
        #expect(
            try database.read { db in try db.fetchOne("SELECT count(*) AS value FROM t") { try $0.int("value") } } == 2)
    }

    @Test("companions left read-only by an earlier open get the database's mode back")
    func companionModes() throws {
        let path = directory.path("modes.sqlite")
        do {
            let database = try Database(path: path, create: true)
            try database.write { db in try db.execute("CREATE TABLE t (x)") }
        }
        for suffix in ["-wal", "-shm"] {
            #expect(
                FileManager.default.createFile(
                    atPath: path + suffix, contents: Data(), attributes: [.posixPermissions: 0o400]))
        }
        let database = try Database(path: path)
        try database.write { db in try db.run("INSERT INTO t VALUES (1)") }
        for suffix in ["-wal", "-shm"] {
            let mode = try FileManager.default.attributesOfItem(atPath: path + suffix)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(suffix): \(String(describing: mode))")
        }
    }

    @Test("backups: never over a file, exactly one of two concurrent ones wins, no partial file left")
    func backups() throws {
        let database = try Database(path: directory.path("source.sqlite"), create: true)
        try database.write { db in
            try db.execute("CREATE TABLE t (x BLOB)")
            for _ in 0..<200 { try db.run("INSERT INTO t VALUES (randomblob(4000))") }
        }
        for trial in 0..<10 {
            let target = directory.path("copy-\(trial).sqlite")
            let outcomes = Mutex2<[Bool]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                let won: Bool
                do { try database.backup(to: target); won = true } catch { won = false }
                outcomes.append(won)
            }
            #expect(outcomes.value.filter { $0 }.count == 1, "trial \(trial): \(outcomes.value)")
            let copy = try Database(path: target, readOnly: true)
            #expect(
                try copy.read { db in try db.fetchOne("SELECT count(*) AS value FROM t") { try $0.int("value") } }
                    == 200)
        }
        let refusal = #expect(throws: BackupError.self) { try database.backup(to: directory.path("copy-0.sqlite")) }
        #expect(refusal == .destinationExists(directory.path("copy-0.sqlite")))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter {
            $0.hasSuffix(".partial")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
        var progress: [(Int, Int)] = []
        try database.backup(to: directory.path("progress.sqlite")) { progress.append(($0, $1)) }
        #expect(progress.count >= 1 && progress.last?.0 == progress.last?.1)
    }
}

/// Hands a non-Sendable value to another thread on purpose, to test that misuse is caught.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// A value shared by the threads of a test.
private final class Mutex2<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T { lock.withLock { stored } }
    func append<E>(_ element: E) where T == [E] { lock.withLock { stored.append(element) } }
}
