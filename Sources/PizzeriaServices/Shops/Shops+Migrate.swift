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

/// The shops of one ``Shops/migrateAll(jobs:)`` run, the next to take, and what became of each:
/// shared by its job threads.
private final class MigrationRun: Sendable {
    let names: [ShopName]
    let next = Atomic<Int>(0)
    let results = Mutex<(migrated: [String], current: Int, failed: [ShopsMigration.Failure])>(([], 0, []))

    init(names: [ShopName]) { self.names = names }
}

extension Shops {
    /// Upgrades every shop, `jobs` at a time (1–64): a current shop is only read; a shop with
    /// pending migrations gets them, each in its own transaction, so a run killed at any instant
    /// is resumed by running it again. A shop that fails is reported and the others are done.
    /// Each job is a thread of its own, so more jobs than cores can overlap one shop's syncs with
    /// another's work where syncs are slow (here a shop's migration is mostly the parse of its
    /// schema, and 2 jobs on 2 cores are as fast as 8).
    public func migrateAll(jobs: Int = 2) throws -> ShopsMigration {
        try migrateAll(jobs: jobs, starting: nil)
    }

    /// ``migrateAll(jobs:)``, calling `starting` on the job's thread before each shop (tests
    /// watch the jobs run at once).
    func migrateAll(jobs: Int, starting: (@Sendable (ShopName) -> Void)?) throws -> ShopsMigration {
        guard (1...64).contains(jobs) else {
            throw ValidationError([FieldError(field: "jobs", message: "must be from 1 to 64, not \(jobs)")])
        }
        let started = Date()
        let run = MigrationRun(names: try names())
        // Threads, not `concurrentPerform`, which ran at most one iteration a core at a time
        // (`--jobs 4` on two cores was two jobs).
        let finished = DispatchGroup()
        for _ in 0..<min(jobs, max(run.names.count, 1)) {
            finished.enter()
            Thread { [self] in
                defer { finished.leave() }
                migrateShops(of: run, starting: starting)
            }.start()
        }
        finished.wait()
        let (migrated, current, failed) = run.results.withLock { ($0.migrated, $0.current, $0.failed) }
        return ShopsMigration(
            shops: run.names.count, migrated: migrated.sorted(), current: current,
            failed: failed.sorted { $0.name < $1.name }, seconds: Date().timeIntervalSince(started))
    }

    /// One job: takes the next shop until none is left, and notes what became of each.
    private func migrateShops(of run: MigrationRun, starting: (@Sendable (ShopName) -> Void)?) {
        while true {
            let index = run.next.add(1, ordering: .relaxed).oldValue
            guard index < run.names.count else { return }
            let name = run.names[index], path = path(of: name)
            starting?(name)
            do {
                // The open reads the shop's schema once and leaves a current shop unwritten.
                let result = try Maintenance.initialize(path: path, configuration: configuration)
                if result.applied.isEmpty && !result.definitionsRemade {
                    run.results.withLock { $0.current += 1 }
                } else {
                    // The pool's handle was made for the old schema: the next open makes a new one.
                    close(name)
                    run.results.withLock { $0.migrated.append(name.description) }
                }
            } catch {
                let text = (error as? any PizzeriaFailure)?.description ?? "\(error)"
                run.results.withLock { $0.failed.append(.init(name: name.description, error: text)) }
            }
        }
    }
}
