import Foundation
import PizzeriaStorage

/// What a staff member may do, when `require-staff` is on: each role includes the ones below it.
public enum StaffRole: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Orders: booking, the counter's changes and lifecycle, customers, navigation.
    case counter
    /// And the menu, hours, capacity, pause and rush.
    case manager
    /// And staff, settings, erasures, repairs.
    case owner

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    public static func < (lhs: StaffRole, rhs: StaffRole) -> Bool { lhs.rank < rhs.rank }
}

/// A member of staff.
///
/// JSON: `{"name", "role", "added_at"}`.
public struct StaffMember: Sendable, Hashable, Encodable, JSONMembers {
    /// The name given with `--by` or `$PIZZERIA_STAFF` (1–64 Unicode scalars).
    public let name: String
    /// What they may do.
    public let role: StaffRole
    /// When they were added.
    public let addedAt: Date

    /// The documented JSON shape, defined once (see ``JSONMembers``).
    public func writeMembers<W: JSONMemberWriter>(to writer: inout W) throws {
        try writer.member("added_at", timestamp: addedAt)
        try writer.member("name", name)
        try writer.member("role", role.rawValue)
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws { try encodeMembers(to: encoder) }
}

/// Why a staff check refused.
public enum StaffError: PizzeriaFailure, Equatable {
    /// `require-staff` is on and nobody said who acts.
    case anonymous
    /// `require-staff` is on and the name is not on the staff list.
    case unknown(String)
    /// The name's role does not allow the change.
    case notAllowed(name: String, role: StaffRole, needs: StaffRole)
    /// No member by that name (`staff remove`).
    case notFound(String)
    /// A member by that name exists already.
    case duplicate(String)
    /// Removing or demoting the last owner while `require-staff` is on would lock everyone out.
    case lastOwner(String)

    /// Refused by the current state, or not found.
    public var category: FailureCategory {
        switch self {
        case .notFound: .notFound
        default: .refused
        }
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .anonymous: "by: require-staff is on: say who acts (--by NAME or $PIZZERIA_STAFF)"
        case .unknown(let name): "by: '\(name)' is not on the staff list (require-staff is on)"
        case .notAllowed(let name, let role, let needs):
            "by: \(name) is \(role.rawValue) staff; this change needs \(needs.rawValue)"
        case .notFound(let name): "no staff member named '\(name)'"
        case .duplicate(let name): "staff: '\(name)' is already on the list"
        case .lastOwner(let name): "staff: \(name) is the last owner while require-staff is on; add another owner first"
        }
    }
}

/// The staff list, and the check `require-staff` makes: accountability, not security — whoever
/// can write the file can do anything (docs/CLI.md says how to keep the file to the service).
public final class StaffService: Sendable {
    let database: Database
    let now: @Sendable () -> Date
    let acting: Acting

    init(database: Database, now: @escaping @Sendable () -> Date, acting: Acting) {
        self.database = database
        self.now = now
        self.acting = acting
    }

    /// Every member, by name.
    public func list() throws -> [StaffMember] {
        try database.read { try StaffStore.all(in: $0) }
    }

    /// Adds a member.
    /// - Throws: ``ValidationError`` for a bad name; ``StaffError/duplicate(_:)``.
    @discardableResult
    public func add(_ name: String, role: StaffRole) throws -> StaffMember {
        let name = name.trimmingWhitespace()
        let problems = TextLimit.problems(name, field: "name", maximum: OrderService.maximumActorLength)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.audited(acting, at: now) { db in
            try Self.authorize(acting.name, for: .owner, in: db)
            guard try StaffStore.member(name, in: db) == nil else { throw StaffError.duplicate(name) }
            try StaffStore.insert(name, role: role, at: now, in: db)
            return StaffMember(
                name: name, role: role, addedAt: Timestamp.date(from: Timestamp.string(from: now)) ?? now)
        }
    }

    /// Removes a member.
    /// - Throws: ``StaffError/notFound(_:)``, ``StaffError/lastOwner(_:)``.
    public func remove(_ name: String) throws {
        try database.audited(acting, at: now()) { db in
            try Self.authorize(acting.name, for: .owner, in: db)
            guard let member = try StaffStore.member(name, in: db) else { throw StaffError.notFound(name) }
            if member.role == .owner, try StaffStore.requiresStaff(in: db), try StaffStore.owners(in: db) <= 1 {
                throw StaffError.lastOwner(name)
            }
            try StaffStore.delete(name, in: db)
        }
    }

    /// Turns `require-staff` on or off. Turning it on needs an owner on the list.
    public func setRequired(_ required: Bool) throws {
        try database.audited(acting, at: now()) { db in
            try Self.authorize(acting.name, for: .owner, in: db)
            if required, try StaffStore.owners(in: db) == 0 {
                throw ValidationError([
                    FieldError(
                        field: "require-staff",
                        message: "needs an owner on the staff list first (`staff add NAME --role owner`)")
                ])
            }
            try StaffStore.setRequired(required, in: db)
        }
    }

    /// Whether changes need a known staff name.
    public func isRequired() throws -> Bool {
        try database.read { try StaffStore.requiresStaff(in: $0) }
    }

    /// Throws unless `name` may make a change needing `role` (always passes while `require-staff` is off).
    public func authorize(_ name: String?, for role: StaffRole) throws {
        try database.read { try Self.authorize(name, for: role, in: $0) }
    }

    static func authorize(_ name: String?, for role: StaffRole, in db: Connection) throws {
        guard try StaffStore.requiresStaff(in: db) else { return }
        guard let name else { throw StaffError.anonymous }
        guard let member = try StaffStore.member(name, in: db) else { throw StaffError.unknown(name) }
        guard member.role >= role else { throw StaffError.notAllowed(name: name, role: member.role, needs: role) }
    }
}
