import Foundation
import PizzeriaServices

/// `pizzeria audit` and `pizzeria staff …`: who changed what, and who may.
enum AuditCommands {
    static let since = Option(
        "since", "time", help: "From this time on (YYYY-MM-DD, today, or a time as for --pickup).")
    static let object = Option(
        "object", "object",
        help:
            "One object: pizza:NAME, user:HANDLE, order:ID, hours, capacity, settings, staff:NAME (pizza:, user:… alone: all of them)."
    )
    static let byFilter = Option("by", "name", help: "Only changes by this name.")
    static let limit = Option(
        "limit", "n", help: "At most this many entries (default 1000, at most 100000).", .integer(in: 1...100_000))

    /// The trail in every list format; times for people in the pizzeria's zone.
    static func shape(_ zone: TimeZone) -> ListOutput.Shape<AuditEntry> {
        ListOutput.Shape<AuditEntry>(
            table: Table("WHEN", "BY", "OBJECT", "ACTION", "CHANGE", "SOURCE"),
            cells: { [$0.at.local(zone), $0.actor ?? "-", $0.object, $0.action, change($0), $0.source] },
            empty: "Nothing in the audit trail yet.\n",
            csv: CSVColumns([
                .member("at"), .member("actor"), .member("source"), .member("object"), .member("action"),
                .member("old"), .member("new"),
            ]))
    }

    /// `price_cents 600 → 650` for the fields that differ, or the new fields.
    static func change(_ entry: AuditEntry) -> String {
        func fields(_ text: String?) -> [String: String] {
            guard let text, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            else { return [:] }
            return object.mapValues { $0 is NSNull ? "null" : "\($0)" }
        }
        let old = fields(entry.old), new = fields(entry.new)
        if entry.old == nil && entry.new == nil { return "(values erased)" }
        if old.isEmpty { return new.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }
        if new.isEmpty { return old.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }
        return Set(old.keys).union(new.keys).sorted().compactMap { key in
            old[key] == new[key] ? nil : "\(key) \(old[key] ?? "-") → \(new[key] ?? "-")"
        }.joined(separator: ", ")
    }

    static let audit = Command(
        name: "audit",
        abstract:
            "The audit trail: every change to the menu, users, settings, hours, capacity and staff, and the orders' histories.",
        discussion: """
            Each entry says when, who (--by or $PIZZERIA_STAFF of the change; '-' for a change typed into \
            sqlite3), the object, the action, the fields before and after, and the command or API that made \
            it. The log is append-only; an erased customer's entries keep that they happened, not their values.
            """,
        options: [since, object, byFilter, limit] + ListOptions.all,
        examples: [
            "pizzeria audit --object pizza:Margherita", "pizzeria audit --since today --by giulia",
            "pizzeria audit --object hours --csv",
        ],
        run: { invocation in
            let context = invocation.context
            let pizzeria = try context.open(.requireCurrent)
            let from = try invocation[since].map { text -> Date in
                if let day = try? DateText.date(text, field: "since", pizzeria) {
                    return try pizzeria.schedule.startOfDay(day)
                }
                guard let time = try CapacityCommands.time(text, pizzeria, field: "since") else {
                    throw invocation.usage("--since needs a value")
                }
                return time
            }
            let entries = try pizzeria.audit.entries(
                since: from, object: try invocation[object].map { try resolve($0, pizzeria) },
                actor: try invocation[byFilter], limit: try invocation[limit] ?? 1_000)
            try context.list.write(invocation, shape(try pizzeria.settings.current().timeZone)) { each in
                try entries.forEach(each)
            }
            return .ok
        })

    /// `pizza:Margherita` → `pizza:ID`, `user:anna` → `user:ID`, `order:1a2b` → `order:ID`; others as typed.
    static func resolve(_ text: String, _ pizzeria: Pizzeria) throws -> String {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else { return text }
        switch parts[0] {
        case "pizza": return "pizza:" + (try pizzeria.lookup.pizza(parts[1]).id.description)
        case "user": return "user:" + (try pizzeria.lookup.user(parts[1]).id.description)
        case "order": return "order:" + (try pizzeria.lookup.order(parts[1]).id.description)
        default: return text
        }
    }

    // MARK: - staff

    static let name = Argument("name", help: "The staff member's name, as given with --by or $PIZZERIA_STAFF.")
    static let role = Option(
        "role", "role", help: "owner, manager or counter (default counter).",
        completion: .choices(StaffRole.allCases.map(\.rawValue)))

    static let staffShape = ListOutput.Shape<StaffMember>(
        table: Table("NAME", "ROLE", "ADDED"),
        cells: { [$0.name, $0.role.rawValue, Timestamp.string(from: $0.addedAt)] },
        empty: "No staff yet.\n", csv: CSVColumns([.member("name"), .member("role", plain: true), .member("added_at")]))

    static let staff = Command(
        name: "staff",
        abstract: "Who may act, and their roles (enforced when require-staff is on).",
        discussion: """
            Roles: counter (orders, customers, navigation), manager (+ the menu, hours, capacity, pause, rush), \
            owner (+ staff, settings, erasure, repairs). With `config set require-staff on`, a change without a \
            known --by or $PIZZERIA_STAFF is refused (exit 1), and so is one the name's role does not cover. This \
            is accountability, not security: whoever can write the database file can do anything (docs/CLI.md).
            """,
        subcommands: [staffAdd, staffList, staffRemove])

    static let staffAdd = Command(
        name: "add", abstract: "Add a staff member.", arguments: [name], options: [role, OrderCommands.by],
        examples: ["pizzeria staff add giulia --role owner"],
        run: { invocation in
            let context = invocation.context
            let text = try invocation[role] ?? "counter"
            guard let role = StaffRole(rawValue: text) else {
                throw ValidationError([
                    FieldError(field: "role", message: "must be owner, manager or counter, not '\(text)'")
                ])
            }
            let member = try context.open(.requireCurrent).staff.add(try invocation[name], role: role)
            try context.emit(member) { "Added \(member.name) (\(member.role.rawValue)).\n" }
            return .ok
        })

    static let staffList = Command(
        name: "list", abstract: "List the staff.", options: ListOptions.all,
        run: { invocation in
            let context = invocation.context
            let members = try context.open(.requireCurrent).staff.list()
            try context.list.write(invocation, staffShape) { each in try members.forEach(each) }
            return .ok
        })

    static let staffRemove = Command(
        name: "remove", abstract: "Remove a staff member.", arguments: [name], options: [OrderCommands.by],
        run: { invocation in
            let context = invocation.context
            let member = try invocation[name]
            try context.open(.requireCurrent).staff.remove(member)
            struct Removed: Encodable { let removed: String }
            try context.emit(Removed(removed: member)) { "Removed \(member).\n" }
            return .ok
        })

    /// The role each changing command needs when require-staff is on (by command path).
    static let roles: [String: StaffRole] = [
        "pizza add": .manager, "pizza edit": .manager, "pizza archive": .manager, "pizza restore": .manager,
        "category add": .manager, "category edit": .manager, "category remove": .manager,
        "station add": .manager, "station edit": .manager, "station remove": .manager,
        "pizza variant add": .manager, "pizza variant edit": .manager, "pizza variant remove": .manager,
        "pizza allergens": .manager, "pizza attach": .manager, "pizza detach": .manager,
        "modifier group add": .manager, "modifier group edit": .manager, "modifier add": .manager,
        "modifier edit": .manager, "pizza sold-out": .counter, "pizza available": .counter,
        "modifier sold-out": .counter, "modifier available": .counter, "menu import": .manager,
        "user add": .counter, "user edit": .counter, "user erase": .owner,
        "config set": .owner, "hours set": .manager, "hours close": .manager, "hours special": .manager,
        "hours clear": .manager,
        "capacity set": .manager, "capacity clear": .manager, "pause": .manager, "resume": .manager, "busy": .manager,
        "order place": .counter, "order move": .counter, "order edit": .counter, "order add": .counter,
        "order advance": .counter,
        "order cancel": .counter,
        "order no-show": .counter, "order undo": .counter, "order collect": .counter, "order bump": .counter,
        "nav push": .counter, "nav pop": .counter, "nav root": .counter, "nav random": .counter, "nav open": .counter,
        "nav import": .counter,
        "sheet open": .counter, "sheet set": .counter, "sheet save": .manager, "sheet dismiss": .counter,
        "demo": .owner,
        // Notifiers message customers: setting one running, moving its cursor or removing it is a manager's.
        "notify run": .manager, "notify reset": .manager, "notify remove": .manager,
        // Money: taking it is the counter's; giving it back is a manager's; the VAT a manager's.
        "order pay": .counter, "order refund": .manager, "order discount": .manager, "order comp": .manager,
        "order delay": .counter, "category vat": .manager,
    ]
}
