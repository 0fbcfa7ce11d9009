internal import CPizzeriaSQLite

/// Facts about the SQLite library this process is linked against.
///
/// Debian 12 ships SQLite 3.40.1, which has the WAL-reset bug
/// (<https://sqlite.org/wal.html#walresetbug>): a checkpoint that runs while another connection
/// resets the WAL can lose pages. The storage layer reads the version at open and, on an
/// affected library, never lets a checkpoint run without the writer lock (see
/// ``CheckpointPolicy``).
public enum SQLiteLibrary {
    /// The version string, such as `3.40.1`.
    public static var version: String { String(cString: sqlite3_libversion()) }

    /// The version as SQLite encodes it: `3040001` for 3.40.1.
    public static var versionNumber: Int { Int(sqlite3_libversion_number()) }

    /// Whether `versionNumber` has the WAL-reset bug.
    ///
    /// Fixed upstream in 3.51.3 and backported to 3.44.6 and 3.50.7; every earlier WAL-capable
    /// release is affected.
    public static func hasWALResetBug(versionNumber: Int) -> Bool {
        switch versionNumber {
        case ..<3_044_006: true
        case 3_044_006..<3_045_000: false
        case 3_045_000..<3_050_007: true
        case 3_050_007..<3_051_000: false
        case 3_051_000..<3_051_003: true
        default: false
        }
    }

    /// Whether the linked library has the WAL-reset bug.
    public static var hasWALResetBug: Bool { hasWALResetBug(versionNumber: versionNumber) }

    /// Whether SQLite's process-wide memory statistics are off in this process.
    ///
    /// With them on (SQLite's default), every allocation and free SQLite makes takes a global
    /// mutex and asks the allocator for the block's size, to keep `sqlite3_memory_used()` and the
    /// soft heap limit: measured at 9 % of a booking's instructions (`docs/archive/PERFORMANCE-HISTORY.md`).
    /// Pizzeria uses neither, so before the process's first connection it turns them off
    /// (`SQLITE_CONFIG_MEMSTATUS`, <https://sqlite.org/c3ref/c_config_covering_index_scan.html>).
    /// That is only possible before SQLite initializes: a host process that used SQLite first
    /// (or initialized it to keep the statistics) keeps its own setting, and this is `false`.
    /// Per-connection figures (`sqlite3_db_status`, ``Database/writerPageCacheStatistics(reset:)``)
    /// are kept either way.
    public static var memoryStatisticsOff: Bool { processSettings.memoryStatisticsOff }

    /// Applies Pizzeria's process-wide SQLite settings now (once per process; later calls return
    /// the first one's outcome) and tells whether they took effect (``memoryStatisticsOff``).
    ///
    /// Every ``Connection`` calls it before opening; call it yourself before anything else in the
    /// process uses SQLite (registering a VFS, another library's connection) for the settings to
    /// apply to the whole process.
    @discardableResult
    public static func applyProcessSettings() -> Bool { processSettings.memoryStatisticsOff }

    /// Applied on first use: Swift runs a global's initializer once, whichever thread gets there first.
    private static let processSettings = ProcessSettings()

    /// Bytes SQLite counts as allocated by the process (`SQLITE_STATUS_MEMORY_USED`): zero while
    /// its memory statistics are off.
    static var countedMemoryBytes: Int {
        var current: sqlite3_int64 = 0
        var highwater: sqlite3_int64 = 0
        guard sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &current, &highwater, 0) == SQLITE_OK else { return -1 }
        return Int(current)
    }
}

/// The process-wide settings, applied once.
private struct ProcessSettings: Sendable {
    let memoryStatisticsOff: Bool

    init() {
        // SQLITE_MISUSE when SQLite is already initialized: the host's setting stands.
        memoryStatisticsOff = pizzeria_sqlite_memory_statistics(0) == SQLITE_OK
    }
}
