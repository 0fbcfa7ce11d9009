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

    /// The planned slots of service day `day`, in time order; `schedule` makes the schedule
    /// that lays out a day not planned yet.
    func plan(of day: LocalDate, _ schedule: () -> Schedule) throws -> [PlannedSlot] {
        let offset = Int(day.daysSinceEpoch - exceptionsFrom.daysSinceEpoch)
        let keeps = offset >= 0 && offset < Self.maximumPlannedDays
        if keeps, let kept = plans[offset] { return kept }
        let planned = try schedule().slots(of: day).map {
            PlannedSlot(slot: $0, seconds: Int64($0.start.timeIntervalSince1970), ruled: rules.capacity(of: $0))
        }
        // Two threads may plan the same day at once: both plans are equal, the first one kept wins.
        return keeps ? plans.keep(planned, at: offset) : planned
    }

    init(
        generation: Int64, settings: Settings, rules: CapacityRules, largest: SlotCapacity,
        exceptions: [LocalDate: [ScheduleException]], exceptionsFrom: LocalDate
    ) {
        (self.generation, self.held, self.rules, self.largest) = (generation, HeldSettings(settings), rules, largest)
        (self.exceptions, self.exceptionsFrom) = (exceptions, exceptionsFrom)
        coversFrom = Self.firstInstant(of: exceptionsFrom.adding(days: 2), clock: settings.clock)
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
/// Each entry is an atomic word: zero, or a retained ``Box`` published with release ordering and
/// read with acquire ordering, so a reader that sees the box sees the plan inside it. A box is
/// never replaced or freed before the table is (``keep(_:at:)`` keeps the first one stored).
final class PlanTable: @unchecked Sendable {
    /// One day's plan behind a reference, so that an atomic word can name it.
    private final class Box {
        let plan: [PickerConfiguration.PlannedSlot]
        init(_ plan: [PickerConfiguration.PlannedSlot]) { self.plan = plan }
    }

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
            if let box = Self.box(entries[index].load(ordering: .acquiring)) { Unmanaged.passUnretained(box).release() }
        }
        entries.deinitialize(count: days)
        entries.deallocate()
    }

    /// The box an entry's word names, if any (not retained: the table holds it).
    private static func box(_ word: UInt) -> Box? {
        guard let pointer = UnsafeRawPointer(bitPattern: word) else { return nil }
        return Unmanaged<Box>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The plan kept at `index`, if one was; `nil` also for an index outside the table.
    subscript(index: Int) -> [PickerConfiguration.PlannedSlot]? {
        guard index >= 0, index < days else { return nil }
        return Self.box(entries[index].load(ordering: .acquiring))?.plan
    }

    /// Keeps `plan` at `index` unless a plan is kept there already; returns the one kept (an
    /// index outside the table keeps nothing and returns `plan`).
    func keep(_ plan: [PickerConfiguration.PlannedSlot], at index: Int) -> [PickerConfiguration.PlannedSlot] {
        guard index >= 0, index < days else { return plan }
        let box = Unmanaged.passRetained(Box(plan))
        let word = UInt(bitPattern: box.toOpaque())
        let (stored, current) = entries[index].compareExchange(
            expected: 0, desired: word, successOrdering: .releasing, failureOrdering: .acquiring)
        if stored { return plan }
        box.release()
        return Self.box(current)?.plan ?? plan
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
