import Synchronization

/// One schema migration: a file `Migrations/NNNN_short_name.sql` compiled into the binary.
public struct Migration: Sendable, Hashable {
    /// The number at the start of the file name; migrations apply in this order.
    public let version: Int
    /// The file name without number and extension, such as `pizzas_and_users`.
    public let name: String
    /// The file's name, such as `0001_pizzas_and_users.sql`: what names a migration's data step.
    public let fileName: String
    /// The file's exact text.
    public let sql: String
    /// SHA-256 of the text, hex. A shipped migration is never edited: a database that recorded
    /// another checksum for this version is refused.
    public let checksum: String

    /// A migration from its file name (`0001_pizzas_and_users.sql`) and text, or `nil` when the
    /// name does not follow the pattern.
    public init?(fileName: String, sql: String) {
        self.init(fileName: fileName, sql: sql, checksum: SHA256.hex(sql.utf8))
    }

    /// A migration whose checksum is already known (the embedded ones: computed at build time).
    init?(fileName: String, sql: String, checksum: String) {
        guard fileName.hasSuffix(".sql") else { return nil }
        let stem = fileName.dropLast(4)
        guard let underscore = stem.firstIndex(of: "_"),
            let version = Int(stem[..<underscore]), version > 0
        else { return nil }
        self.version = version
        self.name = String(stem[stem.index(after: underscore)...])
        self.fileName = fileName
        self.sql = sql
        self.checksum = checksum
    }

    /// The migrations compiled into this binary, in version order. Files whose names do not
    /// follow `NNNN_name.sql` are left out: the baseline (`B__baseline.sql`, ``SchemaBaseline``), the repeatable definitions (`R__name.sql`,
    /// ``Repeatable``), and nothing else (a test fails when there is any).
    public static let embedded: [Migration] = EmbeddedMigrations.files
        .compactMap { Migration(fileName: $0.fileName, sql: $0.sql, checksum: $0.checksum) }
        .sorted { $0.version < $1.version }

    /// How many migration files are embedded, whether or not their names parse.
    static var embeddedFileCount: Int { EmbeddedMigrations.files.count }
}

/// A repeatable definition: a file `Migrations/R__name.sql` holding the current text of some of
/// the schema's views and triggers. Unlike a versioned migration it is edited in place: the
/// migrator makes a file's views and triggers again whenever its text changed or one of them is
/// missing (Flyway's repeatable migrations), so each view and trigger has one definition, in one
/// file.
public struct Repeatable: Sendable, Hashable {
    /// The file's name, such as `R__triggers_orders.sql`.
    public let fileName: String
    /// The file's exact text.
    public let sql: String
    /// SHA-256 of the text, hex: a database that recorded another is made current again.
    public let checksum: String

    /// A definition from its file name (`R__name.sql`) and text.
    public init(fileName: String, sql: String) {
        self.init(fileName: fileName, sql: sql, checksum: SHA256.hex(sql.utf8))
    }

    /// The names of the views and triggers its text creates (`CREATE [TEMP] TRIGGER|VIEW [IF NOT
    /// EXISTS] name`, comments and string literals left out), in order. Read from the text the
    /// first time a process asks (only a migration does: an open that does not migrate should not
    /// pay for it), then kept by checksum, so a run over many shops reads each text once.
    public var objectNames: [String] {
        if let known = Self.objectNamesByChecksum.withLock({ $0[checksum] }) { return known }
        let names = Self.createdObjects(in: sql)
        Self.objectNamesByChecksum.withLock { $0[checksum] = names }
        return names
    }

    /// ``objectNames`` of each text read so far, by checksum.
    private static let objectNamesByChecksum = Mutex<[String: [String]]>([:])

    init(fileName: String, sql: String, checksum: String) {
        (self.fileName, self.sql, self.checksum) = (fileName, sql, checksum)
    }

    /// The names after each `CREATE [TEMP] TRIGGER|VIEW [IF NOT EXISTS]` of `sql`, its comments
    /// and string literals left out. One pass over the bytes, words kept as ranges (splitting the
    /// 160 KB of embedded definitions into `String`s took 20 ms, which every process that opened
    /// a file paid; a `String` a word, 2.5 ms a migration).
    static func createdObjects(in sql: String) -> [String] {
        var text = sql
        return text.withUTF8 { createdObjects(in: $0) }
    }

    private static func createdObjects(in bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        // The words in order, as ranges of `bytes` (a quoted identifier's without its quotes, and
        // marked); punctuation and string literals are words of their own, so only adjacent
        // keywords make a creation.
        var words: [(range: Range<Int>, quoted: Bool)] = []
        func isWordByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }
        func at(_ index: Int) -> UInt8 { index < bytes.count ? bytes[index] : 0 }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "-"), at(index + 1) == UInt8(ascii: "-") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            } else if byte == UInt8(ascii: "/"), at(index + 1) == UInt8(ascii: "*") {
                index += 2
                while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && at(index + 1) == UInt8(ascii: "/")) {
                    index += 1
                }
                index += 2
            } else if byte == UInt8(ascii: "'") {
                // '' inside a literal is a quote.
                let start = index
                index += 1
                while index < bytes.count {
                    index += 1
                    guard bytes[index - 1] == UInt8(ascii: "'") else { continue }
                    guard at(index) == UInt8(ascii: "'") else { break }
                    index += 1
                }
                words.append((start..<start + 1, false))
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "[") {
                let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
                var end = index + 1
                while end < bytes.count, bytes[end] != close { end += 1 }
                words.append((index + 1..<min(end, bytes.count), true))
                index = end + 1
            } else if isWordByte(byte) {
                var end = index + 1
                while end < bytes.count, isWordByte(bytes[end]) { end += 1 }
                words.append((index..<end, false))
                index = end
            } else {
                if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r")
                    && byte != UInt8(ascii: "\n")
                {
                    words.append((index..<index + 1, false))
                }
                index += 1
            }
        }
        /// Whether word `index` is one of the upper-case ASCII `candidates`, in any case.
        func keyword(_ index: Int, _ candidates: StaticString...) -> Bool {
            guard index < words.count, !words[index].quoted else { return false }
            let range = words[index].range
            return candidates.contains { candidate in
                candidate.utf8CodeUnitCount == range.count
                    && zip(range, 0..<range.count).allSatisfy { at, offset in
                        // ASCII letters: clearing bit 5 upper-cases them.
                        bytes[at] & 0xDF == candidate.utf8Start[offset]
                    }
            }
        }
        var names: [String] = []
        index = 0
        while index < words.count {
            defer { index += 1 }
            guard keyword(index, "CREATE") else { continue }
            var next = index + 1
            if keyword(next, "TEMP", "TEMPORARY") { next += 1 }
            guard keyword(next, "TRIGGER", "VIEW") else { continue }
            next += 1
            if keyword(next, "IF"), keyword(next + 1, "NOT"), keyword(next + 2, "EXISTS") { next += 3 }
            guard next < words.count else { continue }
            names.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[words[next].range]), as: UTF8.self))
            index = next
        }
        return names
    }

    /// The repeatable definitions compiled into this binary, by file name.
    public static let embedded: [Repeatable] = EmbeddedMigrations.files
        .filter { $0.fileName.hasPrefix("R__") && $0.fileName.hasSuffix(".sql") }
        .map { Repeatable(fileName: $0.fileName, sql: $0.sql, checksum: $0.checksum) }
        .sorted { $0.fileName < $1.fileName }
}

/// A migration as recorded in a database's `schema_migrations` table.
public struct AppliedMigration: Sendable, Hashable {
    /// The migration's version.
    public let version: Int
    /// Its name when it was applied.
    public let name: String
    /// The checksum of the text that was applied.
    public let checksum: String
    /// When it was applied (ISO-8601 UTC).
    public let appliedAt: String
}
