import Foundation
import PizzeriaStorage

/// The counter's changes to a booked order: move it, edit its lines and note, take back the last
/// status change. Each is one `BEGIN IMMEDIATE` transaction, checked like a booking, with an
/// optimistic version check; each lands in the order's history (who, what, when) and in the
/// change feed. A refused one writes nothing.
extension OrderService {
    /// How long after a status change `undo` can take it back.
    public static let undoWindowMinutes = 10

    /// Moves a placed order to another pickup: the new slot is checked like a booking (hours,
    /// horizon, lead time, capacity — not a pause: the counter works during one) in the same
    /// transaction that frees the old one, so no one else can take the capacity in between.
    /// - Parameter expectedVersion: the version the change was made from; `nil` skips the check.
    /// - Parameter override: staff's exception to the lead time, with its reason (needs `actor`).
    /// - Throws: ``OrderError/illegalTransition(orderID:from:action:)`` once preparing;
    ///   ``OrderError/versionConflict(orderID:expected:current:)``; any booking refusal.
    @discardableResult
    public func move(
        id: Order.ID, to pickup: Date, expectedVersion: Int? = nil, by actor: String? = nil,
        override: StaffOverride? = nil
    ) throws -> Order {
        let problems = Self.actorProblems(actor, override: override)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in
            let header = try Self.changeable(id, action: .move, expectedVersion: expectedVersion, in: db)
            guard pickup != header.pickupAt else { return try OrderAssembler(now: now, in: db).order(header) }
            let settings = try SettingsStore.current(in: db)
            let schedule = ScheduleStore.schedule(settings, in: db)
            let lines = try OrderStore.numberedLines(of: id, in: db).map(\.line)
            let pizzas = lines.reduce(0) { $0 + $1.slotUnits }
            let slot = try Self.checkPickup(
                pickup, pizzas: pizzas, claim: .move, override: override != nil, settings: settings,
                schedule: schedule, now: now, in: db)
            let room = try Self.requireRoom(
                for: pizzas, at: pickup, slot: slot, override: override, settings: settings, schedule: schedule,
                now: now, in: db)
            let stationsOver = try Self.requireStationRoom(
                for: lines, in: slot, zone: settings.timeZone, override: override, in: db)
            try Self.admit(
                room, stations: stationsOver, order: id, at: pickup, override: override, actor: actor, now: now,
                in: db)
            guard
                try OrderStore.move(
                    id: id, version: header.version, pickupAt: PickupTime.utc(pickup), serviceDay: slot.serviceDay,
                    pickupLocal: schedule.clock.localText(pickup), actor: actor, historyNote: override?.historyText,
                    at: now, in: db),
                let moved = try OrderStore.header(id: id, in: db)
            else {
                throw OrderError.versionConflict(
                    orderID: id, expected: expectedVersion ?? header.version,
                    current: (try OrderStore.header(id: id, in: db)?.version) ?? header.version)
            }
            return try OrderAssembler(now: now, in: db).order(moved)
        }
    }

    /// Changes a placed order's lines and note. Added pizzas are priced as they are now; lines
    /// kept keep their prices; the total follows; at least one line stays. An edit that adds
    /// pizzas is checked like a booking of them at the order's slot (still in the hours, not past,
    /// the lead time, a pause, capacity); one that only removes or sets the note is not.
    /// - Parameter override: staff's exception to the lead time and a pause, with its reason.
    /// - Throws: ``ValidationError`` (nothing to change, a quantity out of 1–20, a note too long,
    ///   removing every line); ``MenuError/notFound(_:)``; ``OrderError`` (archived pizza, not
    ///   placed, version conflict, not enough capacity, too soon, paused, in the past, closed).
    @discardableResult
    public func edit(
        id: Order.ID, _ change: OrderEdit, expectedVersion: Int? = nil, by actor: String? = nil,
        override: StaffOverride? = nil
    ) throws -> Order {
        var change = change
        // A note is trimmed and NFC-normalised like names, so "  " is empty and é is one é.
        if case .set(let text) = change.note {
            change.note = .set(text.trimmingWhitespace().precomposedStringWithCanonicalMapping)
        }
        let problems = change.problems() + Self.actorProblems(actor, override: override)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in
            let header = try Self.changeable(id, action: .edit, expectedVersion: expectedVersion, in: db)
            // An order with a discount keeps its lines: a discount is money off what it had.
            if !(change.remove.isEmpty && change.removeChoices.isEmpty && change.setQuantity.isEmpty),
                try DiscountStore.hasDiscounts(id, in: db)
            {
                throw OrderError.discounted(orderID: id)
            }
            let settings = try SettingsStore.current(in: db)
            let existing = try OrderStore.numberedLines(of: id, in: db)
            // Lines are by choice (item, variant, modifiers): an item named without a variant is
            // its default variant, so an old order's "Margherita" is the Margherita asked for.
            var quantities: [LineChoice: Int] = [:]
            for (_, line) in existing { quantities[line.choice, default: 0] += line.quantity }
            var order = existing.map(\.line.choice)
            var defaults: [Pizza.ID: Variant.ID] = [:]
            func key(of item: OrderRequest.Item) throws -> LineChoice {
                var variant = item.variant
                if variant == nil {
                    if defaults[item.pizza] == nil {
                        defaults[item.pizza] = try VariantStore.defaultVariant(of: item.pizza, in: db)
                    }
                    guard let found = defaults[item.pizza] else { throw MenuError.notFound(item.pizza.description) }
                    variant = found
                }
                let choice = LineChoice(
                    pizza: item.pizza, variant: variant, modifiers: try Self.chosenModifiers(of: item, in: db),
                    annotations: item.annotations.normalized)
                if !order.contains(choice) { order.append(choice) }
                return choice
            }
            // Removals first, of the lines the order has: `--remove Margherita --add Margherita/Maxi`
            // replaces the one with the other. Naming a line the order does not have is refused.
            for pizza in change.remove {
                guard order.contains(where: { $0.pizza == pizza }) else {
                    throw ValidationError([FieldError(field: "remove", message: "the order has no line of that item")])
                }
                for choice in order where choice.pizza == pizza { quantities[choice] = nil }
            }
            for item in change.removeChoices {
                let choice = try key(of: item)
                guard quantities[choice] != nil else {
                    throw ValidationError([
                        FieldError(
                            field: "remove", message: "the order has no line of that choice (variant and modifiers)")
                    ])
                }
                quantities[choice] = nil
            }
            for item in change.add { quantities[try key(of: item), default: 0] += item.quantity }
            for item in change.setQuantity { quantities[try key(of: item)] = item.quantity }
            let kept = order.filter { quantities[$0] != nil }
            guard !kept.isEmpty else {
                throw ValidationError([
                    FieldError(field: "remove", message: "would leave the order without a line; cancel it instead")
                ])
            }
            guard kept.count <= OrderRequest.maximumItems else {
                throw ValidationError([
                    FieldError(field: "items", message: "must be at most \(OrderRequest.maximumItems)")
                ])
            }
            var detail: [String] = []
            let byChoice = Dictionary(existing.map { ($0.line.choice, $0) }, uniquingKeysWith: { first, _ in first })
            // Removed lines go first: the slot's load frees them (its trigger) before the growth
            // of the others is checked against the room left.
            // What the edit adds — every item, and what of it takes the oven's capacity — counted
            // apart from what it takes away: the slot's load is checked after the removals and the
            // smaller quantities are written, so the room asked for is the growth alone (the
            // schema refuses any single write that leaves a slot over its capacity, even when the
            // edit as a whole takes as many pizzas off as it puts on).
            var delta = 0, ovenDelta = 0
            for (number, line) in existing where quantities[line.choice] == nil {
                try OrderStore.deleteLine(number, order: id, in: db)
                detail.append("−\(line.quantity) \(line.label)")
            }
            for (number, line) in existing {
                guard let quantity = quantities[line.choice], quantity < line.quantity else { continue }
                try OrderStore.setQuantity(quantity, line: number, order: id, in: db)
            }
            var added: [OrderLine] = [], grown: [OrderLine] = []
            for choice in kept {
                let quantity = quantities[choice] ?? 0
                if byChoice[choice] != nil {
                    // Every line of the choice, as the writes below change each: an order booked
                    // before lines were merged by their chosen modifiers may hold two.
                    for (_, line) in existing where line.choice == choice && quantity != line.quantity {
                        guard quantity <= OrderRequest.maximumQuantity else {
                            throw OrderError.tooMany(name: line.label, quantity: quantity)
                        }
                        if quantity > line.quantity {
                            delta += quantity - line.quantity
                            ovenDelta += line.usesOven ? quantity - line.quantity : 0
                            grown.append(line.with(quantity: quantity - line.quantity))
                        }
                        detail.append("\(line.label) \(line.quantity)→\(quantity)")
                    }
                } else {
                    let item = OrderRequest.Item(
                        pizza: choice.pizza, quantity: quantity, variant: choice.variant,
                        modifiers: change.modifiersInRequestOrder(of: choice),
                        annotations: choice.annotations)
                    let snapshot = try Self.snapshot([item], for: header.pickupAt, zone: settings.timeZone, in: db)
                    added += snapshot
                    delta += quantity
                    ovenDelta += snapshot.reduce(0) { $0 + $1.slotUnits }
                    detail.append("+\(quantity) \(snapshot.first?.label ?? choice.pizza.description)")
                }
            }
            // What the edit adds takes the items' and modifiers' stock, counted together: a line
            // grown and a new line of the same item share what is left (found by the simulator).
            try Self.requireStock(for: grown + added, at: header.pickupAt, zone: settings.timeZone, in: db)
            if delta > 0 || ovenDelta > 0 {
                let schedule = ScheduleStore.schedule(settings, in: db)
                let slot = try Self.checkPickup(
                    header.pickupAt, pizzas: max(0, ovenDelta), claim: .add, override: override != nil,
                    settings: settings,
                    schedule: schedule, now: now, in: db)
                let room = try Self.requireRoom(
                    for: ovenDelta, at: header.pickupAt, slot: slot, override: override, settings: settings,
                    schedule: schedule, now: now, in: db)
                let stationsOver = try Self.requireStationRoom(
                    for: grown + added, in: slot, zone: settings.timeZone, override: override, in: db)
                try Self.admit(
                    room, stations: stationsOver, order: id, at: header.pickupAt, override: override, actor: actor,
                    now: now, in: db)
                if let override { detail.append(override.historyText) }
            }
            for (number, line) in existing where quantities[line.choice].map({ $0 > line.quantity }) == true {
                try OrderStore.setQuantity(quantities[line.choice] ?? line.quantity, line: number, order: id, in: db)
            }
            var next = (existing.map(\.number).max() ?? 0) + 1
            for line in added {
                try OrderStore.insertLine(line, number: Int(next), order: id, in: db)
                next += 1
            }
            // A line's annotations by its position in the order as it was (the line must stay).
            for (position, lineChange) in change.lineAnnotations.sorted(by: { $0.key < $1.key }) {
                guard existing.indices.contains(position - 1), quantities[existing[position - 1].line.choice] != nil
                else {
                    throw ValidationError([
                        FieldError(
                            field: "line-note",
                            message: "the order has no line \(position) that stays (it has \(existing.count))")
                    ])
                }
                let (number, line) = existing[position - 1]
                let annotations = lineChange.applied(to: line.annotations).normalized
                guard annotations != line.annotations else { continue }
                try OrderStore.setAnnotations(annotations, line: number, order: id, in: db)
                detail += annotations.changes(from: line.annotations, label: line.label)
            }
            var note = header.note
            switch change.note {
            case .set(let text)?: note = text; detail.append("note: \(text)")
            case .clear?: note = nil; detail.append("note removed")
            case nil: break
            }
            guard try OrderStore.finishEdit(id: id, version: header.version, note: note, at: now, in: db) else {
                throw OrderError.versionConflict(
                    orderID: id, expected: expectedVersion ?? header.version,
                    current: (try OrderStore.header(id: id, in: db)?.version) ?? header.version)
            }
            try OrderStore.appendEvent(
                order: id, kind: .edited, from: header.status, to: header.status,
                detail: detail.isEmpty ? "no change" : String(detail.joined(separator: ", ").prefix(1_000)),
                actor: actor, at: now, in: db)
            guard let edited = try OrderStore.header(id: id, in: db) else { throw OrderError.notFound(id.description) }
            return try OrderAssembler(now: now, in: db).order(edited)
        }
    }

    /// Takes back the order's last status change, made less than ``undoWindowMinutes`` ago: the
    /// status returns and the history gains an `undo` entry (it is never rewritten). Undoing a
    /// cancellation books the order again: it is checked like a booking at its slot (still in the
    /// hours, not past, the lead time, a pause, capacity); other undos take nothing from a slot.
    /// - Parameter override: staff's exception to the lead time and a pause, with its reason.
    /// - Throws: ``OrderError/illegalTransition(orderID:from:action:)`` when the last change was
    ///   the booking or an undo; ``OrderError/undoTooLate(orderID:minutes:)``; ``OrderError/slotFull(slot:remaining:requested:)``;
    ///   any booking refusal when undoing a cancellation.
    @discardableResult
    public func undo(id: Order.ID, by actor: String? = nil, override: StaffOverride? = nil) throws -> Order {
        let problems = Self.actorProblems(actor, override: override)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in
            guard let header = try OrderStore.header(id: id, in: db) else { throw OrderError.notFound(id.description) }
            guard let (event, last) = try OrderStore.lastStatusEvent(of: id, in: db), last.kind == .status,
                let previous = last.from,
                last.to == header.status
            else {
                throw OrderError.illegalTransition(orderID: id, from: header.status, action: .undo)
            }
            guard now.timeIntervalSince(last.at) <= Double(Self.undoWindowMinutes * 60) else {
                throw OrderError.undoTooLate(orderID: id, minutes: Self.undoWindowMinutes)
            }
            var detail = "undoes #\(event)"
            if !header.status.holdsCapacity, previous.holdsCapacity {
                guard try UserStore.isLiveUser(header.userID, in: db) else {
                    throw OrderError.customerErased(orderID: id, action: .undo)
                }
                let lines = try OrderStore.numberedLines(of: id, in: db).map(\.line)
                let pizzas = lines.reduce(0) { $0 + $1.slotUnits }
                let settings = try SettingsStore.current(in: db)
                // Its items take their stock again: what sold out since is refused by name.
                try Self.requireStock(for: lines, at: header.pickupAt, zone: settings.timeZone, in: db)
                let schedule = ScheduleStore.schedule(settings, in: db)
                let slot = try Self.checkPickup(
                    header.pickupAt, pizzas: pizzas, claim: .restore, override: override != nil,
                    settings: settings, schedule: schedule, now: now, in: db)
                let room = try Self.requireRoom(
                    for: pizzas, at: header.pickupAt, slot: slot, override: override, settings: settings,
                    schedule: schedule, now: now, in: db)
                let stationsOver = try Self.requireStationRoom(
                    for: lines, in: slot, zone: settings.timeZone, override: override, in: db)
                try Self.admit(
                    room, stations: stationsOver, order: id, at: header.pickupAt, override: override, actor: actor,
                    now: now, in: db)
                if let override { detail += ", " + override.historyText }
            } else if previous.isBooked, !header.status.isBooked, header.pickupAt > now {
                // Collected or a no-show by mistake, and back in the kitchen: if the hours changed
                // since and leave its pickup outside them, it is kept there (it was booked before the change).
                let settings = try SettingsStore.current(in: db)
                var inHours = false
                if case .slot = try ScheduleStore.schedule(settings, in: db).locate(header.pickupAt) { inHours = true }
                if !inHours {
                    try ScheduleStore.keep(id, at: now, in: db)
                    detail += ", kept outside the hours"
                }
            }
            try OrderStore.appendEvent(
                order: id, kind: .undo, from: header.status, to: previous, detail: detail,
                actor: actor, at: now, in: db)
            guard try OrderStore.setStatus(id: id, from: header.status, to: previous, actor: actor, at: now, in: db),
                let undone = try OrderStore.header(id: id, in: db)
            else {
                throw OrderError.illegalTransition(orderID: id, from: header.status, action: .undo)
            }
            return try OrderAssembler(now: now, in: db).order(undone)
        }
    }

    /// The order, if it may be moved or edited: placed, at `expectedVersion` when one is given.
    static func changeable(_ id: Order.ID, action: OrderAction, expectedVersion: Int?, in db: Connection) throws
        -> OrderStore.Header
    {
        guard let header = try OrderStore.header(id: id, in: db) else { throw OrderError.notFound(id.description) }
        if let expectedVersion, expectedVersion != header.version {
            throw OrderError.versionConflict(orderID: id, expected: expectedVersion, current: header.version)
        }
        guard header.status == .placed else {
            throw OrderError.illegalTransition(orderID: id, from: header.status, action: action)
        }
        guard try UserStore.isLiveUser(header.userID, in: db) else {
            throw OrderError.customerErased(orderID: id, action: action)
        }
        return header
    }
}
