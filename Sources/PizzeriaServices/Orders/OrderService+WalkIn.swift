import Foundation
import PizzeriaStorage

// A walk-in: booked at the counter for someone without an account, who is not made to invent one.
extension OrderService {
    /// Someone booked at the counter without an account: their name and, if they give one, phone.
    public struct WalkIn: Sendable, Hashable {
        /// Their name (1 to 80 characters), for the board and the call at the counter.
        public var name: String
        /// Their phone (international, or national with the shop's phone region), if given.
        public var phone: String?

        /// A walk-in.
        public init(name: String, phone: String? = nil) { (self.name, self.phone) = (name, phone) }
    }

    /// Books `items` at `pickup` for a walk-in, in one transaction: a guest customer
    /// (`walkin-…`, with their name and phone) is made and the order placed for them, or neither.
    /// With `idempotencyKey`, a retry returns the first order (and makes no second guest).
    /// - Throws: what ``place(_:by:override:)`` throws; ``ValidationError`` for the name or phone.
    @discardableResult
    public func place(
        walkIn: WalkIn, items: [OrderRequest.Item], pickup: Date, idempotencyKey: String? = nil,
        by actor: String? = nil, override: StaffOverride? = nil
    ) throws -> (order: Order, created: Bool) {
        let name = UserRules.normalizeDisplayName(walkIn.name)
        var problems = name == nil ? [FieldError(field: "walk-in", message: "must name the customer")] : []
        problems += UserRules.displayNameProblems(name).map { FieldError(field: "walk-in", message: $0.message) }
        let probe = OrderRequest(
            user: User.ID(uuid: UUID()), items: items, pickup: pickup, idempotencyKey: idempotencyKey)
        problems += probe.problems() + Self.actorProblems(actor, override: override)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.audited(Acting(name: actor, source: "walk-in"), at: now) { db in
            if let key = idempotencyKey, let existing = try OrderStore.header(key: key, in: db) {
                return (try OrderAssembler(now: now, in: db).order(existing), false)
            }
            var phone: String?
            if let raw = walkIn.phone?.trimmingWhitespace(), !raw.isEmpty {
                let national = !raw.hasPrefix("+") && !raw.hasPrefix("00")
                let region = national ? try ShopStore.phoneRegion(in: db) : nil
                guard let number = UserRules.normalizePhone(raw, region: region) else {
                    throw ValidationError([
                        FieldError(
                            field: "phone",
                            message: "must be a phone number: + and 8 to 15 digits, or national with the shop's region")
                    ])
                }
                phone = number
            }
            // A guest's handle: `walkin-` and eight hex digits, tried again on the rare clash.
            var handle = ""
            repeat {
                handle = "walkin-" + String(UUID().uuidString.lowercased().prefix(8))
            } while try UserStore.user(handle: handle, in: db) != nil
            let guest = try UserStore.insert(
                id: .random(), handle: handle, displayName: name, phone: phone, at: now, in: db)
            let request = OrderRequest(user: guest.id, items: items, pickup: pickup, idempotencyKey: idempotencyKey)
            return try Self.place(request, actor: actor, override: override, now: now, in: db)
        }
    }
}
