import Foundation
import PizzeriaServices

/// `pizzeria shops …`: a platform of pizzerias, one file each under one directory.
enum ShopsCommands {
    static let command = Command(
        name: "shops",
        abstract: "Many pizzerias: create, list, check, back up, migrate, remove and move shops by name.",
        discussion: """
            A platform keeps one Pizzeria file per shop under one directory (--shops DIR or $PIZZERIA_SHOPS), at
            DIR/ab/cd/NAME.sqlite where ab/cd are the first four hex digits of the name's FNV-1a hash (so no
            directory grows large). A name is 1 to 63 of a-z 0-9 - (no dots or slashes: it can only name a file in
            DIR). Any command runs on one shop with --shop NAME instead of --db: `pizzeria --shop napoli order list`.
            Across nodes, a placement file (--placement FILE or $PIZZERIA_PLACEMENT) says which node serves which
            shop: --shop goes to the shop's node, `shops move` moves one. See docs/SHOPS.md.
            """,
        subcommands: [
            create, list, check, backup, migrate, remove, ShopsPlacementCommands.node, ShopsPlacementCommands.nodes,
            ShopsPlacementCommands.whereCommand, ShopsPlacementCommands.move,
        ])

    static let nameArgument = Argument("name", help: "The shop's name: 1 to 63 of a-z 0-9 -.")

    /// The platform's directory, or a usage error naming the option.
    static func shops(_ invocation: Invocation) throws -> Shops {
        guard let directory = try invocation.context.platform.shopsDirectory() else {
            throw invocation.usage(
                "give the shops' directory: --shops DIR or $PIZZERIA_SHOPS (or --placement FILE with --node NAME)")
        }
        return try Shops(directory: directory, configuration: try invocation.context.configuration())
    }

    static let create = Command(
        name: "create", abstract: "Create a shop: a new, migrated file.", arguments: [nameArgument],
        examples: ["pizzeria --shops /srv/pizzerie shops create napoli-centro"],
        run: { invocation in
            let context = invocation.context
            let name = try ShopName.parse(try invocation[nameArgument], field: "name")
            let path: String
            if let node = context.platform.node, context.platform.shopsOption == nil,
                let placement = try context.platform.placement(now: try context.clock(), acting: context.acting)
            {
                path = try placement.create(name, on: node, configuration: try context.configuration())
            } else {
                path = try shops(invocation).create(name)
            }
            try context.emit(ShopEntry(name: name.description, path: path)) { "Created shop \(name) at \(path).\n" }
            return .ok
        })

    static let shape = ListOutput.Shape<ShopEntry>(
        table: Table("NAME", "PATH"), cells: { [$0.name, $0.path] }, empty: "No shops.\n",
        csv: CSVColumns([.member("name"), .member("path")]))

    static let list = Command(
        name: "list", abstract: "List the shops, by name, with their files.", options: ListOptions.all,
        run: { invocation in
            let entries = try shops(invocation).entries()
            try invocation.context.list.write(invocation, shape) { each in try entries.forEach(each) }
            return .ok
        })

    /// One shop's check, for `shops check`.
    struct CheckRow: Encodable {
        let name: String
        let ok: Bool
        let problems: [String]
    }

    static let checkNames = VariadicArgument("name", help: "Shops to check (default: all).", optional: true)

    static let check = Command(
        name: "check", abstract: "Check every shop (or the ones named): integrity, schema, derived data.",
        discussion:
            "Exit 1 when any shop fails; each shop's problems are listed (`pizzeria --shop NAME check` for all of one).",
        arguments: [checkNames],
        run: { invocation in
            let context = invocation.context
            let platform = try shops(invocation)
            let asked = try invocation[checkNames]
            let names = asked.isEmpty ? try platform.names() : try asked.map { try ShopName.parse($0, field: "name") }
            let now = try context.clock()()
            var rows: [CheckRow] = []
            for name in names {
                guard platform.exists(name) else { throw ShopsError.notFound(name) }
                let result = try Maintenance.check(
                    path: platform.path(of: name), configuration: try context.configuration(), now: now)
                let problems =
                    result.integrityProblems + result.foreignKeyProblems + result.schemaDrift + result.settingsProblems
                    + (result.migrations.isCurrent ? [] : ["migrations pending (pizzeria shops migrate)"])
                    + result.domainProblems.map { "\($0.table) \($0.id): \($0.problem)" }
                rows.append(CheckRow(name: name.description, ok: problems.isEmpty, problems: problems))
            }
            try context.emit(rows) {
                var table = Table("SHOP", "RESULT")
                for row in rows { table.add(row.name, row.ok ? "ok" : row.problems.joined(separator: "; ")) }
                return rows.isEmpty ? "No shops.\n" : table.rendered
            }
            return rows.allSatisfy(\.ok) ? .ok : .refused
        })

    static let destination = RequiredOption("to", "path", help: "The backup file to write (never overwritten).")

    static let backup = Command(
        name: "backup", abstract: "Back up one shop to a file (SQLite's online backup: one consistent snapshot).",
        arguments: [nameArgument], options: [destination],
        run: { invocation in
            let context = invocation.context
            let platform = try shops(invocation)
            let name = try ShopName.parse(try invocation[nameArgument], field: "name")
            guard platform.exists(name) else { throw ShopsError.notFound(name) }
            let target = try invocation[destination]
            let pages = try Maintenance.backup(
                path: platform.path(of: name), to: target, configuration: try context.configuration())
            try context.emit(["shop": name.description, "destination": target, "pages": "\(pages)"]) {
                "Backed up shop \(name) to \(target) (\(pages) pages).\n"
            }
            return .ok
        })

    static let jobs = Option(
        "jobs", "n", help: "Shops migrated at once (1 to 64; default 2).", default: "2", .integer(in: 1...64))

    static let migrate = Command(
        name: "migrate", abstract: "Apply pending migrations to every shop, resumable; a failing shop is reported.",
        discussion: """
            Each migration of each shop is its own transaction: a run killed at any instant is resumed by running it
            again. A shop already current is only read. Exit 1 when a shop failed (the others are done).
            """,
        options: [jobs],
        run: { invocation in
            let context = invocation.context
            let report = try shops(invocation).migrateAll(jobs: try invocation[jobs] ?? 2)
            try context.emit(report) {
                "\(report.shops) shops: \(report.migrated.count) migrated, \(report.current) already current, "
                    + "\(report.failed.count) failed in \(String(format: "%.1f", report.seconds)) s.\n"
                    + report.failed.map { "  \($0.name): \($0.error)\n" }.joined()
            }
            return report.failed.isEmpty ? .ok : .refused
        })

    static let yes = Flag("yes", help: "Confirm: the shop's file goes (its backups and replicas are yours).")

    static let remove = Command(
        name: "remove", abstract: "Remove a shop's file (with --yes).", arguments: [nameArgument], options: [yes],
        run: { invocation in
            let context = invocation.context
            let name = try ShopName.parse(try invocation[nameArgument], field: "name")
            guard try invocation[yes] else { throw invocation.usage("removing shop \(name) needs --yes") }
            try shops(invocation).remove(name)
            if context.platform.shopsOption == nil,
                let placement = try context.platform.placement(now: try context.clock(), acting: context.acting)
            {
                try placement.unplace(name)
            }
            try context.emit(["removed": name.description]) { "Removed shop \(name).\n" }
            return .ok
        })
}
