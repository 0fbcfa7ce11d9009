/// How many pizzas the kitchen makes in each slot of a time range: on a weekday, or on one date.
///
/// A date rule wins over a weekday rule, the narrower range over the wider; a slot no rule covers
/// has `settings.slotCapacity`. Ranges are local wall-clock times of the slot's service day; one
/// whose end is at or before its start runs past midnight (`fri 22:00-01:00` covers Friday night's
/// 00:30 slot). Rules of one kind on one day are nested or apart, never partly overlapping.
///
/// JSON: `{"rule": "fri 18:30-21:00", "weekday": "fri" | null, "date": "2026-12-31" | null,
/// "starts_at": "18:30", "ends_at": "21:00", "capacity": 20}`.
public struct CapacityRule: Sendable, Hashable, Codable {
    /// Which days it applies to.
    public enum Days: Sendable, Hashable {
        /// Every such weekday (service day).
        case weekday(Weekday)
        /// One service day.
        case date(LocalDate)
    }

    /// Its days.
    public let days: Days
    /// Its time range (past midnight when it ends at or before it starts).
    public let range: OpeningInterval
    /// Pizzas per slot: 1–``CapacityRule/maximumCapacity``.
    public let capacity: Int

    /// The largest capacity a slot can have.
    public static let maximumCapacity = 10_000

    /// A rule.
    public init(days: Days, range: OpeningInterval, capacity: Int) {
        self.days = days
        self.range = range
        self.capacity = capacity
    }

    /// How people name it: `fri 18:30-21:00`, `2026-12-31 19:00-23:00` (the database's `rule` column).
    public var label: String {
        switch days {
        case .weekday(let weekday): "\(weekday.short) \(range)"
        case .date(let date): "\(date) \(range)"
        }
    }

    /// Whether it covers a slot starting `wallMinute` minutes after its service day's midnight.
    public func covers(wallMinute: Int) -> Bool { wallMinute >= range.start && wallMinute < range.end }

    /// Whether it applies to `day`.
    public func applies(to day: LocalDate) -> Bool {
        switch days {
        case .weekday(let weekday): day.weekday == weekday
        case .date(let date): day == date
        }
    }

    /// Whether two rules of one kind on one day overlap without one containing the other.
    func overlapsPartially(_ other: CapacityRule) -> Bool {
        guard range.start < other.range.end, other.range.start < range.end else { return false }
        let inside = range.start >= other.range.start && range.end <= other.range.end
        let around = other.range.start >= range.start && other.range.end <= range.end
        return !inside && !around
    }

    private enum CodingKeys: String, CodingKey {
        case rule, weekday, date, startsAt = "starts_at", endsAt = "ends_at", capacity
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .rule)
        switch days {
        case .weekday(let weekday):
            try container.encode(weekday.short, forKey: .weekday)
            try container.encodeNil(forKey: .date)
        case .date(let date):
            try container.encodeNil(forKey: .weekday)
            try container.encode(date, forKey: .date)
        }
        try container.encode(range.opens.description, forKey: .startsAt)
        try container.encode(range.closes.description, forKey: .endsAt)
        try container.encode(capacity, forKey: .capacity)
    }

    /// Reads the JSON shape.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let opens = try container.decode(String.self, forKey: .startsAt),
            closes = try container.decode(String.self, forKey: .endsAt)
        guard let range = HoursSyntax.interval("\(opens)-\(closes)") else {
            throw DecodingError.dataCorruptedError(
                forKey: .startsAt, in: container, debugDescription: "'\(opens)-\(closes)' is not a time range")
        }
        if let date = try container.decodeIfPresent(LocalDate.self, forKey: .date) {
            days = .date(date)
        } else {
            let short = try container.decode(String.self, forKey: .weekday)
            guard let weekday = Weekday.allCases.first(where: { $0.short == short }) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .weekday, in: container, debugDescription: "'\(short)' is not a weekday")
            }
            days = .weekday(weekday)
        }
        self.range = range
        capacity = try container.decode(Int.self, forKey: .capacity)
    }
}

/// The capacity that applies to a slot, and why.
public struct SlotCapacity: Sendable, Hashable {
    /// Pizzas the slot takes in all.
    public let capacity: Int
    /// The rule it came from (`fri 18:30-21:00`), or `nil` for `settings.slotCapacity`.
    public let rule: String?

    /// How many pizzas over ``capacity`` a staff override may book the slot: a quarter of it,
    /// rounded up (8 → 2, 10 → 3, 20 → 5); a station's margin over its own capacity is the same. The
    /// `slot_loads_capacity` and `station_loads_capacity` triggers hold the same rule.
    public var overrideMargin: Int { Self.overrideMargin(of: capacity) }

    /// The override margin of a slot taking `capacity` pizzas.
    public static func overrideMargin(of capacity: Int) -> Int { (capacity + 3) / 4 }
}

/// The rules of one service day, resolved for one slot at a time: the one definition of
/// precedence in Swift (the `slot_loads_effective_capacity` trigger is the same in SQL).
public struct CapacityRules: Sendable, Hashable {
    /// The day's rules (its date's and its weekday's).
    public let rules: [CapacityRule]
    /// The capacity where no rule applies.
    public let defaultCapacity: Int

    /// Each rule's label, made once (a picker asks for thousands of slots).
    private let labels: [String]

    /// Rules over a default.
    public init(_ rules: [CapacityRule], defaultCapacity: Int) {
        self.rules = rules
        self.defaultCapacity = defaultCapacity
        self.labels = rules.map(\.label)
    }

    /// The capacity of the slot starting `wallMinute` after `day`'s midnight: a date rule over a
    /// weekday rule, the narrower range over the wider, else the default.
    public func capacity(on day: LocalDate, wallMinute: Int) -> SlotCapacity {
        ruled(on: day, wallMinute: wallMinute) ?? SlotCapacity(capacity: defaultCapacity, rule: nil)
    }

    /// The capacity the winning rule gives the slot starting `wallMinute` after `day`'s midnight,
    /// or `nil` where no rule applies (a station's own capacity then).
    public func ruled(on day: LocalDate, wallMinute: Int) -> SlotCapacity? {
        var best: (rank: Int, width: Int, index: Int)?
        for (index, rule) in rules.enumerated() where rule.applies(to: day) && rule.covers(wallMinute: wallMinute) {
            let rank: Int = if case .date = rule.days { 0 } else { 1 }
            let width = rule.range.end - rule.range.start
            if best.map({ (rank, width) < ($0.rank, $0.width) }) ?? true { best = (rank, width, index) }
        }
        guard let best else { return nil }
        return SlotCapacity(capacity: rules[best.index].capacity, rule: labels[best.index])
    }

    /// The capacity of `slot`.
    public func capacity(of slot: Slot) -> SlotCapacity { capacity(on: slot.serviceDay, wallMinute: slot.wallMinute) }
}
