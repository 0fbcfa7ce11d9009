import Foundation
import PizzeriaStorage

extension SlotFinder {
    /// The booked slots from the walk's start on, through one stream over `slot_loads`: slots
    /// come in time order, so it only moves forward (a slot out of order, as overlapping nights
    /// could give, asks the file). A booked slot the walk passes without asking about it costs
    /// its start alone, and a slot's rule comes from the plan (see ``capacity(_:at:planned:in:)``).
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

        /// Parses the rows' starts (they come in time order: a date is read once per day).
        private var starts = PickupTime.StoredReader()
        /// The next booked slot the stream holds, not passed yet: its start (`Int64.max` once the
        /// stream has no more), pizzas and capacity — plain fields, read for every slot walked.
        private var aheadStart = Int64.max
        private var aheadBooked = 0
        private var aheadCapacity = 0
        /// The start of the last slot asked about in order.
        private var last = Int64.min

        /// The stream and the connection are the walk's parameters, not fields: a walk runs on
        /// every checkout, and each reference a field holds is retained and released per call.
        init() {}

        /// The configuration's generation the stream's snapshot holds, from its first row (every
        /// row carries it; the first comes even when no slot is booked), which it also reads as
        /// the first booked slot ahead. Called once, before ``load(at:from:in:)``.
        mutating func generation(_ rows: inout RowStream<OrderStore.BookedSlotDecoder>) throws -> Int64 {
            guard let first = try rows.next() else {
                throw DatabaseError(
                    extendedResultCode: ResultCode.SQLITE_CORRUPT.rawValue, message: "config_generation has no row")
            }
            try hold(first)
            return try rows.decoder.generation(rows.row)
        }

        /// Holds a row's slot as the one ahead (`nil`, a walk with no booking ahead: none).
        private mutating func hold(_ slot: (start: PickupTime.StoredText, booked: Int, capacity: Int)?) throws {
            guard let slot else {
                aheadStart = .max
                return
            }
            guard let start = starts.seconds(slot.start) else { throw OrderStore.BookedSlotDecoder.notAPickupTime }
            (aheadStart, aheadBooked, aheadCapacity) = (start, slot.booked, slot.capacity)
        }

        /// The booked slot starting at `seconds`, if any.
        mutating func load(
            at seconds: Int64, from rows: inout RowStream<OrderStore.BookedSlotDecoder>, in db: Connection
        ) throws -> Load? {
            guard seconds >= last else {
                let load = try OrderStore.slotLoad(
                    pickupAt: PickupTime.utc(Date(timeIntervalSince1970: Double(seconds))), in: db)
                outOfOrderRule = load?.capacity.rule
                return load.map { Load(booked: $0.booked, capacity: $0.capacity.capacity, outOfOrder: true) }
            }
            last = seconds
            // Past the slots the walk has passed; the stream's end leaves `aheadStart` at `.max`.
            while aheadStart < seconds { try hold(try rows.next() ?? nil) }
            guard aheadStart == seconds else { return nil }
            return Load(booked: aheadBooked, capacity: aheadCapacity, outOfOrder: false)
        }

        /// The capacity of the slot at `seconds` that `load(at:from:in:)` just returned, with its rule. The
        /// triggers keep a booked slot's capacity and rule the rules' in every snapshot, so a
        /// capacity equal to the plan's (from the same generation's rules) comes from the plan's
        /// rule; one that differs (a file out of step, which `check` reports) is named by the file.
        func capacity(_ load: Load, at seconds: Int64, planned: SlotCapacity, in db: Connection) throws -> SlotCapacity
        {
            if load.outOfOrder { return SlotCapacity(capacity: load.capacity, rule: outOfOrderRule) }
            if load.capacity == planned.capacity { return planned }
            let stored = try OrderStore.slotLoad(
                pickupAt: PickupTime.utc(Date(timeIntervalSince1970: Double(seconds))), in: db)
            return SlotCapacity(capacity: load.capacity, rule: stored?.capacity.rule)
        }
    }
}
