import Dispatch
import Foundation
import Synchronization

/// What ``Shops/migrateAll(jobs:)`` did: how many shops, which it upgraded, which were current,
/// which failed and why, and how long it took.
///
/// JSON: `{"shops", "migrated": [name…], "current", "failed": [{"name", "error"}], "seconds"}`.
public struct ShopsMigration: Sendable, Hashable, Encodable {
    /// A shop that could not be upgraded, and why (its file is as it was, or as far as its last
    /// whole migration: each migration is its own transaction).
    public struct Failure: Sendable, Hashable, Encodable {
        /// The shop.
        public let name: String
        /// What went wrong.
        public let error: String
    }

    /// Shops found.
    public let shops: Int
    /// Shops that had migrations applied, by name.
    public let migrated: [String]
    /// Shops already current.
    public let current: Int
    /// Shops that failed.
    public let failed: [Failure]
    /// Wall-clock seconds.
    public let seconds: Double
}

extension Shops {
    /// Upgrades every shop, `jobs` at a time (1–64): a current shop is only read; a shop with
    /// pending migrations gets them, each in its own transaction, so a run killed at any instant
    /// is resumed by running it again. A shop that fails is reported and the others are done.
    public func migrateAll(jobs: Int = 2) throws -> ShopsMigration {
        guard (1...64).contains(jobs) else {
            throw ValidationError([FieldError(field: "jobs", message: "must be from 1 to 64, not \(jobs)")])
        }
        let started = Date()
        let names = try names()
        let next = Atomic<Int>(0)
        let results = Mutex<(migrated: [String], current: Int, failed: [ShopsMigration.Failure])>(([], 0, []))
        DispatchQueue.concurrentPerform(iterations: min(jobs, max(names.count, 1))) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < names.count else { return }
                let name = names[index], path = path(of: name)
                do {
                    // The open reads the shop's schema once and leaves a current shop unwritten.
                    let result = try Maintenance.initialize(path: path, configuration: configuration)
                    if result.applied.isEmpty && !result.definitionsRemade {
                        results.withLock { $0.current += 1 }
                    } else {
                        // The pool's handle was made for the old schema: the next open makes a new one.
                        close(name)
                        results.withLock { $0.migrated.append(name.description) }
                    }
                } catch {
                    let text = (error as? any PizzeriaFailure)?.description ?? "\(error)"
                    results.withLock { $0.failed.append(.init(name: name.description, error: text)) }
                }
            }
        }
        let (migrated, current, failed) = results.withLock { ($0.migrated, $0.current, $0.failed) }
        return ShopsMigration(
            shops: names.count, migrated: migrated.sorted(), current: current,
            failed: failed.sorted { $0.name < $1.name }, seconds: Date().timeIntervalSince(started))
    }
}
