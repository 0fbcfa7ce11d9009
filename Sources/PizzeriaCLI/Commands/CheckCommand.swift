import PizzeriaServices

/// `pizzeria check`: is the file sound and current?
enum CheckCommand {
    static let repair = Flag(
        "repair",
        help: "Recompute the derived data that disagrees with its source, in one transaction, and say what changed.")
    static let erasuresFrom = Option(
        "erasures-from", "file",
        help:
            "A restored backup: name (with --repair: erase again) the customers erased in FILE, the live database, since.",
        completion: .files)

    static let command = Command(
        name: "check",
        abstract: "Check the database: integrity_check, foreign_key_check, schema version, the shop's own rules, WAL.",
        discussion: """
            Exits 0 only when every check passes; 65 when SQLite's checks, the schema or the settings fail
            (the schema objects row compares every table, index, trigger and view with what the migrations
            make: a dropped or edited trigger no longer holds its rule; --repair makes triggers, views and
            indexes again);
            1 when the file is sound but the shop's data breaks its own rules (the domain row): a slot load,
            capacity, service day, local time or total that disagrees with what it derives from, a future slot
            over its capacity, a future order outside the hours that staff did not keep, an erasure not carried
            through, a route to another customer's order. Each problem names its table, its row, what is wrong
            and what it should be. Without --repair it reads the file without changing it (nor its -wal and
            -shm files); --repair recomputes the derived data in one transaction, lists what it changed and
            what only a person can decide (it never cancels or moves an order). Also reports the SQLite library version and whether the WAL-reset mitigation is
            active, the checkpoint policy and durability writers use (PIZZERIA_CHECKPOINTS,
            PIZZERIA_SYNCHRONOUS), and the WAL: its size, how much of it checkpoints have copied into
            the database file, and whether another process's read transaction is holding it back.
            """,
        options: [repair, erasuresFrom],
        run: run)

    struct WAL: Encodable {
        let fileBytes: Int64
        let frames: Int?
        let checkpointedFrames: Int?
        let pendingFrames: Int?
        let readerPIDs: [Int32]?
        let heldBackByReader: Bool

        enum CodingKeys: String, CodingKey {
            case fileBytes = "file_bytes", frames, checkpointedFrames = "checkpointed_frames"
            case pendingFrames = "pending_frames", readerPIDs = "reader_pids", heldBackByReader = "held_back_by_reader"
        }
    }

    struct Report: Encodable {
        let integrity: [String]
        let foreignKeys: [String]
        let schemaVersion: Int
        let latestVersion: Int
        let journalMode: String
        let sqliteVersion: String
        let walResetBug: Bool
        let walResetMitigation: Bool
        let checkpointPolicy: String
        let synchronous: String
        let wal: WAL
        let foreignOrderRoutes: [String]
        let settings: [String]
        let domain: [DomainProblem]
        let schemaDrift: [String]
        let repaired: [DomainProblem]?
        let ok: Bool

        enum CodingKeys: String, CodingKey {
            case domain = "domain_problems", repaired, schemaDrift = "schema_drift"
            case foreignOrderRoutes = "foreign_order_routes", settings = "settings_problems"
            case integrity = "integrity_problems", foreignKeys = "foreign_key_problems"
            case schemaVersion = "schema_version", latestVersion = "latest_version", journalMode = "journal_mode"
            case sqliteVersion = "sqlite_version", walResetBug = "wal_reset_bug"
            case walResetMitigation = "wal_reset_mitigation", checkpointPolicy = "checkpoint_policy", synchronous, wal,
                ok
        }
    }

    static func run(_ invocation: Invocation) throws -> ExitCode {
        let context = invocation.context
        let configuration = try context.configuration()
        let now = try context.clock()()
        if try invocation[repair] {
            // A repair writes: with require-staff on, it is an owner's.
            try context.open(.requireCurrent).staff.authorize(context.acting.name, for: .owner)
        }
        // A restored backup that predates erasures made since: named, and erased again with --repair.
        if let live = try invocation[erasuresFrom] {
            if try invocation[repair] {
                let again = try Maintenance.reapplyErasures(
                    path: context.databasePath, from: live, configuration: configuration, now: now,
                    by: context.acting.name)
                context.console.note(
                    "erased again \(again.count) customer\(again.count == 1 ? "" : "s") erased in \(live) since this backup was made"
                )
            } else {
                let missing = try Maintenance.erasuresMissing(
                    path: context.databasePath, from: live, configuration: configuration)
                if !missing.isEmpty {
                    context.console.note(
                        "this file predates \(missing.count) erasure\(missing.count == 1 ? "" : "s") made in \(live): "
                            + "run `pizzeria check --repair --erasures-from \(live)` to erase them again")
                }
            }
        }
        let repaired =
            try invocation[repair]
            ? try Maintenance.repair(path: context.databasePath, configuration: configuration, now: now).repaired : nil
        let result = try Maintenance.check(path: context.databasePath, configuration: configuration, now: now)
        let wal = result.wal
        let report = Report(
            integrity: result.integrityProblems, foreignKeys: result.foreignKeyProblems,
            schemaVersion: result.migrations.version, latestVersion: result.migrations.latestVersion,
            journalMode: result.journalMode, sqliteVersion: result.sqliteVersion, walResetBug: result.hasWALResetBug,
            walResetMitigation: result.walResetMitigation,
            checkpointPolicy: result.checkpoints == .automatic ? "auto" : "external",
            synchronous: result.durability == .durable ? "full" : "normal",
            wal: WAL(
                fileBytes: wal.fileBytes, frames: wal.frames, checkpointedFrames: wal.checkpointedFrames,
                pendingFrames: wal.pendingFrames, readerPIDs: wal.readerProcesses,
                heldBackByReader: wal.isHeldBackByReader),
            foreignOrderRoutes: result.foreignOrderRoutes, settings: result.settingsProblems,
            domain: result.domainProblems, schemaDrift: result.schemaDrift,
            repaired: repaired, ok: result.isHealthy && result.isDomainSound)
        try context.emit(report) {
            // A table cell stays on one line: problems are listed under the table.
            var listed: [String] = []
            func verdict(_ check: String, _ problems: [String]) -> String {
                listed += problems.map { "\(check): \($0)" }
                return problems.isEmpty
                    ? "ok" : problems.count == 1 ? "1 problem, below" : "\(problems.count) problems, below"
            }
            var table = Table("CHECK", "RESULT")
            table.add("integrity_check", verdict("integrity_check", result.integrityProblems))
            table.add("foreign_key_check", verdict("foreign_key_check", result.foreignKeyProblems))
            table.add(
                "schema",
                "version \(result.migrations.version) of \(result.migrations.latestVersion)"
                    + (result.migrations.isCurrent ? " (current)" : " (run `pizzeria init`)"))
            table.add("schema objects", verdict("schema objects", result.schemaDrift))
            table.add("journal_mode", result.journalMode)
            table.add(
                "sqlite",
                result.sqliteVersion
                    + (result.hasWALResetBug
                        ? " (has the WAL-reset bug; mitigation \(report.walResetMitigation ? "active: no passive checkpoints" : "OFF"))"
                        : " (no WAL-reset bug)"))
            table.add(
                "checkpoints",
                result.checkpoints == .automatic
                    ? "auto: pizzeria checkpoints"
                        + (result.walResetMitigation ? " holding the write lock, never waiting for readers" : "")
                    : "external: a replicator checkpoints (PIZZERIA_CHECKPOINTS=external); pizzeria only once the WAL reaches "
                        + "\(configuration.externalWALLimitPages) pages (PIZZERIA_WAL_LIMIT_PAGES), as when the replicator is down"
            )
            table.add(
                "durability",
                result.durability == .durable
                    ? "full (synchronous=FULL: every commit is synced)"
                    : "normal (synchronous=NORMAL: the last commits before a power loss can be lost)")
            table.add("wal", walText(wal))
            table.add(
                "navigation",
                result.foreignOrderRoutes.isEmpty
                    ? "ok"
                    : "\(result.foreignOrderRoutes.count) stored route(s) to another customer's order, never shown: "
                        + result.foreignOrderRoutes.prefix(5).joined(separator: ", "))
            table.add("settings", verdict("settings", result.settingsProblems))
            table.add("domain", verdict("domain", result.domainProblems.map(\.description)))
            let repairs =
                repaired.map { done in
                    done.isEmpty
                        ? "Repaired nothing: no derived data disagreed with its source.\n"
                        : "Repaired \(done.count) problem\(done.count == 1 ? "" : "s"):\n"
                            + done.map { "  \($0.description)\n" }.joined()
                } ?? ""
            return repairs + table.rendered + listed.map { $0 + "\n" }.joined()
                + (report.ok ? "All checks passed.\n" : "Some checks FAILED.\n")
        }
        return result.isHealthy ? (result.isDomainSound ? .ok : .refused) : .invalidInput
    }

    static func walText(_ wal: Maintenance.WALReport) -> String {
        guard wal.fileBytes > 0 else { return "empty" }
        var text = "\(wal.fileBytes) bytes"
        if let frames = wal.frames, let done = wal.checkpointedFrames {
            text += "; \(frames) frames, \(done) copied into the database by the last checkpoint"
        }
        if wal.isHeldBackByReader, let readers = wal.readerProcesses {
            text +=
                "; HELD BACK by a read transaction in process \(readers.map(String.init).joined(separator: ", "))"
                + " (the WAL grows until it ends)"
        } else if let readers = wal.readerProcesses, !readers.isEmpty {
            text += "; readers: process \(readers.map(String.init).joined(separator: ", "))"
        }
        return text
    }
}
