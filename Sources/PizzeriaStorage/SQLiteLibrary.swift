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
}
