/// A connection's page-cache counters: how many page requests the cache answered, how many it had
/// to read from the file (or the WAL), and how many pages it wrote. See
/// <https://www.sqlite.org/c3ref/c_dbstatus_options.html>.
public struct PageCacheStatistics: Sendable, Equatable {
    /// Pages found in the cache.
    public var hits: Int
    /// Pages read from the file or the WAL.
    public var misses: Int
    /// Pages written (to the WAL).
    public var writes: Int

    /// Counters.
    public init(hits: Int, misses: Int, writes: Int) {
        self.hits = hits
        self.misses = misses
        self.writes = writes
    }
}
