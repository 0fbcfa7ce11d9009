import Foundation

/// The write-ahead log as another process would see it: its size, how much of it the last
/// checkpoint (by any process) copied into the database file, and who holds it back.
///
/// A read transaction pins the WAL at its snapshot: until it ends, no checkpoint can copy frames
/// written after it began, nor restart the WAL, so the WAL grows. ``isHeldBackByReader`` says
/// when that is happening.
public struct WALStatus: Sendable, Equatable {
    /// Size of the `-wal` file in bytes (0 when there is none). The file is reused from the start
    /// after a restart, so it does not shrink.
    public let fileBytes: Int64
    /// The database's page size.
    public let pageSize: Int
    /// Frames in the current WAL (`mxFrame` of the WAL index), when known.
    public let frames: Int?
    /// Of those, frames already copied into the database file by checkpoints (`nBackfill`).
    public let checkpointedFrames: Int?
    /// Other processes in a read transaction, when known (Linux).
    public let readerProcesses: [Int32]?
    /// Another process holding the write lock, when known.
    public let writerProcess: Int32?

    /// Frames not yet in the database file.
    public var pendingFrames: Int? {
        guard let frames, let checkpointedFrames else { return nil }
        return max(0, frames - checkpointedFrames)
    }

    /// Whether frames wait to be checkpointed while another process reads an older snapshot:
    /// the WAL cannot be copied or restarted past it until that transaction ends.
    public var isHeldBackByReader: Bool {
        (pendingFrames ?? 0) > 0 && !(readerProcesses ?? []).isEmpty
    }

    /// Reads the WAL index header through the descriptor SQLite already has open for this
    /// process (found in `/proc/self/fd`): `pread` on it cannot disturb SQLite's locks, where
    /// opening and closing the file would drop them.
    static func read(databasePath: String, pageSize: Int) -> WALStatus {
        var walStat = stat()
        let walBytes = stat(databasePath + "-wal", &walStat) == 0 ? Int64(walStat.st_size) : 0
        let header = walBytes > 0 ? indexHeader(databasePath + "-shm") : nil
        let locks = WALLocks.read(databasePath: databasePath)
        return WALStatus(
            fileBytes: walBytes, pageSize: pageSize, frames: header?.maxFrame,
            checkpointedFrames: header?.backfill, readerProcesses: locks?.readers,
            writerProcess: locks?.writer)
    }

    /// `mxFrame` and `nBackfill` from the `-shm` file (<https://sqlite.org/walformat.html#the_wal_index_file_format>):
    /// the first copy of the index header holds `mxFrame` at byte 16; the checkpoint info that
    /// follows the two copies holds `nBackfill` at byte 96. Both are native-endian 32-bit.
    private static func indexHeader(_ shmPath: String) -> (maxFrame: Int, backfill: Int)? {
        guard let bytes = headBytes(of: shmPath, count: 100) else { return nil }
        func word(_ offset: Int) -> Int {
            Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) })
        }
        return (word(16), word(96))
    }

    /// The first `count` bytes of a file SQLite has open in this process, read through its own
    /// descriptor (never opening and closing the file behind SQLite's back).
    static func headBytes(of path: String, count: Int) -> [UInt8]? {
        var target = stat()
        guard stat(path, &target) == 0, let fd = openDescriptor(of: target) else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        guard pread(fd, &bytes, bytes.count, 0) == bytes.count else { return nil }
        // The descriptor is SQLite's: make sure it still named the same file while it was read.
        var after = stat()
        guard fstat(fd, &after) == 0, after.st_dev == target.st_dev, after.st_ino == target.st_ino else { return nil }
        return bytes
    }

    /// A descriptor of this process open on the file `target` describes, or `nil`.
    static func openDescriptor(of target: stat) -> Int32? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let fd = Int32(name) else { continue }
            var status = stat()
            if fstat(fd, &status) == 0, status.st_dev == target.st_dev, status.st_ino == target.st_ino { return fd }
        }
        return nil
    }
}
