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
    /// EXISTS] name`, comments left out), in order.
    public let objectNames: [String]

    init(fileName: String, sql: String, checksum: String) {
        (self.fileName, self.sql, self.checksum) = (fileName, sql, checksum)
        objectNames = Self.createdObjects(in: sql)
    }

    /// The names after each `CREATE … TRIGGER|VIEW` of `sql`, its `--` comments left out.
    static func createdObjects(in sql: String) -> [String] {
        var text = ""
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            text += (line.range(of: "--").map { line[..<$0.lowerBound] } ?? line[...]) + " "
        }
        let separators: Set<Character> = [" ", "\t", "\r", "("]
        let words = text.split(whereSeparator: { separators.contains($0) })
        var names: [String] = []
        var index = 0
        while index < words.count {
            defer { index += 1 }
            guard words[index].uppercased() == "CREATE" else { continue }
            var next = index + 1
            if next < words.count, ["TEMP", "TEMPORARY"].contains(words[next].uppercased()) { next += 1 }
            guard next < words.count, ["TRIGGER", "VIEW"].contains(words[next].uppercased()) else { continue }
            next += 1
            if next + 2 < words.count, words[next].uppercased() == "IF", words[next + 1].uppercased() == "NOT",
                words[next + 2].uppercased() == "EXISTS"
            {
                next += 3
            }
            guard next < words.count else { continue }
            names.append(String(words[next].filter { !"\"`[]".contains($0) }))
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
