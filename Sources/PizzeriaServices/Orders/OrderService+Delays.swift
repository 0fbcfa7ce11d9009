import Foundation
import PizzeriaStorage

/// Which orders a bulk delay moves.
public enum DelaySelection: Sendable, Hashable {
    /// These orders (each must be placed or preparing).
    case orders([Order.ID])
    /// Every placed or preparing order whose pickup is from `from` (included) to `to` (excluded)
    /// on the service day `day` (today when `nil`); a `to` at or before `from` runs past midnight.
    case window(day: LocalDate?, from: LocalTime, to: LocalTime)
}

/// An order a delay could not move, and why (the rule that refused it, as a booking would say).
public struct DelayRefusal: Sendable, Hashable, Encodable {
    /// The order.
    public let orderID: Order.ID
    /// Its pickup, local, before the delay.
    public let pickupLocal: String
    /// Why it was not moved.
    public let reason: String
    /// The delayed orders it waited on: it would fit, but the slot it moves to stays full because
    /// these (in that slot, delayed too) could not move out of it. Empty when it does not fit on its own.
    public let waitingOn: [Order.ID]

    init(orderID: Order.ID, pickupLocal: String, reason: String, waitingOn: [Order.ID] = []) {
        self.orderID = orderID
        self.pickupLocal = pickupLocal
        self.reason = reason
        self.waitingOn = waitingOn
    }

    private enum CodingKeys: String, CodingKey {
        case orderID = "order_id", pickupLocal = "pickup_local", reason, waitingOn = "waiting_on"
    }
}

/// What a bulk delay did.
public struct DelayResult: Sendable, Hashable, Encodable {
    /// By how many minutes.
    public let minutes: Int
    /// The orders moved, as they are now, in pickup order.
    public let delayed: [Order]
    /// The orders left where they were (only with `bestEffort`; otherwise the delay throws).
    public let refused: [DelayRefusal]
}

/// A bulk delay refused whole: the orders that would not fit, and why; nothing moved.
public struct DelayError: PizzeriaFailure, Equatable {
    /// The orders that do not fit.
    public let refusals: [DelayRefusal]
    /// Of how many selected.
    public let selected: Int
    /// The delay asked for.
    public let minutes: Int

    /// Refused by the current state (exit 1).
    public var category: FailureCategory { .refused }

    /// The refusal, naming each order that does not fit: first those that do not fit on their
    /// own, then those that only follow them (their slot stays full because those cannot leave it).
    public var description: String {
        let own = refusals.filter(\.waitingOn.isEmpty), following = refusals.filter { !$0.waitingOn.isEmpty }
        return "delay +\(minutes): \(own.count) of \(selected) order\(selected == 1 ? "" : "s") would not fit"
            + (following.isEmpty ? "" : " (and \(following.count) more behind \(own.count == 1 ? "it" : "them"))")
            + ", so none was moved:\n"
            + (own + following).map { "  \($0.orderID.short) (\($0.pickupLocal)): \($0.reason)" }.joined(
                separator: "\n")
    }
}

extension OrderService {
    /// The longest delay, in minutes.
    public static let maximumDelayMinutes = 240

    /// Moves every selected order `minutes` later, **in one transaction**, placed and preparing
    /// ones alike (a preparing order keeps its kitchen state): each into a slot that must take it —
    /// the hours, the past, the horizon and capacity, as the rule table says for a delay (the lead
    /// time and a pause are not a delay's business). The latest orders move first, so a window
    /// shifted onto itself frees each slot before it fills it. Each order's history says
    /// `delayed +15` with who did it (and an override's reason).
    ///
    /// - Parameter bestEffort: move what fits and return the rest in ``DelayResult/refused``;
    ///   without it, one order that does not fit refuses the whole delay (``DelayError``), nothing moved.
    /// - Throws: ``ValidationError`` (minutes not 1–240 or not whole slots; no orders named; by);
    ///   ``OrderError/notFound(_:)``; ``DelayError``.
    @discardableResult
    public func delay(
        _ selection: DelaySelection, byMinutes minutes: Int, bestEffort: Bool = false, by actor: String? = nil,
        override: StaffOverride? = nil
    ) throws -> DelayResult {
        var problems = Self.actorProblems(actor, override: override)
        if !(1...Self.maximumDelayMinutes).contains(minutes) {
            problems.append(
                FieldError(
                    field: "by-minutes", message: "must be from 1 to \(Self.maximumDelayMinutes), not \(minutes)"))
        }
        if case .orders(let ids) = selection, ids.isEmpty {
            problems.append(FieldError(field: "orders", message: "name at least one order, or a time window"))
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in
            let settings = try SettingsStore.current(in: db)
            guard minutes % settings.slotMinutes == 0 else {
                throw ValidationError([
                    FieldError(
                        field: "by-minutes",
                        message: "must be whole slots of \(settings.slotMinutes) minutes (\(settings.slotMinutes), "
                            + "\(2 * settings.slotMinutes), …), not \(minutes)")
                ])
            }
            let schedule = ScheduleStore.schedule(settings, in: db)
            let headers = try Self.selected(selection, schedule: schedule, now: now, in: db)
            var refused: [DelayRefusal] = [], moved: [Order.ID] = []
            // The selected orders that could not leave their slot, by their pickup: an order moving
            // into such a slot finds it full because of them, not on its own.
            var stuck: [Date: [Order.ID]] = [:]
            let note = "delayed +\(minutes)" + (override.map { ", " + $0.historyText } ?? "")
            for header in headers.sorted(by: { ($0.pickupAt, $0.id) > ($1.pickupAt, $1.id) }) {
                let local = schedule.clock.localText(header.pickupAt)
                guard header.status == .placed || header.status == .preparing else {
                    stuck[header.pickupAt, default: []].append(header.id)
                    refused.append(
                        DelayRefusal(
                            orderID: header.id, pickupLocal: local,
                            reason: "it is \(header.status.rawValue): only placed or preparing orders are delayed"))
                    continue
                }
                let target = header.pickupAt.addingTimeInterval(Double(minutes * 60))
                do {
                    guard try UserStore.isLiveUser(header.userID, in: db) else {
                        throw OrderError.customerErased(orderID: header.id, action: .move)
                    }
                    let lines = try OrderStore.numberedLines(of: header.id, in: db).map(\.line)
                    let pizzas = lines.reduce(0) { $0 + $1.slotUnits }
                    let slot = try Self.checkPickup(
                        target, pizzas: pizzas, claim: .delay, override: override != nil, settings: settings,
                        schedule: schedule, now: now, in: db)
                    let room = try Self.requireRoom(
                        for: pizzas, at: target, slot: slot, override: override, settings: settings,
                        schedule: schedule, now: now, in: db)
                    let stationsOver = try Self.requireStationRoom(
                        for: lines, in: slot, zone: settings.timeZone, override: override, in: db)
                    try Self.admit(
                        room, stations: stationsOver, order: header.id, at: target, override: override, actor: actor,
                        now: now, in: db)
                    guard
                        try OrderStore.delay(
                            id: header.id, version: header.version, pickupAt: PickupTime.utc(target),
                            serviceDay: slot.serviceDay, pickupLocal: schedule.clock.localText(target), actor: actor,
                            note: note, at: now, in: db)
                    else {
                        throw OrderError.versionConflict(
                            orderID: header.id, expected: header.version, current: header.version)
                    }
                    moved.append(header.id)
                } catch let failure as OrderError {
                    stuck[header.pickupAt, default: []].append(header.id)
                    if case .slotFull = failure, let blocking = stuck[target], !blocking.isEmpty {
                        refused.append(
                            DelayRefusal(
                                orderID: header.id, pickupLocal: local,
                                reason:
                                    "the \(schedule.clock.localText(target).prefix(16).suffix(5)) slot it moves to stays full: "
                                    + blocking.map(\.short).joined(separator: ", ") + " there could not move out of it",
                                waitingOn: blocking))
                    } else {
                        refused.append(
                            DelayRefusal(orderID: header.id, pickupLocal: local, reason: failure.description))
                    }
                }
            }
            if !refused.isEmpty, !bestEffort {
                throw DelayError(
                    refusals: refused.sorted { $0.pickupLocal < $1.pickupLocal }, selected: headers.count,
                    minutes: minutes)
            }
            let assembler = try OrderAssembler(now: now, in: db)
            let orders = try moved.reversed().compactMap { id in
                try OrderStore.header(id: id, in: db).map { try assembler.order($0) }
            }
            return DelayResult(
                minutes: minutes, delayed: orders, refused: refused.sorted { $0.pickupLocal < $1.pickupLocal })
        }
    }

    /// The orders a selection names: by id (each must exist), or every placed or preparing one of a window.
    static func selected(_ selection: DelaySelection, schedule: Schedule, now: Date, in db: Connection) throws
        -> [OrderStore.Header]
    {
        switch selection {
        case .orders(let ids):
            var seen = Set<Order.ID>()
            return try ids.compactMap { id in
                guard seen.insert(id).inserted else { return nil }
                guard let header = try OrderStore.header(id: id, in: db) else {
                    throw OrderError.notFound(id.description)
                }
                return header
            }
        case .window(let day, let from, let to):
            let date = try day ?? ScheduleService.today(at: now, in: db)
            let start = try schedule.clock.instant(on: date, at: from)
            let end = try schedule.clock.instant(on: to <= from ? date.adding(days: 1) : date, at: to)
            return try OrderStore.headers(
                OrderFilter(pickupFrom: start, pickupBefore: end), after: nil, limit: 100_000, in: db
            ).filter { $0.status == .placed || $0.status == .preparing }
        }
    }
}
