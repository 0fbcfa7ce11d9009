import Foundation

/// A fresh directory under the system temp dir, removed when the value is released.
/// Each test gets its own, so tests run in parallel without sharing files.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("pizzeria-tests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A path inside the directory (the file is not created).
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// SHA-256-free fingerprint of a file's bytes, for "left byte-for-byte unchanged" checks.
func fileBytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
