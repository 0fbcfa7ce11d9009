import Foundation

/// A fresh directory under the system temp dir, removed when the value is released.
/// Each test gets its own, so tests run in parallel without sharing files.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates the directory.
    public init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("pizzeria-tests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A path inside the directory (the file is not created).
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// A file's bytes, for "left byte-for-byte unchanged" checks; `nil` when it does not exist.
public func fileBytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

/// The package's root folder, found from this source file's location.
public let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
