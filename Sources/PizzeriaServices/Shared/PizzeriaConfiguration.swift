import PizzeriaStorage

/// How a ``Pizzeria`` uses its database file: how long it waits for other processes, what a
/// commit survives, who checkpoints.
///
/// ```swift
/// var configuration = PizzeriaConfiguration()
/// configuration.durability = .fast          // opt in: faster commits, see Durability
/// let pizzeria = try Pizzeria.open(path: "pizzeria.sqlite", configuration: configuration)
/// ```
public struct PizzeriaConfiguration: Sendable, Equatable {
    /// How long a write waits for another process's lock before it fails as busy, in
    /// milliseconds (0–600000). Default 5000.
    public var busyTimeoutMilliseconds: Int32 = 5_000
    /// What an acknowledged write survives. Default ``Durability/durable``.
    public var durability: Durability = .durable
    /// Who checkpoints the WAL. Default ``Checkpoints/automatic``.
    public var checkpoints: Checkpoints = .automatic
    /// The most reads that run at once on their own connections. Default 4.
    public var maximumConcurrentReads = 4
    /// The writer connection's page cache in KiB (64 to 1,048,576), or `nil` for SQLite's 2,000
    /// KiB: a long-lived service on a large file gives the writer room for the big indexes'
    /// interior pages (see docs/PERFORMANCE.md for what it buys). Default `nil`.
    public var writerCacheKiB: Int?
    /// How many WAL pages a commit leaves before the writer checkpoints (100 to 1,000,000).
    /// Default 8,000 (about 32 MB of WAL; SQLite's own default is 1,000): fewer checkpoints sync
    /// and copy less (each is two syncs; a page many commits changed is copied once), at the price
    /// of a larger `-wal` file. Ignored with ``Checkpoints/external``.
    public var checkpointPages = CheckpointPolicy.defaultThresholdPages
    /// With ``Checkpoints/external``: the WAL size (pages, 1,000 to 10,000,000) at which
    /// Pizzeria checkpoints anyway, because the replicator that should have is not running.
    /// Default 262,144 (1 GiB). Ignored with ``Checkpoints/automatic``.
    public var externalWALLimitPages = CheckpointPolicy.defaultExternalWALLimitPages

    /// What an acknowledged write survives.
    public enum Durability: String, Sendable, Equatable, CaseIterable {
        /// Every commit is synced to the device before the call returns (`synchronous=FULL`): a
        /// booking the customer was told about survives power loss. The default.
        case durable
        /// Commits are synced only at checkpoints (`synchronous=NORMAL`): several times faster
        /// per write; the database stays consistent, and a crash of the process loses nothing,
        /// but the last commits before a power loss or OS crash can be lost.
        case fast
    }

    /// Who checkpoints the write-ahead log into the database file.
    public enum Checkpoints: String, Sendable, Equatable, CaseIterable {
        /// Pizzeria does, safely for the linked SQLite (on a library with the WAL-reset bug, only
        /// while holding the write lock, and never waiting for readers).
        case automatic
        /// Pizzeria never does: another program owns checkpoints (a replicator such as Litestream).
        case external
    }

    /// Whether reads run on the writer connection whenever no write holds it, instead of on
    /// connections of their own. For a one-shot process that reads once or twice and exits (the
    /// `pizzeria` CLI turns it on): one connection, so SQLite parses the schema once instead of
    /// once per connection. A long-lived service leaves it off, so reads never wait for a write
    /// of this process. Default `false`.
    public var readsOnIdleWriter = false

    /// Whether writes refuse a file fenced by a shop's move (``MoveFence``): on for every shop
    /// ``Shops`` opens, so a write that reaches a shop's old file after its move is refused
    /// (retry on its node) instead of lost. Default `false` (one file opened by path).
    public var honoursMoveFence = false

    /// The defaults.
    public init() {}

    /// The storage layer's settings.
    var database: DatabaseConfiguration {
        var configuration = DatabaseConfiguration()
        configuration.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        configuration.synchronous = durability == .durable ? .full : .normal
        configuration.checkpointPolicy =
            checkpoints == .automatic
            ? .recommended(thresholdPages: checkpointPages) : .external(walLimitPages: externalWALLimitPages)
        configuration.maximumReaderCount = max(1, maximumConcurrentReads)
        configuration.writerCacheKiB = writerCacheKiB
        configuration.readsOnIdleWriter = readsOnIdleWriter
        configuration.honoursMoveFence = honoursMoveFence
        return configuration
    }

    // MARK: - From the environment

    /// The environment variables that change the defaults, each with its rule.
    public enum Variable: String, Sendable, CaseIterable {
        /// How long to wait for another process's lock, in milliseconds.
        case busyTimeout = "PIZZERIA_BUSY_TIMEOUT_MS"
        /// `full` (durable, the default) or `normal` (fast).
        case synchronous = "PIZZERIA_SYNCHRONOUS"
        /// `auto` (the default) or `external`.
        case checkpoints = "PIZZERIA_CHECKPOINTS"
        /// WAL pages before the writer checkpoints.
        case checkpointPages = "PIZZERIA_CHECKPOINT_PAGES"
        /// WAL pages at which an `external` policy checkpoints anyway.
        case walLimitPages = "PIZZERIA_WAL_LIMIT_PAGES"

        /// The values it takes, for errors and help.
        public var rule: String {
            switch self {
            case .busyTimeout: "a whole number of milliseconds from 0 to 600000"
            case .synchronous:
                "full (every commit is synced) or normal (faster; the last commits before a power loss can be lost)"
            case .checkpoints: "auto (pizzeria checkpoints) or external (a replicator such as Litestream does)"
            case .checkpointPages: "a whole number of WAL pages from 100 to 1000000 (default 8000)"
            case .walLimitPages:
                "a whole number of WAL pages from 1000 to 10000000 (default 262144: with external checkpoints, the WAL size at which pizzeria checkpoints anyway)"
            }
        }
    }

    /// The defaults, changed by whichever of ``Variable``'s variables `environment` sets (empty
    /// values are ignored).
    /// - Throws: ``ValidationError`` naming each variable whose value breaks its rule.
    public init(environment: [String: String]) throws {
        var problems: [FieldError] = []
        for variable in Variable.allCases {
            guard let text = environment[variable.rawValue], !text.isEmpty else { continue }
            switch (variable, text.lowercased()) {
            case (.busyTimeout, _):
                if let milliseconds = Int32(text), (0...600_000).contains(milliseconds) {
                    busyTimeoutMilliseconds = milliseconds; continue
                }
            case (.synchronous, "full"): durability = .durable; continue
            case (.synchronous, "normal"): durability = .fast; continue
            case (.checkpoints, "auto"): checkpoints = .automatic; continue
            case (.checkpoints, "external"): checkpoints = .external; continue
            case (.checkpointPages, _):
                if let pages = Int(text), (100...1_000_000).contains(pages) { checkpointPages = pages; continue }
            case (.walLimitPages, _):
                if let pages = Int(text), (1_000...10_000_000).contains(pages) {
                    externalWALLimitPages = pages; continue
                }
            default: break
            }
            problems.append(FieldError(field: variable.rawValue, message: "must be \(variable.rule), not '\(text)'"))
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
    }
}
