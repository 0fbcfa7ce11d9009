import Foundation
import PizzeriaStorage

/// What a change of the week, an exception, the slot length or the time zone does to the orders
/// already booked, decided in the change's own transaction after it is written: every future
/// booked order's service day and local time are recomputed under the new schedule, and the
/// change is refused when an order would end up outside the hours, on another service day than
/// it was booked for, or in a slot over its capacity — unless staff keep the orders.
///
/// Only the orders the change affects are named: an order kept outside the hours by an earlier
/// change (`orders.kept_outside_hours_at`) blocks nothing later; one the new hours take in again
/// loses its mark.
enum Rehoming {
    /// Re-homes the future bookings under `schedule`.
    /// - Parameters:
    ///   - capacitiesBefore: the future slots' capacities before the change
    ///     (``CapacityStore/futureCapacities(after:in:)``), to tell this change's overfilling
    ///     from a slot that was over already.
    ///   - keepOrders: apply it anyway: orders outside the hours are marked kept, orders on
    ///     another service day take the new one, full slots stay as they are.
    /// - Throws: ``ScheduleError/wouldOrphan(_:)`` naming each affected order and how.
    static func apply(
        under schedule: Schedule, capacitiesBefore: [String: Int], now: Date, keepOrders: Bool, in db: Connection
    ) throws {
        var affected: [OrphanedOrder] = []
        func summary(_ booking: ScheduleStore.FutureBooking, _ problem: OrphanedOrder.Problem) -> OrphanedOrder {
            let local = booking.pickupLocal
            return OrphanedOrder(
                id: booking.id, handle: booking.handle, pickupAt: booking.pickupAt,
                pickupLocal: String(local.prefix(10)) + " " + String(local.dropFirst(11).prefix(5)), problem: problem)
        }
        for booking in try ScheduleStore.futureBookings(after: now, in: db) {
            let local = schedule.clock.localText(booking.pickupAt)
            var day = schedule.clock.local(booking.pickupAt).date
            var kept = booking.kept
            if case .slot(let slot) = try schedule.locate(booking.pickupAt) {
                day = slot.serviceDay
                kept = false
                if day.description != booking.serviceDay { affected.append(summary(booking, .otherServiceDay)) }
            } else if !booking.kept {
                kept = true
                affected.append(summary(booking, .outsideHours))
            }
            guard day.description != booking.serviceDay || local != booking.pickupLocal || kept != booking.kept else {
                continue
            }
            try ScheduleStore.rehome(booking.id, serviceDay: day, pickupLocal: local, keptAt: kept ? now : nil, in: db)
        }
        // The slots' capacities follow their new service days and minutes (the schema's triggers).
        let overfilled = try CapacityStore.overfilledPickups(since: capacitiesBefore, after: now, in: db)
        for booking in try ScheduleStore.bookings(at: overfilled, in: db)
        where !affected.contains(where: { $0.id == booking.id }) {
            guard let pickup = PickupTime.fromUTC(booking.pickupAt) else { continue }
            affected.append(
                OrphanedOrder(
                    id: booking.id, handle: booking.handle, pickupAt: pickup,
                    pickupLocal: String(booking.local.prefix(10)) + " " + String(booking.local.dropFirst(11).prefix(5)),
                    problem: .overCapacity))
        }
        guard affected.isEmpty || keepOrders else {
            throw ScheduleError.wouldOrphan(
                affected.sorted { ($0.pickupAt, $0.id.description) < ($1.pickupAt, $1.id.description) })
        }
    }
}
