import Foundation

/// A change of an order's status that a person asks for.
public enum OrderAction: String, Sendable, Hashable, Codable {
    /// To the next status: placed → preparing → ready → collected.
    case advance
    /// To cancelled, from placed or preparing.
    case cancel
    /// To no-show, from ready.
    case noShow = "no_show"
    /// The last status change taken back.
    case undo
    /// Another pickup, while placed.
    case move
    /// Lines or note changed, while placed.
    case edit
    /// To collected from any earlier status, each step recorded.
    case collect
    /// A station's part marked done (`order bump`), while placed or preparing.
    case bump
    /// Items no station prepares added at the counter (`order add`), until collected.
    case add
}

/// Why an order was refused or not found. Every refusal leaves the database unchanged.
public enum OrderError: PizzeriaFailure, Equatable {
    /// No order has this id (or, through ``LookupService``, id prefix).
    case notFound(_ reference: String)
    /// An id prefix shared by several orders.
    case ambiguous(query: String, candidates: [Order.ID])
    /// The pizza is archived: off the menu, not bookable.
    case archivedPizza(name: String)
    /// A modifier chosen for an item is archived: no longer offered.
    case archivedModifier(item: String, modifier: String)
    /// An item or a modifier is sold out (or has fewer left than asked) for this pickup; `until`
    /// is when it is back (local time), `nil` when staff must make it available.
    case soldOut(name: String, left: Int, requested: Int, until: String?)
    /// The pickup time has passed.
    case pickupInPast(local: String)
    /// The pickup is further ahead than the booking horizon allows.
    case beyondHorizon(local: String, days: Int)
    /// The pickup is not within the day's opening hours; `nearest` are the closest bookable slots.
    case outsideOpeningHours(local: String, day: String, hours: String, nearest: [String])
    /// The pizzeria is closed that weekday; `nextOpen` is the first bookable slot after it.
    case closedWeekday(weekday: Weekday, nextOpen: String?)
    /// The pizzeria is closed that date (a closure, or cuts that leave nothing), for `reasons`.
    case closedDate(date: LocalDate, reasons: [String], nextOpen: String?)
    /// The pickup is sooner than the lead time allows; `earliest` is the first bookable slot.
    case tooSoon(local: String, leadMinutes: Int, earliest: String?)
    /// The time is not the start of a slot; `nearest` are the closest valid slots.
    case notOnSlotBoundary(local: String, slotMinutes: Int, nearest: [String])
    /// The slot cannot take this many more pizzas.
    case slotFull(slot: String, remaining: Int, requested: Int, firstAvailable: String? = nil)
    /// The order has nothing a station makes (`order bump`): the stations it has lines at are named.
    case nothingAtStation(orderID: Order.ID, station: String, stations: [String])
    /// The order has a discount or a comp: its lines are not taken away or made smaller.
    case discounted(orderID: Order.ID)
    /// A station (other than the oven) cannot make this many more pieces in the slot; `rule` is
    /// the station's capacity rule for the slot (`fri 19:00-22:00`), `nil` for its own capacity.
    case stationFull(station: String, slot: String, remaining: Int, requested: Int, rule: String?)
    /// More pizzas than the slot takes even empty: the largest order a slot takes, and where this one fits.
    case orderTooLarge(requested: Int, slot: String, slotCapacity: Int, largest: SlotCapacity, fitsAt: [String])
    /// Even a staff override cannot put this many pizzas in the slot: it books at most the
    /// slot's ``SlotCapacity/overrideMargin`` over its capacity.
    case overMargin(slot: String, capacity: Int, booked: Int, requested: Int, margin: Int)
    /// Even a staff override cannot give a station this many pieces in the slot: it books at most
    /// the station's margin (a quarter of its capacity there, rounded up) over it.
    case stationOverMargin(station: String, slot: String, capacity: Int, booked: Int, requested: Int, margin: Int)
    /// A party's pizzas do not fit the consecutive slots from its pickup: `fits` fit in `slots` slots.
    case partyDoesNotFit(requested: Int, fits: Int, from: String, slots: Int)
    /// A party's pieces for a station with a capacity (the fryer) do not fit the consecutive
    /// slots from its pickup: `fits` fit in `slots` slots.
    case partyStationDoesNotFit(station: String, requested: Int, fits: Int, from: String, slots: Int)
    /// New bookings are paused.
    case paused(pause: Pause, zone: TimeZone)
    /// The idempotency key was used for an order with other content.
    case keyReused(key: String, orderID: Order.ID)
    /// The order's customer was erased: it stays for the books, never moved, edited, delayed or
    /// booked again (the schema's `orders_erased_user_locked` refuses the same).
    case customerErased(orderID: Order.ID, action: OrderAction)
    /// The status change is not allowed from the current status.
    case illegalTransition(orderID: Order.ID, from: OrderStatus, action: OrderAction)
    /// A merged line asks for more than the maximum of one pizza.
    case tooMany(name: String, quantity: Int)
    /// The order changed since the version the change was made from.
    case versionConflict(orderID: Order.ID, expected: Int, current: Int)
    /// The order would be handed over owing `balance`: it is paid in the same step, or left
    /// unpaid with a reason, never collected without a word.
    case unpaidAtCollection(orderID: Order.ID, balance: Money)
    /// The last status change is older than the undo window.
    case undoTooLate(orderID: Order.ID, minutes: Int)

    /// Not found, invalid input, or refused by the current state.
    public var category: FailureCategory {
        switch self {
        case .notFound: .notFound
        case .ambiguous, .tooMany: .invalidInput
        default: .refused
        }
    }

    /// Ids as people tell them apart: their short ids when those differ, else the shortest
    /// starts of their text that do.
    static func shown(_ ids: [Order.ID]) -> [String] {
        let shorts = ids.map(\.short)
        return Set(shorts).count == shorts.count ? shorts : IDPrefix.distinguishing(ids.map(\.description))
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .notFound(let reference):
            "no order with id, short id or the start of either '\(reference)'"
        case .ambiguous(let query, let candidates):
            "'\(query)' matches \(candidates.count) orders: " + Self.shown(candidates).joined(separator: ", ")
        case .archivedPizza(let name):
            "'\(name)' is archived and cannot be ordered"
        case .soldOut(let name, let left, let requested, let until):
            (left == 0 ? "'\(name)' is sold out" : "'\(name)': only \(left) left, \(requested) asked for")
                + (until.map { " (back for pickups from \($0))" } ?? " (until staff make it available again)")
        case .archivedModifier(let item, let modifier):
            "modifiers: '\(modifier)' is no longer offered (archived) and cannot be ordered with \(item)"
        case .pickupInPast(let local):
            "pickup: \(local) is in the past"
        case .beyondHorizon(let local, let days):
            "pickup: \(local) is more than \(days) days ahead (the booking horizon)"
        case .outsideOpeningHours(let local, let day, let hours, let nearest):
            "pickup: \(local) is outside the hours of \(day) (\(hours); the last slot ends at closing)"
                + (nearest.isEmpty ? "" : "; nearest slots: " + nearest.joined(separator: ", "))
        case .closedWeekday(let weekday, let nextOpen):
            "pickup: closed on \(weekday.name)s" + (nextOpen.map { "; next open \($0)" } ?? "")
        case .closedDate(let date, let reasons, let nextOpen):
            "pickup: closed on \(date)" + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: ", ") + ")")
                + (nextOpen.map { "; next open \($0)" } ?? "")
        case .tooSoon(let local, let lead, let earliest):
            "pickup: \(local) is less than \(lead) minutes from now (the lead time)"
                + (earliest.map { "; the earliest slot is \($0)" } ?? "")
        case .notOnSlotBoundary(let local, let minutes, let nearest):
            "pickup: \(local) is not the start of a \(minutes)-minute slot"
                + (nearest.isEmpty ? "" : "; nearest slots: " + nearest.joined(separator: ", "))
        case .slotFull(let slot, let remaining, let requested, let first):
            (remaining == 0
                ? "the \(slot) slot is full (asked for \(pizzas(requested)), 0 left)"
                : "the \(slot) slot has only \(pizzas(remaining)) left (asked for \(requested))")
                + (first.map { "; the first slot that takes \(pizzas(requested)) is \($0)" } ?? "")
        case .nothingAtStation(let id, let station, let stations):
            "order \(id.short) has nothing \(station) makes"
                + (stations.isEmpty
                    ? " (nothing any station makes)" : "; its stations: " + stations.joined(separator: ", "))
        case .unpaidAtCollection(let id, let balance):
            "order \(id.short) owes \(balance.formatted): take the payment as it is handed over, or say why it is "
                + "left unpaid"
        case .discounted(let id):
            "order \(id.short) has a discount or a comp: its lines stay (items can be added); cancel it and book again "
                + "to make it smaller"
        case .stationFull(let station, let slot, let remaining, let requested, let rule):
            "\(station) makes only \(remaining) more in the \(slot) slot (asked for \(requested)); "
                + "choose another pickup time, or raise its capacity "
                + (rule.map { "(its rule \($0): capacity set \($0) N --station \(station))" }
                    ?? "(station edit \(station) --capacity N)")
        case .orderTooLarge(let requested, let slot, let capacity, let largest, let fitsAt):
            "an order of \(pizzas(requested)) is more than the \(slot) slot takes (\(capacity)); the largest order a slot takes is \(largest.capacity)"
                + (largest.rule.map { " (\($0))" } ?? "")
                + (fitsAt.isEmpty
                    ? "; no slot within the booking horizon takes it: split it into smaller orders"
                    : "; it fits at " + fitsAt.joined(separator: ", "))
        case .overMargin(let slot, let capacity, let booked, let requested, let margin):
            "the \(slot) slot takes \(pizzas(capacity)) and has \(booked) booked: an override books at most \(margin) over "
                + "its capacity (a quarter of it, rounded up), so \(max(0, capacity + margin - booked)) of the \(requested) asked for fit"
        case .stationOverMargin(let station, let slot, let capacity, let booked, let requested, let margin):
            "\(station) makes \(capacity) in the \(slot) slot and has \(booked) booked: an override books at most "
                + "\(margin) over its capacity (a quarter of it, rounded up), so \(max(0, capacity + margin - booked)) of "
                + "the \(requested) asked for fit; choose another pickup time, or raise its capacity"
        case .partyDoesNotFit(let requested, let fits, let from, let slots):
            "a party of \(pizzas(requested)) does not fit the slots from \(from): "
                + (slots == 0
                    ? "that slot is full"
                    : "\(fits) fit in the \(slots) consecutive slot\(slots == 1 ? "" : "s") with room "
                        + "(at most \(OrderService.maximumPartySlots), no gap, one service day)")
        case .partyStationDoesNotFit(let station, let requested, let fits, let from, let slots):
            "a party's \(requested) pieces at \(station) do not fit the slots from \(from): "
                + (slots == 0
                    ? "\(station) has no room in that slot"
                    : "\(fits) fit in the \(slots) consecutive slot\(slots == 1 ? "" : "s") with room "
                        + "(at most \(OrderService.maximumPartySlots), no gap, one service day)")
        case .paused(let pause, let zone):
            "not taking orders" + (pause.until.map { " until \(PickupTime.local($0, in: zone))" } ?? "")
                + (pause.reason.map { ": \($0)" } ?? "")
        case .keyReused(let key, let orderID):
            "key '\(key)' was already used for order \(orderID.short) with different content"
        case .customerErased(let orderID, let action):
            "order \(orderID.short)'s customer was erased: the order stays for the books and cannot be "
                + (action == .undo ? "booked again" : action == .move ? "moved" : "edited")
        case .illegalTransition(let id, let from, let action):
            switch action {
            case .cancel:
                "order \(id.short) is \(from.rawValue); it cannot be cancelled (only placed or preparing orders can)"
            case .noShow: "order \(id.short) is \(from.rawValue); only a ready order can be a no-show"
            case .move, .edit:
                "order \(id.short) is \(from.rawValue); only a placed order can be \(action == .move ? "moved" : "edited")"
            case .undo: "order \(id.short) has no status change to undo"
            case .advance:
                "order \(id.short) is \(from.rawValue); it cannot be advanced (it is finished)"
            case .collect:
                "order \(id.short) is \(from.rawValue); only a placed, preparing or ready order can be collected"
            case .bump:
                "order \(id.short) is \(from.rawValue); a station marks its part done only on a placed or preparing order"
            case .add:
                "order \(id.short) is \(from.rawValue); the counter adds to an order only until it is collected"
            }
        case .versionConflict(let id, let expected, let current):
            "order \(id.short) changed since version \(expected) (it is at version \(current)); look at it again"
        case .undoTooLate(let id, let minutes):
            "order \(id.short): its last status change is more than \(minutes) minutes old; undo takes back only recent changes"
        case .tooMany(let name, let quantity):
            "quantity: must be from 1 to \(OrderRequest.maximumQuantity) per pizza (\(name): \(quantity) after merging)"
        }
    }
}

/// `1 pizza`, `2 pizzas`.
func pizzas(_ count: Int) -> String { count == 1 ? "1 pizza" : "\(count) pizzas" }
