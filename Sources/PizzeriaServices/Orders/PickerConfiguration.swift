import Foundation
import PizzeriaStorage
import Synchronization

/// What the pickup-time picker reads besides the bookings — the settings row with the week, the
/// capacity rules, the date exceptions ahead — as of one configuration generation (migration 11).
///
/// The picker asks for the generation in its read transaction and reuses the configuration kept
/// for it: one row read instead of six tables. A change by anyone (another process, `sqlite3`)
/// moves the generation in the change's transaction, so a reader whose snapshot includes the
/// change sees a new generation and reads the configuration again, in that same snapshot.
final class PickerConfiguration: Sendable {
    /// The generation it was read at.
    let generation: Int64
    /// The settings row and the week (pause and rush as stored: the picker applies them at its now).
    let held: HeldSettings
    /// ``held``'s settings.
    var settings: Settings { held.settings }
    /// Every capacity rule over the default capacity (a rule applies to its weekday or date only).
    let rules: CapacityRules
    /// The most pizzas one slot can take.
    let largest: SlotCapacity
    /// Exceptions by service day, from `exceptionsFrom` on.
    let exceptions: [LocalDate: [ScheduleException]]
    /// The first service day `exceptions` covers; earlier days are read from the file.
    let exceptionsFrom: LocalDate
    /// The first instant a walk can start from with this configuration: a walk starts the day
    /// before its instant's date (its night) and the schedule reads a day before that, so the
    /// instant's local date must be at least two days after ``exceptionsFrom``. Worked out once,
    /// so that a call compares two instants instead of finding its instant's date in the zone.
    let coversFrom: Date

    /// Whether a walk from `instant` finds every exception it may ask about in ``exceptions``.
    func covers(_ instant: Date) -> Bool { instant >= coversFrom }

    /// The first instant whose local date (by `clock`) is `day` or later. Local dates only move
    /// forward with time, and a day begins within 15 hours of its midnight in UTC, so a binary
    /// search over the seconds between finds it — also where the zone skips its midnight.
    static func firstInstant(of day: LocalDate, clock: ZonedClock) -> Date {
        let midnight = day.daysSinceEpoch * 86_400
        var (before, from) = (midnight - 15 * 3_600, midnight + 15 * 3_600)
        while from - before > 1 {
            let middle = before + (from - before) / 2
            let onDay = clock.date(of: Date(timeIntervalSince1970: Double(middle))) >= day
            if onDay { from = middle } else { before = middle }
        }
        return Date(timeIntervalSince1970: Double(from))
    }
    /// Each service day's slots with their start in seconds and their capacity where no order
    /// has taken them yet: what a walk compares, computed once per day for this generation and
    /// kept by the day's distance from ``exceptionsFrom`` (an index, not a hash), read without a
    /// lock (see ``PlanTable``).
    private let plans = PlanTable(days: PickerConfiguration.maximumPlannedDays)

    /// Thrown by a walk over a kept configuration whose one statement sees another generation:
    /// the configuration changed since it was kept, so the picker reads it again in a transaction.
    struct Stale: Error {}

    /// A slot as the walk reads it.
    struct PlannedSlot: Sendable {
        let slot: Slot
        let seconds: Int64
        /// Its capacity from the rules (or the default), for a slot no order has taken yet.
        let ruled: SlotCapacity
    }

    /// The most service days planned per generation (from ``exceptionsFrom``): more than a
    /// booking horizon's worth.
    static let maximumPlannedDays = 800

    /// Calls `body` with the planned slots of service day `day`, in time order, planning the
    /// day (with the schedule over this configuration, reading through `db` what it must) when
    /// no walk has yet. The slots are borrowed from the plan table (no copy, no reference
    /// counted): valid inside `body`, which the walk of every checkout runs.
    func withPlan<T>(of day: LocalDate, in db: Connection, _ body: (UnsafeBufferPointer<PlannedSlot>) throws -> T)
        throws -> T
    {
        let offset = Int(day.daysSinceEpoch - exceptionsFrom.daysSinceEpoch)
        if let kept = plans[offset] { return try body(kept) }
        let planned = try schedule(in: db).slots(of: day).map {
            PlannedSlot(slot: $0, seconds: Int64($0.start.timeIntervalSince1970), ruled: rules.capacity(of: $0))
        }
        // Two threads may plan the same day at once: both plans are equal, the first one kept wins.
        if let kept = plans.keep(planned, at: offset) { return try body(kept) }
        return try planned.withUnsafeBufferPointer(body)
    }

    /// The local date of `instant` in the configuration's zone.
    func date(of instant: Date) -> LocalDate { clock.date(of: instant) }

    /// The clock of the settings' zone, made once.
    private let clock: ZonedClock

    init(
        generation: Int64, settings: Settings, rules: CapacityRules, largest: SlotCapacity,
        exceptions: [LocalDate: [ScheduleException]], exceptionsFrom: LocalDate
    ) {
        (self.generation, self.held, self.rules, self.largest) = (generation, HeldSettings(settings), rules, largest)
        (self.exceptions, self.exceptionsFrom) = (exceptions, exceptionsFrom)
        clock = settings.clock
        coversFrom = Self.firstInstant(of: exceptionsFrom.adding(days: 2), clock: clock)
    }

    /// Reads it at `generation`, with the exceptions from `from` on.
    static func read(generation: Int64, settings: Settings, exceptionsFrom from: LocalDate, in db: Connection) throws
        -> PickerConfiguration
    {
        let rules = try CapacityStore.all(in: db)
        let top = rules.max { $0.capacity < $1.capacity }
        let largest =
            top.map { $0.capacity > settings.slotCapacity ? SlotCapacity(capacity: $0.capacity, rule: $0.label) : nil }
            ?? nil
        var exceptions: [LocalDate: [ScheduleException]] = [:]
        for exception in try ScheduleStore.exceptions(from: from, db: db) {
            exceptions[exception.date, default: []].append(exception)
        }
        return PickerConfiguration(
            generation: generation, settings: settings,
            rules: CapacityRules(rules, defaultCapacity: settings.slotCapacity),
            largest: largest ?? SlotCapacity(capacity: settings.slotCapacity, rule: nil), exceptions: exceptions,
            exceptionsFrom: from)
    }

    /// The schedule over this configuration: exceptions from memory, days before
    /// ``exceptionsFrom`` from the file.
    func schedule(in db: Connection) -> Schedule {
        Schedule(
            week: settings.week, slotMinutes: settings.slotMinutes, zone: settings.timeZone, exceptions: exceptions,
            from: exceptionsFrom
        ) { range in try ScheduleStore.exceptions(in: range, db: db) }
    }
}

/// A fixed number of plans, each written at most once and read by any thread without a lock: a
/// picker call looks up a day or two, and a lock per lookup cost more than the rest of the lookup.
///
/// Each entry is an atomic word: zero, or the address of a plan's slots in memory of their own,
/// published with release ordering and read with acquire ordering, so a reader that sees the
/// address sees the slots. A plan is never replaced or freed before the table is
/// (``keep(_:at:)`` keeps the first one stored), so a reader borrows it without counting a
/// reference: nothing is retained or released per lookup.
final class PlanTable: @unchecked Sendable {
    /// One kept plan: its slots, allocated and initialised when kept, freed with the table.
    private typealias Kept = UnsafeMutableBufferPointer<PickerConfiguration.PlannedSlot>

    private let entries: UnsafeMutablePointer<Atomic<UInt>>
    /// How many entries the table has (indexes `0..<days`).
    let days: Int

    init(days: Int) {
        self.days = days
        entries = .allocate(capacity: days)
        for index in 0..<days { (entries + index).initialize(to: Atomic(0)) }
    }

    deinit {
        for index in 0..<days {
            if let kept = Self.kept(entries[index].load(ordering: .acquiring)) { Self.free(kept) }
        }
        entries.deinitialize(count: days)
        entries.deallocate()
    }

    /// The plan an entry's word names, if any.
    private static func kept(_ word: UInt) -> UnsafeMutablePointer<Kept>? { UnsafeMutablePointer(bitPattern: word) }

    /// Frees a kept plan: its slots, then the pointer to them.
    private static func free(_ kept: UnsafeMutablePointer<Kept>) {
        kept.pointee.deinitialize()
        kept.pointee.deallocate()
        kept.deinitialize(count: 1)
        kept.deallocate()
    }

    /// The plan kept at `index`, if one was; `nil` also for an index outside the table. Valid as
    /// long as the table is.
    subscript(index: Int) -> UnsafeBufferPointer<PickerConfiguration.PlannedSlot>? {
        guard index >= 0, index < days, let kept = Self.kept(entries[index].load(ordering: .acquiring)) else {
            return nil
        }
        return UnsafeBufferPointer(kept.pointee)
    }

    /// Keeps a copy of `plan` at `index` unless a plan is kept there already; returns the one
    /// kept (valid as long as the table is), or `nil` for an index outside the table, which keeps
    /// nothing.
    func keep(_ plan: [PickerConfiguration.PlannedSlot], at index: Int) -> UnsafeBufferPointer<
        PickerConfiguration.PlannedSlot
    >? {
        guard index >= 0, index < days else { return nil }
        let slots = Kept.allocate(capacity: plan.count)
        _ = slots.initialize(from: plan)
        let kept = UnsafeMutablePointer<Kept>.allocate(capacity: 1)
        kept.initialize(to: slots)
        let (stored, current) = entries[index].compareExchange(
            expected: 0, desired: UInt(bitPattern: kept), successOrdering: .releasing, failureOrdering: .acquiring)
        if stored { return UnsafeBufferPointer(slots) }
        Self.free(kept)
        return Self.kept(current).map { UnsafeBufferPointer($0.pointee) }
    }
}

/// Settings behind a reference, shared by the picker's configuration and every finder made
/// from it.
final class HeldSettings: Sendable {
    let settings: Settings
    init(_ settings: Settings) { self.settings = settings }
}

/// The configuration kept between picker calls, for one database; safe to share between threads.
final class PickerConfigurationCache: Sendable {
    private let kept = Mutex<PickerConfiguration?>(nil)
    /// How many times the configuration was read from the file (for tests and diagnostics).
    let reads = Atomic<Int>(0)

    /// The configuration kept from an earlier call, if it covers a walk from `instant`: what the
    /// picker walks without a transaction of its own, checking the generation in the walk's one
    /// statement (``PickerConfiguration/Stale`` when it moved).
    func kept(from instant: Date) -> PickerConfiguration? {
        guard let kept = kept.withLock({ $0 }), kept.covers(instant) else { return nil }
        return kept
    }

    /// The configuration at the generation `db`'s transaction sees, kept or read again, with the
    /// exceptions of every service day a walk from `instant` may ask about.
    func configuration(from instant: Date, in db: Connection) throws -> PickerConfiguration {
        let generation = try OrderStore.configGeneration(in: db)
        // The walk starts the day before the instant's date (its night); the schedule reads a day
        // before that.
        func firstDay(_ settings: Settings) -> LocalDate { settings.clock.date(of: instant).adding(days: -2) }
        if let kept = kept.withLock({ $0 }), kept.generation == generation, kept.covers(instant) {
            return kept
        }
        reads.add(1, ordering: .relaxed)
        let settings = try SettingsStore.current(in: db)
        let fresh = try PickerConfiguration.read(
            generation: generation, settings: settings, exceptionsFrom: firstDay(settings), in: db)
        kept.withLock { current in
            // Keep the newest: another thread may have read a later generation meanwhile.
            if current.map({ $0.generation <= generation }) ?? true { current = fresh }
        }
        return fresh
    }
}
