import Foundation
import PizzeriaServices

/// `pizzeria shops node|nodes|where|move`: which node serves which shop, and moving a shop
/// (docs/SHOPS.md, "The placement" and "Moving a shop").
enum ShopsPlacementCommands {
    /// The placement of `--placement` / `$PIZZERIA_PLACEMENT`, or a usage error naming them.
    static func placement(_ invocation: Invocation, create: Bool = false) throws -> Placement {
        let context = invocation.context
        guard
            let placement = try context.platform.placement(
                create: create, now: try context.clock(), acting: context.acting)
        else {
            throw invocation.usage("give the placement file: --placement FILE or $PIZZERIA_PLACEMENT")
        }
        return placement
    }

    static let nodeName = Argument("node", help: "The node's name: 1 to 63 of a-z 0-9 -.")
    static let directory = RequiredOption(
        "dir", "dir", help: "The node's shops directory (absolute).", completion: .files)
    static let replica = RequiredOption(
        "replica", "dir", help: "Where the node's replicator streams its shops (absolute).", completion: .files)

    static let add = Command(
        name: "add",
        abstract: "Add a node: its shops directory and its replica; the shops found there are placed on it.",
        arguments: [nodeName], options: [directory, replica, OrderCommands.by],
        examples: [
            "pizzeria --placement /srv/placement.sqlite shops node add napoli-1 --dir /srv/napoli-1/shops --replica /srv/store/napoli-1"
        ],
        run: { invocation in
            let name = try ShopName.parse(try invocation[nodeName], field: "node")
            let placed = try placement(invocation, create: true).addNode(
                name, shopsDirectory: try invocation[directory], replicaDirectory: try invocation[replica])
            try invocation.context.emit([
                "node": name.description, "placed": placed.map(\.description).joined(separator: " "),
            ]) {
                "Added node \(name); \(placed.count) shop(s) found there placed on it.\n"
            }
            return .ok
        })

    static let node = Command(name: "node", abstract: "The placement's nodes: add one.", subcommands: [add])

    static let nodesShape = ListOutput.Shape<PlacementNode>(
        table: Table("NODE", "SHOPS", "DIR", "REPLICA", rightAligned: [1]),
        cells: { [$0.name, "\($0.shops)", $0.shopsDirectory, $0.replicaDirectory] }, empty: "No nodes.\n",
        csv: CSVColumns([.member("name"), .member("shops"), .member("shops_dir"), .member("replica_dir")]))

    static let nodes = Command(
        name: "nodes", abstract: "List the placement's nodes, with how many shops each serves.",
        options: ListOptions.all,
        run: { invocation in
            let nodes = try placement(invocation).nodes()
            try invocation.context.list.write(invocation, nodesShape) { each in try nodes.forEach(each) }
            return .ok
        })

    static let whereShape = ListOutput.Shape<ShopPlacement>(
        table: Table("SHOP", "NODE", "STATE", "PATH"),
        cells: { [$0.shop, $0.node, $0.target.map { "moving to \($0)" } ?? "serving", $0.path] },
        empty: "No shops placed.\n",
        csv: CSVColumns([.member("shop"), .member("node"), .member("state"), .member("target"), .member("path")]))

    static let onNode = Option<String>("on", "node", help: "Only the shops of this node.")

    static let whereCommand = Command(
        name: "where",
        abstract: "Where each shop is served: its node, serving or moving, its file (the router's read).",
        options: [onNode] + ListOptions.all,
        run: { invocation in
            let on = try invocation[onNode].map { try ShopName.parse($0, field: "on") }
            let rows = try placement(invocation).placements(on: on)
            try invocation.context.list.write(invocation, whereShape) { each in try rows.forEach(each) }
            return .ok
        })

    static let target = RequiredOption("to", "node", help: "The node to move the shop to.")
    static let timeout = Option(
        "timeout", "seconds", help: "How long the final sync from the replica may take (1 to 3600; default 60).",
        default: "60", .integer(in: 1...3_600))

    static let move = Command(
        name: "move", abstract: "Move a shop to another node: drain, final sync, restore there, switch, resume.",
        discussion: """
            The shop is marked moving (its requests get exit 75: retry) and its file fenced (a write that reaches it
            is refused); the move restores the shop from its node's replica (Litestream: $PIZZERIA_LITESTREAM, else
            `litestream` on PATH) until the copy carries the fence, checks the copy's rows equal the file's, puts it
            in the target's directory, switches the placement and removes the old file. A failure before the switch
            puts everything back (exit 1, the reason named); moving again to the same node resumes a move that was
            killed. See docs/SHOPS.md.
            """,
        arguments: [ShopsCommands.nameArgument], options: [target, timeout, OrderCommands.by],
        examples: ["pizzeria --placement /srv/placement.sqlite shops move napoli-centro --to napoli-2"],
        run: { invocation in
            let context = invocation.context
            let name = try ShopName.parse(try invocation[ShopsCommands.nameArgument], field: "name")
            let to = try ShopName.parse(try invocation[target], field: "to")
            let mover = ShopMove(
                placement: try placement(invocation), timeout: .seconds(try invocation[timeout] ?? 60),
                configuration: try context.configuration(),
                restore: Litestream.restore(environment: context.environment))
            let report = try mover.move(name, to: to) { step in
                if !context.json { context.console.err("\(step)\n") }
            }
            try context.emit(report) {
                "Moved shop \(report.shop) from node \(report.from) to node \(report.to) in "
                    + String(format: "%.1f", report.seconds) + " s (writes refused for "
                    + String(format: "%.1f", report.writesRefusedSeconds) + " s); it is served from \(report.path).\n"
            }
            return .ok
        })
}

/// Litestream, for a move's restore: `$PIZZERIA_LITESTREAM`, else `litestream` on `PATH`.
enum Litestream {
    static func restore(environment: [String: String]) -> ShopMove.Restore {
        { replica, output in
            guard let binary = binary(environment) else {
                throw PlacementError.moveFailed(
                    shop: (output as NSString).lastPathComponent,
                    reason: "Litestream not found: set $PIZZERIA_LITESTREAM (scripts/ensure-litestream prints its path)"
                )
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["restore", "-o", output, "file://" + replica]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw RestoreFailed(
                    message: "litestream restore: "
                        + (text.split(separator: "\n").last.map(String.init) ?? "exit \(process.terminationStatus)"))
            }
        }
    }

    static func binary(_ environment: [String: String]) -> String? {
        if let path = environment["PIZZERIA_LITESTREAM"], !path.isEmpty { return path }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/litestream"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    struct RestoreFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
