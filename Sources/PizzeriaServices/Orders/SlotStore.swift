import Foundation
import PizzeriaStorage

/// The SQL of slot loads: what a slot holds and what it may hold.
extension OrderStore {
    /// A slot's booked pizzas and capacity, kept by the schema's triggers (`slot_loads`).
    static let slotLoadSQL = """
        SELECT s.booked, s.capacity, r.rule AS capacity_rule
        FROM slot_loads s LEFT JOIN capacity_rules r ON r.id = s.capacity_rule_id WHERE s.pickup_at = ?
        """

    /// A booked slot's pizzas and the capacity that applies.
    struct SlotLoad {
        let booked: Int
        let capacity: SlotCapacity

        /// From a row with `booked`, `capacity` and `capacity_rule` (every query of `slot_loads`).
        init(_ row: Row) throws {
            booked = try row.int("booked")
            capacity = SlotCapacity(capacity: try row.int("capacity"), rule: try row.optionalString("capacity_rule"))
        }
    }

    /// The orders whose pizzas count against their slot's capacity: all but cancelled ones (a
    /// constant SQL condition on `orders o`).
    static let holdsCapacity = " o.status <> 'cancelled'"

    /// The pizzas booked in the slot and its capacity; `nil` for a slot no order has taken yet.
    static func slotLoad(pickupAt: String, in db: Connection) throws -> SlotLoad? {
        try db.fetchOne(slotLoadSQL, [pickupAt], SlotLoad.init)
    }

    /// A service day's booked slots in start order (seconds since 1970), from `slot_loads` by its
    /// service-day index; SQLite turns the stored text into seconds.
    static func loads(of day: LocalDate, in db: Connection) throws -> [(start: Int64, load: SlotLoad)] {
        var loads: [(start: Int64, load: SlotLoad)] = []
        try db.forEach(
            """
            SELECT CAST(strftime('%s', s.pickup_at) AS INTEGER) AS start, s.booked, s.capacity, r.rule AS capacity_rule
            FROM slot_loads s LEFT JOIN capacity_rules r ON r.id = s.capacity_rule_id
            WHERE s.service_day = ? ORDER BY s.pickup_at
            """, [day.description]
        ) { row in
            loads.append((try row.int64("start"), try OrderStore.SlotLoad(row)))
        }
        return loads
    }

    // MARK: - Staff over capacity

    /// The pizzas over capacity the slot's live overrides granted: those whose order is still in
    /// the slot and not cancelled (what the `slot_loads_capacity` trigger adds, up to the margin).
    static func overrideAllowance(pickupAt: String, in db: Connection) throws -> Int {
        try db.fetchOne("SELECT pizzas FROM slot_override_allowance WHERE pickup_at = ?", [pickupAt]) {
            try $0.int("pizzas")
        } ?? 0
    }

    /// The pieces over `station`'s capacity in the slot its live overrides granted (what the
    /// `station_loads_capacity` trigger adds, up to the margin).
    static func overrideAllowance(pickupAt: String, station: Station.ID, in db: Connection) throws -> Int {
        try db.fetchOne(
            "SELECT pieces FROM station_override_allowance WHERE station_id = ? AND pickup_at = ?",
            [station, pickupAt]
        ) { try $0.int("pieces") } ?? 0
    }

    /// Records that staff let `order` into the slot `pizzas` over its capacity — the slot's
    /// (`station` nil) or a station's — why, who and when.
    static func recordOverride(
        order: Order.ID, pickupAt: String, pizzas: Int, station: Station.ID? = nil, reason: String, actor: String,
        at: Date, in db: Connection
    ) throws {
        try db.run(
            """
            INSERT INTO capacity_overrides (order_id, pickup_at, pizzas, station_id, reason, actor, at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [order, pickupAt, pizzas, station, reason, actor, Timestamp.string(from: at)])
    }

    // MARK: - The picker's forward walk

    /// The configuration's generation (migration 11): moves with every change to the settings,
    /// the week, the exceptions or the capacity rules.
    static func configGeneration(in db: Connection) throws -> Int64 {
        try db.fetchOne(generationKey, [], GenerationDecoder.self) ?? -1
    }

    private static let generationKey = StatementKey("SELECT generation FROM config_generation WHERE id = 1")

    /// The generation's column, resolved once per prepared statement.
    struct GenerationDecoder: RowDecoder {
        let generation: Column
        init(columns: ColumnResolver) throws { generation = try columns("generation") }
        func decode(_ row: Row) throws -> Int64 { try row.int64(generation) }
    }

    /// Calls `body` with every booked slot from `start` on, in start order: a stream the picker
    /// steps as its walk passes the slots, one range of the primary key, however many days.
    /// Every row also carries the configuration's generation, and the first row comes even when
    /// no slot is booked (its slot columns `NULL`): one statement reads both in one snapshot, so
    /// a walk over a kept configuration needs no transaction of its own. The stored text
    /// becomes seconds here, at fixed offsets (no `strftime` per row).
    static func withLoads<T>(
        from start: Date, in db: Connection, _ body: (inout RowStream<BookedSlotDecoder>) throws -> T
    ) throws -> T {
        try db.withRows(loadsFromKey, binding: StoredPickup(start), BookedSlotDecoder.self, body)
    }

    private static let loadsFromKey = StatementKey(
        """
        SELECT g.generation, s.pickup_at, s.booked, s.capacity
        FROM config_generation g LEFT JOIN slot_loads s ON s.pickup_at >= ?
        WHERE g.id = 1 ORDER BY s.pickup_at
        """)

    /// A booked slot as the picker's walk reads it: its start (seconds since 1970), the pizzas
    /// booked and its capacity (its rule is the plan's: the triggers keep them the same).
    struct BookedSlotDecoder: RowDecoder {
        let generation, start, booked, capacity: Column

        init(columns: ColumnResolver) throws {
            (generation, start, booked, capacity) = (
                try columns("generation"), try columns("pickup_at"), try columns("booked"), try columns("capacity")
            )
        }

        /// The booked slot (`nil` in the one row of a walk with no booking ahead), its start as
        /// the stored text's bytes: the walk parses them with ``PickupTime/StoredReader``, which
        /// reads a date once for the day's slots.
        func decode(_ row: Row) throws -> (start: PickupTime.StoredText, booked: Int, capacity: Int)? {
            guard let text = try row.optionalTextBytes(start) else { return nil }
            guard let stored = PickupTime.StoredText(text) else { throw Self.notAPickupTime }
            // `slot_loads` is STRICT and both are INTEGER NOT NULL (migration 7): SQLite keeps their type.
            return (stored, row.strictInteger(booked), row.strictInteger(capacity))
        }

        /// A `pickup_at` that is not stored pickup text.
        static let notAPickupTime = DatabaseError.typeMismatchValue(
            "a stored pickup time (YYYY-MM-DDTHH:MM:SSZ) in slot_loads")

        /// The configuration's generation, which every row carries (the walk reads it once).
        func generation(_ row: Row) throws -> Int64 { try row.int64(generation) }

    }
}
