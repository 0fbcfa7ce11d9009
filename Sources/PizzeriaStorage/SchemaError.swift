/// Why a database file was refused before anything was written to it.
public enum SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A SQLite database with tables but no `schema_migrations`: someone else's file.
    case foreignDatabase(path: String, objects: [String])
    /// The database has migrations this binary does not know: it was made by a newer version.
    case newerSchema(databaseVersion: Int, knownVersion: Int)
    /// An applied migration's recorded checksum differs from the embedded file's.
    case checksumMismatch(version: Int, name: String, recorded: String, embedded: String)
    /// The database is older than this binary and the caller asked for a current schema.
    case migrationsPending(databaseVersion: Int, knownVersion: Int)
    /// The schema's version is current but its views and triggers are not this program's
    /// repeatable definitions (`Migrations/R__*.sql`): they must be made again first.
    case definitionsPending(version: Int)
    /// A migration left rows that break a foreign key; it was rolled back.
    case foreignKeyViolation(version: Int, details: [String])
    /// A migration's SQL (or its data step) failed on this file, which does not match what its
    /// recorded history says (a table already there, a row it cannot convert); rolled back.
    case migrationFailed(version: Int, name: String, reason: String)

    /// A sentence for people, with what to do about it.
    public var description: String {
        switch self {
        case .foreignDatabase(let path, let objects):
            let shown = objects.prefix(5).joined(separator: ", ") + (objects.count > 5 ? ", …" : "")
            return
                "\(path) is a SQLite database that Pizzeria did not create (it has \(shown) but no schema_migrations); refusing to touch it"
        case .newerSchema(let found, let known):
            return
                "the database schema is at version \(found), newer than this program knows (\(known)); use a newer version"
        case .checksumMismatch(let version, let name, let recorded, let embedded):
            return
                "migration \(version) (\(name)) was applied with checksum \(recorded.prefix(12))…, but this binary's file has \(embedded.prefix(12))…; a shipped migration must never be edited"
        case .migrationsPending(let found, let known):
            return
                "the database schema is at version \(found) and this program needs \(known): its pending migrations must be applied first"
        case .definitionsPending(let version):
            return
                "the database's views and triggers (schema version \(version)) are not this program's: they must be made again first"
        case .foreignKeyViolation(let version, let details):
            return "migration \(version) would leave broken foreign keys: \(details.joined(separator: "; "))"
        case .migrationFailed(let version, let name, let reason):
            return "migration \(version) (\(name)) failed on this file and was rolled back: \(reason)"
        }
    }
}
