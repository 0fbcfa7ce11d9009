import Foundation
import PizzeriaStorage

extension SlotFinder {
    /// The booked slots from the walk's start on, through one stream over `slot_loads`: slots
    /// come in time order, so it only moves forward (a slot out of order, as overlapping nights
    /// could give, asks the file). A booked slot the walk passes without asking about it costs
    /// its start alone, and a slot's rule comes from the plan (see ``capacity(_:at:planned:)``).
    struct BookedSlots {
        /// A booked slot the walk asked about (plain values: the walk passes many).
        struct Load {
            let booked: Int
            let capacity: Int
            /// Whether it came from a query of its own (a slot out of order), whose rule is
            /// ``outOfOrderRule``.
            let outOfOrder: Bool
        }

        /// The rule of the last slot read out of order.
        private var outOfOrderRule: String?

        private var rows: RowStream<OrderStore.BookedSlotDecoder>
        /// Parses the rows' starts (they come in time order: a date is read once per day).
        private var starts = PickupTime.StoredReader()
        let db: Connection
        private var ahead: (start: Int64, booked: Int, capacity: Int)?
        private var exhausted = false
        private var last = Int64.min
        /// The first row's slot, once ``generation()`` has read it, until the walk asks for it.
        private var first: (start: Int64, booked: Int, capacity: Int)?? = nil

        /// The configuration's generation the stream's snapshot holds, from its first row (every
        /// row carries it; the first comes even when no slot is booked).
        mutating func generation() throws -> Int64 {
            guard let slot = try nextRow() else {
                throw DatabaseError(
                    extendedResultCode: ResultCode.SQLITE_CORRUPT.rawValue, message: "config_generation has no row")
            }
            first = .some(slot)
            if slot == nil { exhausted = true }
            return try rows.decoder.generation(rows.row)
        }

        init(rows: RowStream<OrderStore.BookedSlotDecoder>, db: Connection) { (self.rows, self.db) = (rows, db) }

        /// The stream's next row: `nil` past the last, `.some(nil)` for the row of a walk with
        /// no booking ahead, else the booked slot with its start in seconds.
        private mutating func nextRow() throws -> (start: Int64, booked: Int, capacity: Int)?? {
            guard let row = try rows.next() else { return nil }
            guard let slot = row else { return .some(nil) }
            guard let start = starts.seconds(slot.start) else { throw OrderStore.BookedSlotDecoder.notAPickupTime }
            return .some((start, slot.booked, slot.capacity))
        }

        /// The booked slot starting at `seconds`, if any.
        mutating func load(at seconds: Int64) throws -> Load? {
            guard seconds >= last else {
                let load = try OrderStore.slotLoad(
                    pickupAt: PickupTime.utc(Date(timeIntervalSince1970: Double(seconds))), in: db)
                outOfOrderRule = load?.capacity.rule
                return load.map { Load(booked: $0.booked, capacity: $0.capacity.capacity, outOfOrder: true) }
            }
            last = seconds
            while !exhausted, ahead.map({ $0.start < seconds }) ?? true {
                let slot: (start: Int64, booked: Int, capacity: Int)?
                if let pending = first {
                    (slot, first) = (pending, nil)
                } else {
                    slot = try nextRow() ?? nil
                }
                guard let next = slot else {
                    (exhausted, ahead) = (true, nil)
                    break
                }
                guard next.start >= seconds else { continue }
                ahead = next
            }
            guard let ahead, ahead.start == seconds else { return nil }
            return Load(booked: ahead.booked, capacity: ahead.capacity, outOfOrder: false)
        }

        /// The capacity of the slot at `seconds` that `load(at:)` just returned, with its rule. The
        /// triggers keep a booked slot's capacity and rule the rules' in every snapshot, so a
        /// capacity equal to the plan's (from the same generation's rules) comes from the plan's
        /// rule; one that differs (a file out of step, which `check` reports) is named by the file.
        func capacity(_ load: Load, at seconds: Int64, planned: SlotCapacity) throws -> SlotCapacity {
            if load.outOfOrder { return SlotCapacity(capacity: load.capacity, rule: outOfOrderRule) }
            if load.capacity == planned.capacity { return planned }
            let stored = try OrderStore.slotLoad(
                pickupAt: PickupTime.utc(Date(timeIntervalSince1970: Double(seconds))), in: db)
            return SlotCapacity(capacity: load.capacity, rule: stored?.capacity.rule)
        }
    }
}
