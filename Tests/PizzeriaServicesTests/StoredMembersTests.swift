import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// A model's stored members are read by one declaration (`init(reading:)`) for rows and for
/// JSON alike; these tests keep the store's column lists, the decoders and the JSON in step.
@Suite("Stored members: one reading declaration for rows and JSON")
struct StoredMembersTests {
    /// Records the keys a model reads, answering each with a placeholder.
    struct RecordingReader: MemberReader {
        var keys: [String] = []
        mutating func text(_ key: StaticString) throws -> String { record(key, "x") }
        mutating func optionalText(_ key: StaticString) throws -> String? { record(key, nil) }
        mutating func number(_ key: StaticString) throws -> Int64 { record(key, 1) }
        mutating func optionalNumber(_ key: StaticString) throws -> Int64? { record(key, nil) }
        mutating func optionalFlag(_ key: StaticString) throws -> Bool? { record(key, nil) }
        mutating func id<Entity>(_ key: StaticString, as type: Identifier<Entity>.Type) throws -> Identifier<Entity> {
            record(key, Identifier<Entity>(uuid: UUID()))
        }
        mutating func timestamp(_ key: StaticString) throws -> Date { record(key, Date(timeIntervalSince1970: 0)) }
        mutating func optionalTimestamp(_ key: StaticString) throws -> Date? { record(key, nil) }

        mutating func decoded<Value: Decodable>(_ key: StaticString, as type: Value.Type) throws -> Value? {
            record(key, nil)
        }
        mutating func allergens(_ key: StaticString) throws -> Set<Allergen> { record(key, []) }
        mutating func assembled<Value: Decodable>(_ key: StaticString, as type: Value.Type) throws -> Value? { nil }
        mutating func required<Value: Decodable>(_ key: StaticString, placeholder: Value) throws -> Value {
            record(key, placeholder)
        }
        mutating func parsed<Value>(
            _ key: StaticString, form: @autoclosure () -> String, placeholder: Value, _ parse: (String) -> Value?
        ) throws -> Value { record(key, placeholder) }
        mutating func optionalParsed<Value>(
            _ key: StaticString, form: @autoclosure () -> String, _ parse: (String) -> Value?
        ) throws
            -> Value?
        { record(key, nil) }

        private mutating func record<T>(_ key: StaticString, _ value: T) -> T {
            keys.append(key.description)
            return value
        }
    }

    static func keys<Model: StoredMembers>(of type: Model.Type) throws -> [String] {
        var reader = RecordingReader()
        _ = try Model(reading: &reader)
        return reader.keys
    }

    /// The names of a store's column list (`a, b, (SELECT …) AS c` → a, b, c).
    static func names(_ columns: String) -> [String] {
        var names: [String] = []
        var depth = 0
        var current = ""
        for character in columns + "," {
            switch character {
            case "(": depth += 1
            case ")": depth -= 1
            case "," where depth == 0:
                let item = current.trimmingCharacters(in: .whitespaces)
                names.append(item.components(separatedBy: " AS ").last ?? item)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        return names
    }

    @Test("each store selects exactly the columns its model reads")
    func columnsMatchTheReadingDeclaration() throws {
        #expect(try Self.keys(of: Pizza.self).sorted() == Self.names(PizzaStore.columns).sorted())
        #expect(try Self.keys(of: User.self).sorted() == Self.names(UserStore.columns).sorted())
        #expect(try Self.keys(of: Category.self).sorted() == Self.names(CategoryStore.columns).sorted())
        #expect(try Self.keys(of: Variant.self).sorted() == Self.names(VariantStore.columns).sorted())
        #expect(try Self.keys(of: ModifierGroup.self).sorted() == Self.names(ModifierStore.groupColumns).sorted())
        #expect(
            try Self.keys(of: Modifier.self).sorted()
                == Self.names(ModifierStore.columns).map { $0.replacingOccurrences(of: "m.", with: "") }.sorted())
        let changeColumns = Self.names(PizzaStore.changeColumns).filter { $0 != "id" && $0 != "pizza_id" }
        #expect(try Self.keys(of: PizzaChange.self).sorted() == changeColumns.sorted())
        let lineColumns = Self.names(OrderStore.lineColumns).filter { $0 != "l.order_id" && $0 != "l.line_no" }
        #expect(
            try Self.keys(of: OrderLine.self).sorted()
                == lineColumns.map { $0.replacingOccurrences(of: "l.", with: "") }.sorted())
    }

    @Test("rows and JSON read to the same values; JSON round-trips through the one declaration")
    func rowsAndJSONAgree() throws {
        let fixture = try Fixture()
        let pizza = try fixture.add("Diavola", 850)
        var draft = try fixture.pizzeria.menu.editDraft(for: pizza.id)
        draft.price = Money(cents: 900)
        let edited = try fixture.pizzeria.menu.save(draft)
        let user = try fixture.pizzeria.users.add(handle: "anna", displayName: "Anna")
        let history = try fixture.pizzeria.menu.history(of: pizza.id)
        #expect(history.map(\.change) == [.created, .edited])
        #expect(history.last?.oldPrice == Money(cents: 850))
        #expect(history.first?.oldPrice == nil)

        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        #expect(try fixture.pizzeria.menu.pizza(id: pizza.id) == edited)
        #expect(try decoder.decode(Pizza.self, from: encoder.encode(edited)) == edited)
        #expect(try decoder.decode(User.self, from: encoder.encode(user)) == user)
        #expect(try decoder.decode([PizzaChange].self, from: encoder.encode(history)) == history)
    }

    @Test("a row decoded with an id taken: that key is not read from its column, every other member is")
    func takenID() throws {
        let fixture = try Fixture()
        let pizza = try fixture.add("Diavola", 850)
        let normale = try #require(try fixture.pizzeria.menu.item(pizza.id).variants.first)
        // The row's pizza_id is not a UUID: decoded as stored it is refused; taking the id, the
        // column is passed over and the rest read by position as the statement resolved them.
        let sql = StatementKey(
            """
            SELECT id, 'not a uuid' AS pizza_id, name, position, is_default,
                   coalesce(price_cents, (SELECT p.price_cents FROM pizzas p WHERE p.id = pizza_variants.pizza_id)) AS price_cents
            FROM pizza_variants WHERE id = ?
            """)
        let (plain, taken) = try fixture.pizzeria.database.read { db in
            try db.withRows(sql, [normale.id.rawValue], VariantStore.Decoder.self) { rows in
                #expect(try rows.step())
                let plain = Result { try rows.decoder.decode(rows.row) }
                return (plain, try rows.decoder.decode(rows.row, taking: pizza.id, for: "pizza_id"))
            }
        }
        #expect(throws: DatabaseError.self) { try plain.get() }
        #expect(taken == normale)
        // Another key named: the id is read from its column as usual (and refused here).
        #expect(throws: DatabaseError.self) {
            try fixture.pizzeria.database.read { db in
                try db.withRows(sql, [normale.id.rawValue], VariantStore.Decoder.self) { rows in
                    _ = try rows.step()
                    return try rows.decoder.decode(rows.row, taking: pizza.id, for: "id")
                }
            }
        }
    }

    @Test("UUID text held as bytes: equal for the same text only; anything but 36 bytes of text refused")
    func uuidText() throws {
        let fixture = try Fixture()
        let texts = try fixture.pizzeria.database.read { db in
            try db.withRows(
                StatementKey(
                    """
                    SELECT column1 AS t FROM (VALUES ('7c3b0d4e-2a55-4d0b-9a63-3f1c0e6a9b10'),
                        ('7c3b0d4e-2a55-4d0b-9a63-3f1c0e6a9b10'), ('7c3b0d4e-2a55-4d0b-9a63-3f1c0e6a9b11'),
                        ('8c3b0d4e-2a55-4d0b-9a63-3f1c0e6a9b10'), ('7C3B0D4E-2A55-4D0B-9A63-3F1C0E6A9B10'),
                        ('7c3b0d4e'), (NULL), (36))
                    """), [], TextColumn.self
            ) { rows in
                var texts: [Result<UUIDText, any Error>] = []
                while try rows.step() { texts.append(Result { try UUIDText(rows.row, rows.decoder.column) }) }
                return texts
            }
        }
        let values = texts.prefix(5).compactMap { try? $0.get() }
        #expect(values.count == 5)
        #expect(values[0] == values[1])
        // The last byte, the first byte, the case: each makes another text.
        #expect(values[0] != values[2] && values[0] != values[3] && values[0] != values[4])
        for refused in texts.dropFirst(5) { #expect(throws: (any Error).self) { try refused.get() } }
    }

    struct TextColumn: RowDecoder {
        let column: Column
        init(columns: ColumnResolver) throws { column = try columns("t") }
        func decode(_ row: Row) throws -> Column { column }
    }

    @Test("JSON without a stored member is refused naming it")
    func missingMemberRefused() throws {
        let json = Data(
            #"{"id":"7c3b0d4e-2a55-4d0b-9a63-3f1c0e6a9b10","name":"Margherita","version":1,"created_at":"2026-12-01T18:00:00Z","updated_at":"2026-12-01T18:00:00Z"}"#
                .utf8)
        let error = #expect(throws: DecodingError.self) { try JSONDecoder().decode(Pizza.self, from: json) }
        guard case .keyNotFound(let key, _) = error else {
            Issue.record("expected keyNotFound, got \(String(describing: error))")
            return
        }
        #expect(key.stringValue == "price_cents")
    }

    @Test("a damaged stored time names the table, the row and the column")
    func damagedTimestampNamed() throws {
        let fixture = try Fixture()
        let pizza = try fixture.add("Marinara", 600)
        try fixture.pizzeria.database.write { db in
            try db.execute("PRAGMA ignore_check_constraints = ON")
            _ = try db.run("UPDATE pizzas SET updated_at = 'yesterday' WHERE id = ?", [pizza.id])
            try db.execute("PRAGMA ignore_check_constraints = OFF")
        }
        let error = #expect(throws: DataError.self) { try fixture.pizzeria.menu.pizza(id: pizza.id) }
        #expect(
            error
                == .damagedRow(
                    table: "pizzas", id: pizza.id.description,
                    problem: "updated_at 'yesterday' is not an ISO-8601 UTC time"))
    }

    /// Records the keys a shape writes, in its order.
    struct KeyRecorder: JSONMemberWriter {
        var keys: [String] = []
        mutating func member(_ key: StaticString, _ text: String?) throws { keys.append(key.description) }
        mutating func member(_ key: StaticString, _ number: Int64) throws { keys.append(key.description) }
        mutating func member(_ key: StaticString, _ flag: Bool) throws { keys.append(key.description) }
        mutating func member<Entity>(_ key: StaticString, id: Identifier<Entity>) throws {
            keys.append(key.description)
        }
        mutating func member(_ key: StaticString, timestamp: Date?) throws { keys.append(key.description) }
        mutating func member(_ key: StaticString, minute: Date) throws { keys.append(key.description) }
        mutating func member<Value: JSONMembers>(_ key: StaticString, object: Value?) throws {
            keys.append(key.description)
        }
        mutating func member<Element: JSONMembers>(_ key: StaticString, objects: [Element]) throws {
            keys.append(key.description)
        }
        mutating func member<Value: Encodable>(_ key: StaticString, encoded: Value) throws {
            keys.append(key.description)
        }
    }

    /// `value` written by its members and read back by them is `value`, and its members are
    /// written in sorted key order (the order the streaming writers rely on), each once.
    static func roundTrip<Model: Record & Equatable>(_ value: Model) throws {
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(Model.self, from: data) == value, "\(Model.self)")
        var recorder = KeyRecorder()
        try value.writeMembers(to: &recorder)
        #expect(!recorder.keys.isEmpty)
        #expect(recorder.keys == Array(Set(recorder.keys)).sorted(), "\(Model.self) writes its members out of order")
    }

    @Test("every record reads back what it writes, from a real file: one declaration, both ways")
    func recordsRoundTrip() throws {
        let fixture = try Fixture()
        let pizzeria = fixture.pizzeria
        let pizza = try fixture.add("Diavola", 850)
        let user = try pizzeria.users.add(handle: "anna", displayName: "Anna")
        let slot = try #require(try pizzeria.orders.availableSlots(pizzas: 2, limit: 1).slots.first)
        let order = try pizzeria.orders.place(
            OrderRequest(user: user.id, items: [.init(pizza: pizza.id, quantity: 2)], pickup: slot.start)
        ).order
        _ = try pizzeria.orders.advance(id: order.id)
        try pizzeria.navigation.push(user.id, [.pizza(id: pizza.id), .order(id: order.id)])

        try Self.roundTrip(try pizzeria.menu.item(pizza.id))
        let stored = try #require(try pizzeria.orders.order(id: order.id))
        try Self.roundTrip(stored)
        // A time zone no one has is refused, naming what it must be.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let text = String(decoding: try encoder.encode(stored), as: UTF8.self)
        let mars = text.replacingOccurrences(
            of: #""time_zone":"\#(stored.timeZone.identifier)""#, with: #""time_zone":"Mars/Olympus""#)
        #expect(mars != text)
        let error = #expect(throws: DecodingError.self) { try JSONDecoder().decode(Order.self, from: Data(mars.utf8)) }
        #expect(String(describing: error).contains("'Mars/Olympus' is not a known time zone"))
        for event in try pizzeria.orders.events(after: .start) { try Self.roundTrip(event) }
        try Self.roundTrip(slot)
        for usage in try pizzeria.orders.slots(on: order.serviceDay) { try Self.roundTrip(usage) }
        let sales = try pizzeria.orders.sales(from: order.serviceDay, to: order.serviceDay)
        try Self.roundTrip(sales)
        try Self.roundTrip(try pizzeria.navigation.state(of: user.id))
        for event in try pizzeria.navigation.history(of: user.id) { try Self.roundTrip(event) }
        for views in try pizzeria.navigation.mostViewed() { try Self.roundTrip(views) }
        try Self.roundTrip(try pizzeria.capacity.pause(until: slot.start, reason: "forno"))
        try Self.roundTrip(try pizzeria.capacity.rush(minutes: 20, until: nil))
        try Self.roundTrip(ShopEntry(name: "roma", path: "/srv/roma.sqlite"))
        try Self.roundTrip(OrphanedOrder(id: order.id, handle: "anna", pickupAt: slot.start, pickupLocal: slot.local))
    }

    @Test("a record's reading declaration refuses what it cannot read, naming the member")
    func recordRefusals() throws {
        // A status no order has: refused, naming the statuses.
        let event = #"{"at":"2026-12-01T18:00:00Z","kind":"status","to":"baked"}"#
        let status = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(OrderStatusChange.self, from: Data(event.utf8))
        }
        #expect(String(describing: status).contains("'baked' is not one of placed, preparing"))
        // A kind no group has is refused; a missing one reads as an extra (lines booked before kinds).
        let modifier = #"{"group":"Impasto","id":3,"kind":"bogus","name":"integrale","price_cents":100}"#
        let kind = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ChosenModifier.self, from: Data(modifier.utf8))
        }
        #expect(String(describing: kind).contains("'bogus' is not one of extra, removal, choice"))
        let missing = #"{"group":"Impasto","id":3,"name":"integrale","price_cents":100}"#
        #expect(try JSONDecoder().decode(ChosenModifier.self, from: Data(missing.utf8)).kind == .extra)
        // A date no calendar has.
        let slot =
            #"{"capacity":4,"offset_seconds":3600,"remaining":4,"service_day":"2026-13-01","start":"2026-12-01T18:00:00Z"}"#
        let bad = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AvailableSlot.self, from: Data(slot.utf8))
        }
        #expect(String(describing: bad).contains("is not a date YYYY-MM-DD"))
    }

    /// Each row of `sql` decoded as `Model`, and the model's arguments for `keys` against the
    /// row's own values: the declaration writes what it reads.
    static func writesWhatItReads<Model: StoredMembers>(
        _ type: Model.Type, _ sql: String, keys: [String], in pizzeria: Pizzeria
    ) throws -> Int {
        try pizzeria.database.read { db in
            try db.withRows(StatementKey(sql), [], StoredDecoder<Model>.self) { rows in
                var count = 0
                while try rows.step() {
                    let model = try rows.decoder.decode(rows.row)
                    let stored = try keys.map { rows.row[try rows.row.column($0)] }
                    #expect(try model.arguments(named: keys) == stored, "\(Model.self)")
                    count += 1
                }
                return count
            }
        }
    }

    @Test("a line's annotations are stored in their columns: the values the store binds are the line's members")
    func annotationColumnsAreMembers() throws {
        let f = try OrderFixture()
        let order = try f.pizzeria.orders.place(
            OrderRequest(
                user: try f.user("anna"), items: [.init(pizza: try f.pizza("Margherita"), note: "ben cotta")],
                pickup: try f.at("19:00"))
        ).order
        let line = try #require(order.lines.first)
        let keys = LineAnnotations.columns.map(\.description)
        #expect(keys.count == line.annotations.values.count)
        #expect(try line.arguments(named: keys) == line.annotations.values.map(\.databaseValue))
        #expect(try line.with(annotations: LineAnnotations()).arguments(named: keys).allSatisfy { $0 == .null })
        #expect(line.with(annotations: line.annotations) == line)
        let rows = try Self.writesWhatItReads(
            OrderLine.self, "SELECT " + OrderStore.lineColumns + " FROM order_lines l", keys: keys, in: f.pizzeria)
        #expect(rows == 1)
    }

    @Test("a stored record's arguments are its row: the declaration that reads a column writes it back")
    func argumentsAreTheRow() throws {
        let f = try OrderFixture()
        let pizzeria = f.pizzeria
        var draft = try pizzeria.menu.editDraft(for: try f.pizza("Margherita"))
        draft.price = Money(cents: 650)
        _ = try pizzeria.menu.save(draft)
        let order = try pizzeria.orders.place(
            OrderRequest(
                user: try f.user("anna"),
                items: [.init(pizza: try f.pizza("Margherita"), quantity: 2, note: "ben cotta")],
                pickup: try f.at("19:00"))
        ).order
        _ = try pizzeria.users.erase(id: try f.user("marco"), by: "giulia")
        func keys(_ columns: String, dropping: Set<String> = [], prefix: String = "") -> [String] {
            Self.names(columns).map { $0.replacingOccurrences(of: prefix, with: "") }.filter { !dropping.contains($0) }
        }
        #expect(
            try Self.writesWhatItReads(
                Pizza.self, "SELECT \(PizzaStore.columns) FROM pizzas", keys: keys(PizzaStore.columns), in: pizzeria)
                > 0)
        #expect(
            try Self.writesWhatItReads(
                User.self, "SELECT \(UserStore.columns) FROM users", keys: keys(UserStore.columns), in: pizzeria) > 1)
        #expect(
            try Self.writesWhatItReads(
                Category.self, "SELECT \(CategoryStore.columns) FROM categories", keys: keys(CategoryStore.columns),
                in: pizzeria) > 0)
        #expect(
            try Self.writesWhatItReads(
                Station.self, "SELECT \(StationStore.columns) FROM stations", keys: keys(StationStore.columns),
                in: pizzeria) > 0)
        let changes = "SELECT \(PizzaStore.changeColumns) FROM pizza_history"
        #expect(
            try Self.writesWhatItReads(
                PizzaChange.self, changes, keys: keys(PizzaStore.changeColumns, dropping: ["id", "pizza_id"]),
                in: pizzeria) > 1)
        let lines = "SELECT \(OrderStore.lineColumns) FROM order_lines l WHERE l.order_id = '\(order.id)'"
        #expect(
            try Self.writesWhatItReads(
                OrderLine.self, lines,
                keys: keys(OrderStore.lineColumns, dropping: ["order_id", "line_no", "modifiers"], prefix: "l."),
                in: pizzeria) == 1)
        _ = try pizzeria.payments.pay(
            PaymentRequest(order: order.id, method: .cash, tendered: Money(cents: 5000)), by: "giulia")
        _ = try pizzeria.payments.refund(order: order.id, amount: Money(cents: 100), reason: "crosta", by: "giulia")
        let payments = "SELECT \(PaymentStore.paymentColumns) FROM payments p"
        #expect(
            try Self.writesWhatItReads(
                Payment.self, payments, keys: keys(PaymentStore.paymentColumns, prefix: "p."), in: pizzeria) == 1)
        let refunds = "SELECT \(PaymentStore.refundColumns) FROM refunds r JOIN payments p ON p.id = r.payment_id"
        #expect(
            try Self.writesWhatItReads(
                Refund.self, refunds,
                keys: keys(PaymentStore.refundColumns, prefix: "r.").map {
                    $0.replacingOccurrences(of: "p.", with: "")
                },
                in: pizzeria) == 1)
        let money = try pizzeria.payments.payments(of: order.id)
        for payment in money.payments { try Self.roundTrip(payment) }
        for refund in money.refunds { try Self.roundTrip(refund) }
        // A member the row does not store as a value is refused by name, never bound as NULL.
        let pizza = try #require(try pizzeria.menu.pizza(id: try f.pizza("Margherita")))
        #expect(throws: UnstoredMember.self) { try pizza.arguments(["price"]) }
        #expect(User.insertStatement(["id", "handle"]) == "INSERT INTO users (id, handle) VALUES (?, ?)")
    }
}
