import Foundation

/// "Sold out tonight" (86): an item or a modifier limited to `left` more for pickups before
/// `until`. One rule, here and in the schema's stock triggers (migration 17): a pickup at or after
/// `until` is not limited, so the item comes back by itself when the service ends.
public enum Stock {
    /// The most a limit can be.
    public static let maximum = 100_000

    /// How many more can be booked for a pickup at `pickup` (`nil`: no limit).
    public static func left(_ left: Int?, until: Date?, for pickup: Date) -> Int? {
        guard let left else { return nil }
        if let until, pickup >= until { return nil }
        return left
    }

    /// When "until the end of the service" ends for a change at `now`: the end of the last slot
    /// of the service day `now` is in (or the day's close-out, 06:00 the next morning, when it has
    /// no slots left).
    static func endOfService(_ schedule: Schedule, now: Date) throws -> Date {
        let day = try schedule.today(at: now)
        let slotLength = TimeInterval(schedule.slotMinutes * 60)
        if let last = try schedule.slots(of: day).last, last.start + slotLength > now {
            return last.start + slotLength
        }
        return schedule.clock.instants(day.adding(days: 1), minutes: Schedule.closeOutMinute).first
            ?? schedule.clock.start(of: day.adding(days: 1))
    }
}
