import Foundation
import PizzeriaStorage

/// How much the kitchen takes, and when: capacity rules by weekday or date and time range, a
/// pause that stops new bookings, a rush that adds to the lead time. Each change is one
/// transaction; none touches an existing order. Thread-safe; run it from `async` code through ``Pizzeria/read(_:)`` or ``Pizzeria/write(_:)``.
public final class CapacityService: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    /// Who acts through this handle, for the audit log.
    let acting: Acting

    init(database: Database, now: @escaping @Sendable () -> Date, acting: Acting = .library) {
        self.database = database
        self.now = now
        self.acting = acting
    }

    // MARK: - Rules

    /// Every rule: weekday rules first, then date rules.
    public func rules() throws -> [CapacityRule] {
        try database.read { try CapacityStore.all(in: $0) }
    }

    /// Sets the capacity of a time range on some days (one rule per weekday or date; setting the
    /// same days and range again changes its capacity).
    /// - Throws: ``ValidationError`` (capacity out of 1–10000, a range that partly overlaps
    ///   another rule of the same days, too many rules); ``SettingsError/conflictsWithBookings(key:slots:)``
    ///   when the new capacity is below what future slots already hold, naming them. Nothing
    ///   changes when it throws.
    @discardableResult
    public func set(_ days: [CapacityRule.Days], _ range: OpeningInterval, capacity: Int) throws -> [CapacityRule] {
        let rules = try Self.newRules(days, range, capacity: capacity, unit: "pizzas")
        let now = now()
        return try database.audited(acting, at: now) { db in
            try Self.requireRoom(for: rules, besides: try CapacityStore.all(in: db), in: db)
            let before = try CapacityStore.futureCapacities(after: now, in: db)
            for rule in rules { try CapacityStore.upsert(rule, in: db) }
            try Self.refuseOverfilling(since: before, after: now, in: db)
            return rules
        }
    }

    /// Removes the rules of some days (only those with this range, when given); how many went.
    /// - Throws: ``SettingsError/conflictsWithBookings(key:slots:)`` when what applies instead is
    ///   below what future slots hold.
    @discardableResult
    public func clear(_ days: [CapacityRule.Days], range: OpeningInterval? = nil) throws -> Int {
        let now = now()
        return try database.audited(acting, at: now) { db in
            let before = try CapacityStore.futureCapacities(after: now, in: db)
            var removed = 0
            for day in days { removed += try CapacityStore.delete(day, range: range, in: db) }
            try Self.refuseOverfilling(since: before, after: now, in: db)
            return removed
        }
    }

    /// The most rules a file keeps: every booking that opens a slot resolves them.
    public static let maximumRules = 1_000

    /// One rule per day for `range` and `capacity`, or the problems with them, naming each field.
    static func newRules(_ days: [CapacityRule.Days], _ range: OpeningInterval, capacity: Int, unit: String) throws
        -> [CapacityRule]
    {
        var problems: [FieldError] = []
        if !(1...CapacityRule.maximumCapacity).contains(capacity) {
            problems.append(
                FieldError(
                    field: "capacity",
                    message: "must be from 1 to \(CapacityRule.maximumCapacity) \(unit) per slot, not \(capacity)"))
        }
        if days.isEmpty {
            problems.append(FieldError(field: "days", message: "must name at least one weekday or date"))
        }
        if days.count > ScheduleException.maximumDays {
            problems.append(
                FieldError(field: "days", message: "must be at most \(ScheduleException.maximumDays) days at once"))
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        return days.map { CapacityRule(days: $0, range: range, capacity: capacity) }
    }

    /// Refuses `rules` that partly overlap one of `existing` (the same station's) on the same
    /// days, or that would take the file past ``maximumRules`` (the oven's and the stations' together).
    static func requireRoom(for rules: [CapacityRule], besides existing: [CapacityRule], in db: Connection) throws {
        for rule in rules {
            if let clash = existing.first(where: { $0.days == rule.days && $0.overlapsPartially(rule) }) {
                throw ValidationError([
                    FieldError(
                        field: "range",
                        message:
                            "\(rule.label) overlaps \(clash.label) without containing it; rules of one day must be nested or apart"
                    )
                ])
            }
        }
        let all = try CapacityStore.count(in: db) + StationCapacityStore.count(in: db)
        guard all + rules.count <= Self.maximumRules else {
            throw ValidationError([
                FieldError(field: "days", message: "a file keeps at most \(Self.maximumRules) capacity rules")
            ])
        }
    }

    static func refuseOverfilling(since before: [String: Int], after now: Date, in db: Connection) throws {
        let zone = try SettingsStore.current(in: db).timeZone
        let broken = try CapacityStore.overfilled(since: before, after: now, zone: zone, in: db)
        guard broken.isEmpty else { throw SettingsError.conflictsWithBookings(key: .slotCapacity, slots: broken) }
    }

    // MARK: - Pause and rush

    /// Stops new bookings now, until `until` (`nil`: until ``resume()``), telling customers `reason`.
    /// - Throws: ``ValidationError`` for an `until` not in the future or a reason too long or with
    ///   control characters.
    @discardableResult
    public func pause(until: Date? = nil, reason: String? = nil) throws -> Pause {
        let now = now()
        let reason = reason.map { $0.trimmingWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        var problems = Self.untilProblems(until, now: now)
        if let reason { problems += TextLimit.problems(reason, field: "reason", maximum: Pause.maximumReasonLength) }
        guard problems.isEmpty else { throw ValidationError(problems) }
        let pause = Pause(until: until, reason: reason)
        try database.audited(acting, at: now) { db in try CapacityStore.setPause(pause, at: now, in: db) }
        return pause
    }

    /// Takes bookings again (nothing happens when not paused).
    public func resume() throws {
        let now = now()
        try database.audited(acting, at: now) { db in try CapacityStore.setPause(nil, at: now, in: db) }
    }

    /// Adds `minutes` to the lead time until `until` (`nil`: until ``endRush()``).
    /// - Throws: ``ValidationError`` for minutes out of 1–1440 or an `until` not in the future.
    @discardableResult
    public func rush(minutes: Int, until: Date? = nil) throws -> Rush {
        let now = now()
        var problems = Self.untilProblems(until, now: now)
        if !(1...Rush.maximumMinutes).contains(minutes) {
            problems.append(
                FieldError(field: "minutes", message: "must be from 1 to \(Rush.maximumMinutes), not \(minutes)"))
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        let rush = Rush(minutes: minutes, until: until)
        try database.audited(acting, at: now) { db in try CapacityStore.setRush(rush, at: now, in: db) }
        return rush
    }

    /// Ends the rush.
    public func endRush() throws {
        let now = now()
        try database.audited(acting, at: now) { db in try CapacityStore.setRush(nil, at: now, in: db) }
    }

    static func untilProblems(_ until: Date?, now: Date) -> [FieldError] {
        guard let until, until <= now else { return [] }
        return [
            FieldError(
                field: "until",
                message:
                    "must be in the future (it is \(Timestamp.string(from: until)), now is \(Timestamp.string(from: now)))"
            )
        ]
    }
}
