import Foundation

/// A change that puts pizzas into a slot: each is checked against the same rules, the ones its
/// row of the rule table (docs/CLI.md, "One rule, every path") marks.
///
/// | rule                      | place | move | add to an order | undo a cancellation | delay |
/// |---------------------------|-------|------|-----------------|---------------------|-------|
/// | a slot of the hours       | ✔     | ✔    | ✔               | ✔                   | ✔     |
/// | not in the past           | ✔     | ✔    | ✔               | ✔                   | ✔     |
/// | within the horizon        | ✔     | ✔    | –               | –                   | ✔     |
/// | lead time (and rush)      | ✔ (o) | ✔ (o)| ✔ (o)           | ✔ (o)               | –     |
/// | pause                     | ✔ (o) | –    | ✔ (o)           | ✔ (o)               | –     |
/// | capacity                  | ✔ (m) | ✔ (m)| ✔ (m)           | ✔ (m)               | ✔ (m) |
///
/// A delay moves orders the kitchen already has later: the lead time (how long before pickup a
/// new order must come in) and a pause (no new orders) are not its business.
///
/// (o): staff may pass it with an override and its reason, recorded in the order's history.
/// (m): an override books over the slot's capacity by at most ``SlotCapacity/overrideMargin``
/// (a quarter, rounded up), recorded in `capacity_overrides`. A
/// pause stops new bookings, not the counter: moves, removals and cancellations go on.
/// Removing pizzas, cancelling, advancing, a no-show, and undoing any change but a
/// cancellation put nothing into a slot and check none of these.
public enum SlotClaim: String, Sendable, Hashable, CaseIterable {
    /// A new order.
    case place
    /// An order moved to another slot.
    case move
    /// More pizzas in an order.
    case add
    /// A cancelled order booked again by an undo.
    case restore
    /// Orders moved later by a bulk delay (the oven stopped), preparing ones included.
    case delay

    /// Whether the booking horizon applies (an order already booked stays where it is).
    var checksHorizon: Bool { self == .place || self == .move || self == .delay }
    /// Whether a pause stops it.
    var checksPause: Bool { self != .move && self != .delay }
    /// Whether the lead time applies (a delay is of orders the kitchen already has).
    var checksLead: Bool { self != .delay }
}

/// A staff exception to the lead time or a pause: who lets the change through and why.
public struct StaffOverride: Sendable, Hashable {
    /// Why: 1 to 200 Unicode scalars without control characters (`walk-in at the counter`).
    public let reason: String

    /// An override with its reason, trimmed.
    public init(reason: String) { self.reason = reason.trimmingWhitespace() }

    /// How the order's history records it: `override: walk-in at the counter`.
    public var historyText: String { "override: \(reason)" }

    /// The longest reason, in Unicode scalars (as SQLite's `length()` counts).
    public static let maximumReasonLength = 200

    /// The rules the reason breaks.
    func problems() -> [FieldError] {
        TextLimit.problems(reason, field: "override", maximum: Self.maximumReasonLength)
    }
}

/// The time rules of a booking at one moment: past, horizon, lead time (with a rush) and pause.
/// The booking, the counter's changes and the pickup-time picker all ask this one value, so a
/// slot the picker lists is one a booking of that size takes, and the other way round.
struct BookingWindow {
    let now: Date
    /// The earliest start the lead time allows.
    let earliest: Date
    /// The last start the horizon allows.
    let horizon: Date
    /// The pause in force, if any.
    let pause: Pause?
    let leadMinutes: Int
    let horizonDays: Int

    /// `settings` is borrowed: the picker makes a window per call from settings held by
    /// reference, and an owned parameter copied them (every field retained) each time.
    init(settings: borrowing Settings, now: Date) {
        self.now = now
        leadMinutes = settings.effectiveLeadMinutes(at: now)
        earliest = now.addingTimeInterval(Double(leadMinutes * 60))
        horizonDays = settings.bookingHorizonDays
        horizon = now.addingTimeInterval(Double(horizonDays) * 86_400)
        pause = settings.activePause(at: now)
    }

    /// A time rule that refuses a claim.
    enum Refusal: Equatable {
        case past
        case beyondHorizon
        case paused(Pause)
        case tooSoon
    }

    /// The first time rule that refuses `claim` at `start`, or `nil`. `override` passes the lead
    /// time and the pause, never the past or the horizon.
    func refusal(at start: Date, _ claim: SlotClaim, override: Bool = false) -> Refusal? {
        if start < now { return .past }
        if claim.checksPause, !override, let pause { return .paused(pause) }
        if claim.checksHorizon, start > horizon { return .beyondHorizon }
        if claim.checksLead, !override, start < earliest { return .tooSoon }
        return nil
    }

    /// The first start a claim can have by the time rules, pause aside: a slot that starts now is
    /// not past (a walk-in at 19:00 for the 19:00 slot).
    var firstStart: Date { max(earliest, now) }
}

/// Limits on free text, counted as the schema counts them: Unicode scalars (SQLite's `length()`
/// counts code points), no control characters, trimmed.
enum TextLimit {
    /// The rules `text` breaks for `field`, 1 to `maximum` scalars without control characters.
    static func problems(_ text: String, field: String, maximum: Int) -> [FieldError] {
        let count = text.unicodeScalars.count
        guard count >= 1, count <= maximum, !text.unicodeScalars.contains(where: PizzaName.isForbidden) else {
            return [
                FieldError(
                    field: field,
                    message: "must be 1 to \(maximum) characters (Unicode scalars) without control characters"
                        + (count > maximum ? ", not \(count)" : ""))
            ]
        }
        return []
    }
}
