import Foundation
import PizzeriaStorage

/// Reading and changing the pizzeria's settings, each change validated — against its rule, and
/// against the orders already booked: a change that would leave a future booking off the slot
/// grid, outside the opening hours or over capacity is refused.
public final class SettingsService: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    /// Who acts through this handle, for the audit log.
    let acting: Acting

    init(database: Database, now: @escaping @Sendable () -> Date, acting: Acting = .library) {
        self.database = database
        self.now = now
        self.acting = acting
    }

    /// The current settings (a pause or rush that has ended by now is left out).
    public func current() throws -> Settings {
        let now = now()
        return try database.read { try SettingsStore.current(in: $0).current(at: now) }
    }

    /// Changes one setting.
    /// - Parameter keepOrders: apply a change of the hours, the slot length or the time zone even
    ///   when it leaves future booked orders outside the hours; they stay booked.
    /// - Throws: ``SettingsError/invalidValue(key:value:)`` when the value breaks its rule;
    ///   ``SettingsError/conflictsWithBookings(key:slots:)`` naming the future slots a lower
    ///   capacity would overfill; ``ScheduleError/wouldOrphan(_:)`` naming the booked orders the
    ///   change would leave outside the hours. Nothing changes when it throws.
    @discardableResult
    public func update(_ change: SettingsChange, keepOrders: Bool = false) throws -> Settings {
        guard change.isValid else { throw SettingsError.invalidValue(key: change.key, value: change.valueText) }
        let now = now()
        return try database.audited(acting, at: now) { db in
            let settings = try SettingsStore.current(in: db).applying(change)
            let capacities = try CapacityStore.futureCapacities(after: now, in: db)
            if case .openingHours = change {
                try ScheduleStore.replace(Set(Weekday.allCases), with: settings.week, in: db)
            }
            switch change {
            case .slotMinutes, .openingHours, .timeZone:
                // Every future booking re-homed under the new schedule: refused when one would leave
                // the hours, change service day or overfill its slot (unless kept).
                let schedule = ScheduleStore.schedule(settings, in: db)
                try Rehoming.apply(
                    under: schedule, capacitiesBefore: capacities, now: now, keepOrders: keepOrders, in: db)
                if case .timeZone = change { try OrderStore.relocalize(under: schedule, before: now, in: db) }
            case .slotCapacity, .bookingHorizonDays, .leadMinutes:
                // Capacity is checked below, on what the database made of it; the others govern new bookings only.
                break
            }
            try SettingsStore.write(settings, at: now, in: db)
            if change.key == .slotCapacity {
                let broken = try CapacityStore.overfilled(
                    since: capacities, after: now, zone: settings.timeZone, in: db)
                guard broken.isEmpty else { throw SettingsError.conflictsWithBookings(key: change.key, slots: broken) }
            }
            return settings
        }
    }

    /// Changes one setting from text as people type it (see ``SettingsChange/parse(_:_:)``).
    @discardableResult
    public func update(_ key: SettingKey, parsing text: String, keepOrders: Bool = false) throws -> Settings {
        try update(try SettingsChange.parse(key, text), keepOrders: keepOrders)
    }
}

/// Why a settings change was refused.
public enum SettingsError: PizzeriaFailure, Equatable {
    /// The value breaks the setting's rule (``SettingKey/rule``).
    case invalidValue(key: SettingKey, value: String)
    /// Orders already booked for these future slots would no longer fit.
    case conflictsWithBookings(key: SettingKey, slots: [String])

    /// Invalid input, or refused by the current state.
    public var category: FailureCategory {
        switch self {
        case .invalidValue: .invalidInput
        case .conflictsWithBookings: .refused
        }
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .invalidValue(let key, let value):
            return "\(key): must be \(key.rule), not '\(value)'"
        case .conflictsWithBookings(let key, let slots):
            let shown =
                slots.prefix(5).joined(separator: ", ") + (slots.count > 5 ? ", and \(slots.count - 5) more" : "")
            return
                "\(key): the new value does not fit \(slots.count) future slot\(slots.count == 1 ? "" : "s") already booked: \(shown)"
        }
    }
}
