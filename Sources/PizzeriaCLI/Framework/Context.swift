import Foundation
import PizzeriaServices

/// What every command runs with: the database path, the output mode, the console, the terminal.
struct Context: Sendable {
    /// `--db`, else `$PIZZERIA_DB`, else `./pizzeria.sqlite`.
    let databasePath: String
    /// `--json`.
    let json: Bool
    /// Where output goes.
    let console: Console
    /// Whether a person is typing, and their input.
    let terminal: Terminal
    /// The process environment (time zone overrides and the like).
    let environment: [String: String]
    /// The command being run, `["pizzeria", "pizza", "edit"]` (empty before parsing).
    var commandPath: [String] = []
    /// `--by NAME`, where the command takes it.
    var staffOption: String?
    /// Who acts: `--by`, else `$PIZZERIA_STAFF`; and through which command — for the audit log.
    var acting: Acting {
        let name = staffOption ?? environment["PIZZERIA_STAFF"].flatMap { $0.isEmpty ? nil : $0 }
        return Acting(name: name, source: commandPath.isEmpty ? "pizzeria" : commandPath.joined(separator: " "))
    }

    /// The platform options: `--shops`, `--placement`, `--node` (each else its variable).
    var platform = Platform()
    /// Whether the file is a platform's shop (`--shop`): its writes honour a move's fence.
    var isShop = false

    /// `--shops DIR` (else `$PIZZERIA_SHOPS`), `--placement FILE` (else `$PIZZERIA_PLACEMENT`) and
    /// `--node NAME` (else `$PIZZERIA_NODE`): where a platform's shops are.
    struct Platform: Sendable {
        var shopsOption: String?
        var placementPath: String?
        var node: ShopName?

        init() {}

        init(shops: String?, placement: String?, node: String?, environment: [String: String]) throws {
            func given(_ option: String?, _ variable: String) -> String? {
                if let option, !option.isEmpty { return option }
                return environment[variable].flatMap { $0.isEmpty ? nil : $0 }
            }
            shopsOption = given(shops, "PIZZERIA_SHOPS")
            placementPath = given(placement, "PIZZERIA_PLACEMENT")
            self.node = try given(node, "PIZZERIA_NODE").map { try ShopName.parse($0, field: "node") }
        }

        /// The placement, when one is given (made only with `create`: `shops node add`).
        func placement(
            create: Bool = false, now: @escaping @Sendable () -> Date = { Date() }, acting: Acting = .library
        ) throws -> Placement? {
            try placementPath.map { try Placement(path: $0, create: create, now: now, acting: acting) }
        }

        /// The shops directory: `--shops`, else this node's in the placement.
        func shopsDirectory() throws -> String? {
            if let shopsOption { return shopsOption }
            guard let node, let placement = try placement() else { return nil }
            return try placement.node(node).shopsDirectory
        }
    }

    /// The database of `--shop NAME` — on its node in the placement when one is given (busy while
    /// it moves; not found when `--node` is another), else in the shops directory — else
    /// ``databasePath(option:environment:)``.
    /// - Throws: `UsageError` for `--shop` with `--db`; ``ShopsError/noDirectory`` for `--shop`
    ///   without a directory or a placement; ``ValidationError`` for a name that is not a shop's;
    ///   ``PlacementError``.
    static func databasePath(option: String?, shop: String?, platform: Platform, environment: [String: String])
        throws -> String
    {
        guard let shop else { return databasePath(option: option, environment: environment) }
        if let option, !option.isEmpty {
            throw UsageError(
                message: "give --db PATH or --shop NAME, not both", path: ["pizzeria"], command: CommandTree.root)
        }
        let name = try ShopName.parse(shop, field: "shop")
        if platform.shopsOption == nil, let placement = try platform.placement() {
            return try placement.locate(name, on: platform.node).path
        }
        guard let directory = try platform.shopsDirectory() else { throw ShopsError.noDirectory }
        return Shops.path(of: name, in: directory)
    }

    static func databasePath(option: String?, environment: [String: String]) -> String {
        if let option, !option.isEmpty { return option }
        if let fromEnvironment = environment["PIZZERIA_DB"], !fromEnvironment.isEmpty { return fromEnvironment }
        return "pizzeria.sqlite"
    }

    /// Opens the database for `access`. Any access but `.migrate` requires the file to exist
    /// and never creates it (a missing file is ``MaintenanceError/noDatabase(path:)``, exit 66).
    func open(_ access: Pizzeria.Access) throws -> Pizzeria {
        let clock = try self.clock()
        let pizzeria = try Pizzeria.open(
            path: databasePath, access: access, configuration: try configuration(), now: clock, acting: acting)
        // With require-staff on, a changing command needs a known name whose role covers it.
        if let role = AuditCommands.roles[commandPath.dropFirst().joined(separator: " ")] {
            try pizzeria.staff.authorize(acting.name, for: role)
        }
        return pizzeria
    }

    /// The clock: `$PIZZERIA_NOW` (an ISO-8601 UTC time, for tests and demos that must not depend
    /// on the hour they run at), else the system's.
    func clock() throws -> @Sendable () -> Date {
        guard let text = environment["PIZZERIA_NOW"], !text.isEmpty else { return { Date() } }
        guard let fixed = Timestamp.date(from: text) else {
            throw ValidationError([
                FieldError(
                    field: "PIZZERIA_NOW",
                    message: "must be an ISO-8601 UTC time such as 2026-12-01T10:00:00Z, not '\(text)'")
            ])
        }
        return { fixed }
    }

    /// The connection settings: defaults, changed by `$PIZZERIA_BUSY_TIMEOUT_MS`,
    /// `$PIZZERIA_SYNCHRONOUS` and `$PIZZERIA_CHECKPOINTS`; reads on the writer connection while it
    /// is idle (a command is one short process: one connection, the schema parsed once).
    func configuration() throws -> PizzeriaConfiguration {
        var configuration = try PizzeriaConfiguration(environment: environment)
        configuration.readsOnIdleWriter = true
        configuration.honoursMoveFence = isShop
        return configuration
    }

    // MARK: - Output

    /// Prints `value` as JSON (sorted keys, pretty-printed) on stdout, as `JSONEncoder` would.
    func printJSON<T: Encodable>(_ value: T) throws {
        var writer = JSONTextWriter(pretty: true)
        try writer.encoded(value)
        writer.bytes.append(UInt8(ascii: "\n"))
        writer.bytes.withBytes(console.outBytes)
    }

    /// Prints `value` as one line of compact JSON (newline-delimited JSON, for streams).
    func printJSONLine<T: Encodable>(_ value: T) throws {
        var writer = JSONTextWriter(pretty: false)
        try writer.encoded(value)
        writer.bytes.append(UInt8(ascii: "\n"))
        writer.bytes.withBytes(console.outBytes)
    }

    /// Writes lists as they are read (see ``ListOutput``).
    var list: ListOutput { ListOutput(context: self) }

    /// Prints text for people, or `value` as JSON with `--json`.
    func emit<T: Encodable>(_ value: T, text: () -> String) throws {
        if json { try printJSON(value) } else { console.out(text()) }
    }
}
