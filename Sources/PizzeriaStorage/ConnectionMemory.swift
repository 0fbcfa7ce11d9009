/// What one connection holds in memory, by what it is for (`sqlite3_db_status` with
/// `SQLITE_DBSTATUS_SCHEMA_USED`, `_CACHE_USED` and `_STMT_USED`; see
/// <https://www.sqlite.org/c3ref/c_dbstatus_options.html>): the parsed schema every connection
/// keeps of its file, the pages it caches, and its prepared statements.
public struct ConnectionMemory: Sendable, Equatable {
    /// Bytes of the parsed schema: tables, indexes, views and triggers as SQLite keeps them.
    public var schemaBytes: Int
    /// Bytes of the page cache.
    public var pageCacheBytes: Int
    /// Bytes of the prepared statements.
    public var statementBytes: Int

    /// Figures.
    public init(schemaBytes: Int, pageCacheBytes: Int, statementBytes: Int) {
        (self.schemaBytes, self.pageCacheBytes, self.statementBytes) = (schemaBytes, pageCacheBytes, statementBytes)
    }
}
