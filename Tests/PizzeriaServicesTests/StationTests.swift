import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// Stations (migration 41): a category's items are prepared at one, each station other than the
/// oven has its capacity per slot, and every path that puts pieces in a slot keeps it — in the
/// library, naming the station, and in the schema for hand-written SQL.
@Suite("Stations: where items are prepared, each with its capacity per slot")
struct StationTests {
    /// The order fixture with a fryer (3 pieces a slot) preparing Fritti (Crocchè 2.50) and a
    /// Bevande category at no station (Acqua 1.50).
    struct Kitchen {
        let f: OrderFixture
        let friggitrice: Station
        let crocche, acqua: Pizza.ID
    }

    static func kitchen() throws -> Kitchen {
        let f = try OrderFixture()
        let menu = f.pizzeria.menu
        let friggitrice = try menu.addStation(name: "Friggitrice", capacity: 3)
        let fritti = try menu.addCategory(name: "Fritti", station: friggitrice.id)
        let bevande = try menu.addCategory(name: "Bevande", usesOven: false)
        var draft = PizzaDraft.blank
        draft.name = "Crocchè"
        draft.price = Money(cents: 250)
        draft.categoryID = fritti.id
        let crocche = try menu.save(draft).id
        draft.name = "Acqua"
        draft.price = Money(cents: 150)
        draft.categoryID = bevande.id
        let acqua = try menu.save(draft).id
        return Kitchen(f: f, friggitrice: friggitrice, crocche: crocche, acqua: acqua)
    }

    func book(_ k: Kitchen, _ items: [(Pizza.ID, Int)], at time: String = "19:00") throws -> Order {
        try k.f.pizzeria.orders.place(
            OrderRequest(
                user: try k.f.user("anna"), items: items.map { .init(pizza: $0.0, quantity: $0.1) },
                pickup: try k.f.at(time))
        ).order
    }

    /// A hand-written statement's outcome: `accepted`, or the schema's message refusing it.
    static func refusal(of sql: String, _ arguments: [any DatabaseValueConvertible], in k: Kitchen) -> String {
        do {
            try k.f.pizzeria.database.write { db in try db.run(sql, arguments) }
            return "accepted"
        } catch let error as DatabaseError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    func load(_ k: Kitchen, at time: String) throws -> Int {
        try k.f.pizzeria.database.read { db in
            try StationStore.loads(pickupAt: PickupTime.utc(try k.f.at(time)), in: db)[k.friggitrice.id] ?? 0
        }
    }

    @Test("a new file has Forno holding the slot capacity; categories prepare at a station or none; lines keep theirs")
    func stationsAndCategories() throws {
        let k = try Self.kitchen()
        let menu = k.f.pizzeria.menu
        let stations = try menu.stations()
        #expect(stations.map(\.name) == ["Forno", "Friggitrice"])
        #expect(stations[0].holdsSlotCapacity && stations[0].capacity == nil)
        let categories = try menu.categories()
        #expect(categories.first { $0.name == "Pizze" }?.stationID == stations[0].id)
        #expect(
            categories.first { $0.name == "Fritti" }.map { ($0.stationID, $0.usesOven) } ?? (nil, true) == (
                k.friggitrice.id, false
            ))
        #expect(
            categories.first { $0.name == "Bevande" }.map { ($0.stationID, $0.usesOven) } ?? (nil, true) == (nil, false)
        )
        let order = try book(k, [(try k.f.pizza("Margherita"), 2), (k.crocche, 2), (k.acqua, 1)])
        #expect(order.lines.map(\.stationID) == [stations[0].id, k.friggitrice.id, nil])
        // The pizzas take the slot's capacity, the fritti the fryer's, the water nothing.
        #expect(try load(k, at: "19:00") == 2)
        // Moving a category to another station changes new lines, not booked ones.
        let fritti = try menu.category(named: "Fritti")
        let edited = try menu.editCategory(fritti.id, station: .some(stations[0].id))
        #expect(edited.usesOven && edited.stationID == stations[0].id)
        #expect(try k.f.pizzeria.orders.order(id: order.id)?.lines[1].stationID == k.friggitrice.id)
        let back = try menu.editCategory(fritti.id, usesOven: false)
        #expect(back.stationID == nil && !back.usesOven)
        #expect(try Maintenance.check(path: k.f.base.path, now: k.f.now).domainProblems.isEmpty)
    }

    @Test(
        "booking, moving, delaying, editing and undoing past a station's capacity are refused by name; nothing written")
    func everyPathKeepsTheCapacity() throws {
        let k = try Self.kitchen()
        let orders = k.f.pizzeria.orders
        let first = try book(k, [(k.crocche, 2)])
        let before = try k.f.base.snapshot()
        let refused = #expect(throws: OrderError.self) { try book(k, [(k.crocche, 2)]) }
        #expect(
            refused?.description.contains("Friggitrice makes only 1 more in the") == true,
            "\(String(describing: refused))")
        #expect(refused?.description.contains("station edit Friggitrice --capacity N") == true)
        #expect(try k.f.base.snapshot() == before)
        // A second order elsewhere cannot be moved, delayed or edited into the full fryer.
        let other = try book(k, [(k.crocche, 2)], at: "19:15")
        #expect(throws: OrderError.self) { try orders.move(id: other.id, to: try k.f.at("19:00")) }
        _ = try book(k, [(k.crocche, 2)], at: "19:30")
        #expect(throws: DelayError.self) { try orders.delay(.orders([other.id]), byMinutes: 15) }
        var change = OrderEdit()
        change.add = [.init(pizza: k.crocche, quantity: 2)]
        #expect(throws: OrderError.self) { try orders.edit(id: first.id, change) }
        // Pizzas are the oven's: the fryer being full does not stop them.
        var pizzas = OrderEdit()
        pizzas.add = [.init(pizza: try k.f.pizza("Margherita"), quantity: 2)]
        _ = try orders.edit(id: first.id, pizzas)
        // A cancellation frees the fryer; booking it again, the undo is refused by name.
        _ = try orders.cancel(id: first.id)
        #expect(try load(k, at: "19:00") == 0)
        _ = try book(k, [(k.crocche, 2)])
        let undo = #expect(throws: OrderError.self) { try orders.undo(id: first.id) }
        #expect(undo?.description.contains("Friggitrice") == true)
        #expect(try load(k, at: "19:00") == 2)
        // A capacity below what a slot ahead holds is refused by name, as the oven's is; lowered
        // by hand in SQL, check reports the slot ahead as overbooked.
        let beforeEdit = try k.f.base.snapshot()
        let lower = #expect(throws: MenuError.self) {
            try k.f.pizzeria.menu.editStation(k.friggitrice.id, capacity: .some(1))
        }
        #expect(
            lower?.description.contains("would make fewer pieces than 3 future slots") == true,
            "\(String(describing: lower))")
        #expect(try k.f.base.snapshot() == beforeEdit)
        try k.f.pizzeria.database.write { db in
            try db.run("UPDATE stations SET capacity = 1 WHERE id = ?", [k.friggitrice.id])
        }
        let problems = try Maintenance.check(path: k.f.base.path, now: k.f.now).domainProblems
        #expect(problems.contains { $0.table == "station_loads" && $0.problem.contains("overbooked") }, "\(problems)")
        _ = try k.f.pizzeria.menu.editStation(k.friggitrice.id, capacity: .some(nil))
        _ = try book(k, [(k.crocche, 10)])
        #expect(try load(k, at: "19:00") == 12)
    }

    @Test("a staff override passes a station's capacity by its margin, recorded for the station; the schema holds it")
    func overrideMargin() throws {
        let k = try Self.kitchen()
        let orders = k.f.pizzeria.orders
        let why = StaffOverride(reason: "walk-in")
        func overrides() throws -> [String] {
            try k.f.pizzeria.database.read { db in
                try db.fetchAll(
                    "SELECT coalesce(CAST(station_id AS TEXT), 'slot') AS station, pizzas FROM capacity_overrides ORDER BY id"
                ) { "\(try $0.string("station")):\(try $0.int("pizzas"))" }
            }
        }
        func place(_ items: [(Pizza.ID, Int)], at time: String = "19:00", override: StaffOverride?) throws -> Order {
            try orders.place(
                OrderRequest(
                    user: try k.f.user("anna"), items: items.map { .init(pizza: $0.0, quantity: $0.1) },
                    pickup: try k.f.at(time)), by: "giulia", override: override
            ).order
        }
        let first = try book(k, [(k.crocche, 2)])
        let second = try book(k, [(k.crocche, 1)])
        // The fryer is full (3): a customer is refused, staff may pass it by a quarter (1 piece).
        #expect(throws: OrderError.self) { try book(k, [(k.crocche, 1)]) }
        let squeezed = try place([(k.crocche, 1), (try k.f.pizza("Margherita"), 1)], override: why)
        #expect(try load(k, at: "19:00") == 4)
        // Only the fryer needed the override: one record, for the station.
        #expect(try overrides() == ["\(k.friggitrice.id):1"])
        let before = try k.f.base.snapshot()
        let over = #expect(throws: OrderError.self) { try place([(k.crocche, 1)], override: why) }
        #expect(
            over?.description.contains(
                "Friggitrice makes 3 in the 2026-12-01 19:00 slot and has 4 booked: an override books at most 1 over")
                == true, "\(String(describing: over))")
        #expect(try k.f.base.snapshot() == before)
        // A move and an edit with an override take the same margin; the allowance goes with its order.
        let later = try book(k, [(k.crocche, 1)], at: "19:15")
        #expect(throws: OrderError.self) {
            try orders.move(id: later.id, to: try k.f.at("19:00"), by: "giulia", override: why)
        }
        _ = try orders.cancel(id: squeezed.id)
        #expect(try load(k, at: "19:00") == 3)
        _ = try orders.move(id: later.id, to: try k.f.at("19:00"), by: "giulia", override: why)
        #expect(try load(k, at: "19:00") == 4)
        #expect(try overrides() == ["\(k.friggitrice.id):1", "\(k.friggitrice.id):1"])
        // The schema: past the margin, an override for the oven's station, and a customer's order
        // let into the room an override made (the first order cancelled, the second grown by hand).
        func refusal(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) -> String {
            Self.refusal(of: sql, arguments, in: k)
        }
        #expect(
            refusal("UPDATE order_lines SET quantity = 3 WHERE order_id = ?", [first.id]).contains(
                "station_capacity_exceeded"))
        #expect(
            refusal(
                """
                INSERT INTO capacity_overrides (order_id, pickup_at, pizzas, station_id, reason, actor, at)
                VALUES (?, '2026-12-01T18:00:00Z', 1, 1, 'x', 'giulia', '2026-12-01T10:00:00Z')
                """, [first.id]
            ).contains("capacity_override_station"))
        #expect(
            refusal("UPDATE capacity_overrides SET station_id = NULL").contains("capacity_overrides_append_only"))
        _ = try orders.cancel(id: first.id)
        #expect(try load(k, at: "19:00") == 2)
        #expect(
            refusal("UPDATE order_lines SET quantity = 3 WHERE order_id = ?", [second.id]).contains(
                "only a staff override lets an order past its capacity"))
        #expect(try load(k, at: "19:00") == 2)
        #expect(try Maintenance.check(path: k.f.base.path, now: k.f.now).domainProblems.isEmpty)
    }

    @Test("a party spreads its fritti over its slots by the fryer's room, its pizzas by the oven's; drinks ride first")
    func partyShares() throws {
        let k = try Self.kitchen()
        let orders = k.f.pizzeria.orders
        _ = try book(k, [(k.crocche, 2)])
        func party(_ items: [(Pizza.ID, Int)], at time: String = "19:00") throws -> [Order] {
            try orders.placeParty(
                OrderRequest(
                    user: try k.f.user("anna"), items: items.map { .init(pizza: $0.0, quantity: $0.1) },
                    pickup: try k.f.at(time))
            ).party.orders
        }
        // Fryer 3 a slot (2 taken at 19:00), oven 12: 6 crocchè → 1, 3, 2; the pizzas all at 19:00.
        let spread = try party([(k.crocche, 6), (try k.f.pizza("Margherita"), 4), (k.acqua, 2)])
        #expect(
            spread.map { $0.lines.map { "\($0.quantity) \($0.pizzaName)" } } == [
                ["1 Crocchè", "4 Margherita", "2 Acqua"], ["3 Crocchè"], ["2 Crocchè"],
            ])
        #expect(try load(k, at: "19:00") == 3 && load(k, at: "19:15") == 3 && load(k, at: "19:30") == 2)
        // Drinks alone, or no room asked at all, are one order (this trapped: no slot was chosen).
        #expect(try party([(k.acqua, 3)], at: "20:00").count == 1)
        // A station with no limit beside pizzas over three slots (its room summed over the run
        // overflowed, and trapped): its items ride with the first order.
        let bar = try k.f.pizzeria.menu.addStation(name: "Bar")
        let cocktail = try k.f.pizzeria.menu.addCategory(name: "Cocktail", station: bar.id)
        var draft = PizzaDraft.blank
        draft.name = "Spritz"
        draft.price = Money(cents: 500)
        draft.categoryID = cocktail.id
        let spritz = try k.f.pizzeria.menu.save(draft).id
        let long = try party(
            [(try k.f.pizza("Margherita"), 20), (try k.f.pizza("Marinara"), 10), (spritz, 2)], at: "20:30")
        #expect(long.count == 3 && long[0].lines.contains { $0.pizzaName == "Spritz" && $0.quantity == 2 })
        // More fritti than the run of slots holds is refused naming the fryer; nothing written.
        let before = try k.f.base.snapshot()
        let refused = #expect(throws: OrderError.self) { try party([(k.crocche, 20)], at: "22:00") }
        #expect(
            refused?.description.contains("a party's 20 pieces at Friggitrice do not fit the slots from") == true,
            "\(String(describing: refused))")
        #expect(try k.f.base.snapshot() == before)
        #expect(try Maintenance.check(path: k.f.base.path, now: k.f.now).domainProblems.isEmpty)
    }

    @Test("the schema keeps station loads from their lines and refuses what the library refuses")
    func schemaRules() throws {
        let k = try Self.kitchen()
        let order = try book(k, [(k.crocche, 3)])
        func refusal(_ sql: String, _ arguments: [any DatabaseValueConvertible] = []) -> String {
            Self.refusal(of: sql, arguments, in: k)
        }
        #expect(refusal("UPDATE station_loads SET booked = 0").contains("station_loads_derived"))
        #expect(refusal("DELETE FROM station_loads").contains("station_loads_derived"))
        #expect(
            refusal("UPDATE order_lines SET quantity = 4 WHERE order_id = ?", [order.id]).contains(
                "station_capacity_exceeded"))
        #expect(
            refusal("UPDATE order_lines SET station_id = 1 WHERE order_id = ?", [order.id]).contains(
                "order_lines_station"))
        #expect(refusal("DELETE FROM stations WHERE name = 'Forno'").contains("station_in_use"))
        #expect(refusal("DELETE FROM stations WHERE name = 'Friggitrice'").contains("station_in_use"))
        #expect(refusal("UPDATE stations SET holds_slot_capacity = 0").contains("station_fixed"))
        #expect(refusal("UPDATE stations SET capacity = 5 WHERE name = 'Forno'").contains("CHECK"))
        #expect(
            refusal("INSERT INTO station_loads (station_id, pickup_at) VALUES (1, '2026-12-01T18:00:00Z')").contains(
                "station_loads_derived"))
        // A line written without its station takes its category's, and counts.
        #expect(try load(k, at: "19:00") == 3)
        #expect(refusal("UPDATE order_lines SET quantity = 2 WHERE order_id = ?", [order.id]) == "accepted")
        #expect(try load(k, at: "19:00") == 2)
        // A hand category change keeps uses_oven and station_id together, both ways.
        #expect(refusal("UPDATE categories SET uses_oven = 1 WHERE name = 'Bevande'") == "accepted")
        #expect(try k.f.pizzeria.menu.category(named: "Bevande").stationID == Station.ID(1))
        #expect(
            refusal("UPDATE categories SET station_id = ? WHERE name = 'Bevande'", [k.friggitrice.id]) == "accepted")
        #expect(try k.f.pizzeria.menu.category(named: "Bevande").usesOven == false)
        #expect(try Maintenance.check(path: k.f.base.path, now: k.f.now).domainProblems.isEmpty)
    }

    @Test("check finds a drifted station load and --repair makes it again from the lines")
    func checkRepairs() throws {
        let k = try Self.kitchen()
        _ = try book(k, [(k.crocche, 2)])
        try k.f.pizzeria.database.write { db in
            try db.run("DROP TRIGGER station_loads_booked_derived")
            try db.run("UPDATE station_loads SET booked = 0")
        }
        let problems = try Maintenance.check(path: k.f.base.path, now: k.f.now).domainProblems
        #expect(problems.contains { $0.table == "station_loads" && $0.problem == "booked is 0" && $0.repairable })
        _ = try Maintenance.repair(path: k.f.base.path, now: k.f.now)
        #expect(try load(k, at: "19:00") == 2)
        #expect(try Maintenance.check(path: k.f.base.path, now: k.f.now).domainProblems.isEmpty)
    }

    @Test("station names are unique and limited; Forno is renamed, never removed; a used station stays")
    func stationRules() throws {
        let k = try Self.kitchen()
        let menu = k.f.pizzeria.menu
        #expect(throws: MenuError.self) { try menu.addStation(name: "friggitrice") }
        let long = #expect(throws: ValidationError.self) {
            try menu.addStation(name: String(repeating: "x", count: 41))
        }
        #expect(long?.errors.map(\.field) == ["name"])
        let capacity = #expect(throws: ValidationError.self) { try menu.addStation(name: "Bar", capacity: 0) }
        #expect(capacity?.errors.map(\.field) == ["capacity"])
        let forno = try menu.station(named: "forno")
        #expect(throws: ValidationError.self) { try menu.editStation(forno.id, capacity: .some(5)) }
        #expect(throws: MenuError.self) { try menu.removeStation(forno.id) }
        #expect(throws: MenuError.self) { try menu.removeStation(k.friggitrice.id) }
        let renamed = try menu.editStation(forno.id, name: "Forno a legna")
        #expect(renamed.name == "Forno a legna" && renamed.holdsSlotCapacity)
        let bar = try menu.addStation(name: "Bar")
        try menu.removeStation(bar.id)
        #expect(try menu.stations().map(\.name) == ["Forno a legna", "Friggitrice"])
    }

    @Test("bump: each station marks its part done; the last makes the order ready; the board and tickets follow")
    func bump() throws {
        let k = try Self.kitchen()
        let orders = k.f.pizzeria.orders
        let forno = try k.f.pizzeria.menu.station(named: "Forno")
        let order = try book(k, [(try k.f.pizza("Margherita"), 2), (k.crocche, 1), (k.acqua, 1)])
        // Each station's board and ticket hold what it makes; the water is the counter's.
        let fryerBoard = try orders.board(day: LocalDate("2026-12-01"), station: k.friggitrice.id)
        #expect(fryerBoard.station == "Friggitrice")
        #expect(fryerBoard.slots.first?.bake.map(\.item) == ["Crocchè"] && fryerBoard.slots.first?.pieces == 1)
        let all = try orders.board(day: LocalDate("2026-12-01"))
        #expect(all.slots.first?.bake.map(\.station) == ["Forno", "Friggitrice"])
        #expect(all.slots.first?.orders.first?.counter == "1 × Acqua" && all.slots.first?.pieces == 3)
        let ticket = try orders.ticket(of: order.id, station: k.friggitrice.id)
        #expect(ticket.lines.map(\.pizzaName) == ["Crocchè"] && ticket.text(width: 32).contains("FRIGGITRICE"))
        // The fryer is done: it leaves the fryer's board, the order still owes the oven.
        let first = try orders.bump(id: order.id, station: k.friggitrice.id, by: "giulia")
        #expect(!first.madeReady && first.owing == ["Forno"] && first.order.status == .placed)
        #expect(try orders.board(day: LocalDate("2026-12-01"), station: k.friggitrice.id).slots.isEmpty)
        let entry = try orders.board(day: LocalDate("2026-12-01")).slots.first?.orders.first
        #expect(entry?.owing == ["Forno"] && entry?.done == ["Friggitrice"])
        #expect(try orders.bump(id: order.id, station: k.friggitrice.id).alreadyDone)
        // Nothing of the order at a station, or a station that is not there: refused by name.
        let bar = try k.f.pizzeria.menu.addStation(name: "Bar")
        let nothing = #expect(throws: OrderError.self) { try orders.bump(id: order.id, station: bar.id) }
        #expect(nothing?.description.contains("has nothing Bar makes; its stations: Forno, Friggitrice") == true)
        // The oven done too: the order is ready, its history says so and who.
        let last = try orders.bump(id: order.id, station: forno.id, by: "giulia")
        #expect(last.madeReady && last.order.status == .ready && last.owing.isEmpty)
        #expect(last.order.history.last?.detail == "every station done" && last.order.history.last?.actor == "giulia")
        #expect(throws: OrderError.self) { try orders.bump(id: order.id, station: forno.id) }
        // Undoing ready takes the bumps back.
        _ = try orders.undo(id: order.id)
        let again = try orders.board(day: LocalDate("2026-12-01")).slots.first?.orders.first
        #expect(again?.done == [] && again?.owing == ["Forno", "Friggitrice"])
    }
}
