import Foundation
import PizzeriaServices
import PizzeriaTestSupport
import Testing
@testable import PizzeriaCLI

/// The CLI streams the documented shapes with its own writer (``JSONTextWriter``, from each
/// model's ``JSONMembers`` list) for speed; these tests hold it to the bytes Foundation's
/// `JSONEncoder` writes for the same values, on every documented shape and on strings chosen to
/// break an escaper.
@Suite("CLI: JSON output is byte for byte JSONEncoder's")
struct JSONOutputTests {
    func foundation<T: Encodable>(_ value: T, pretty: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func ours<T: Encodable>(_ value: T, pretty: Bool) throws -> String {
        var writer = JSONTextWriter(pretty: pretty)
        try writer.encoded(value)
        return writer.bytes.text
    }

    /// A list the way `ListOutput` writes it, streaming each element's members (pretty, or one
    /// compact object per line for `--nl`).
    func direct<T: JSONMembers>(_ items: [T], lines: Bool = false) throws -> String {
        let text = Captured()
        let console = Console(out: text.append, err: { _ in })
        let context = Context(databasePath: "unused", json: true, console: console, terminal: .none, environment: [:])
        if lines {
            try context.list.jsonLines { each in try items.forEach(each) }
        } else {
            try context.list.json { each in try items.forEach(each) }
        }
        return text.text
    }

    /// The streamed list shapes against JSONEncoder on the same rows: the array, and `--nl`.
    func expectSameDirect<T: JSONMembers>(_ items: [T], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try direct(items) == (try foundation(items, pretty: true)) + "\n", sourceLocation: sourceLocation)
        #expect(try direct([T]()) == (try foundation([T](), pretty: true)) + "\n", sourceLocation: sourceLocation)
        let lines = try items.map { try foundation($0, pretty: false) + "\n" }.joined()
        #expect(try direct(items, lines: true) == lines, sourceLocation: sourceLocation)
    }

    func expectSame<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for pretty in [true, false] {
            let expected = try foundation(value, pretty: pretty), actual = try ours(value, pretty: pretty)
            #expect(actual == expected, "pretty: \(pretty)", sourceLocation: sourceLocation)
        }
    }

    struct Odd: Encodable {
        var text: String
        var empty: [Int] = []
        var emptyObject: [String: Int] = [:]
        var nestedEmpty: [[String]] = [[], ["x"]]
        var missing: Int? = nil
        var present: Int? = 7
        var number: Double = 0.1
        var whole: Double = 2
        var large: Int64 = .max
        var small: Int = .min
        var flags: [Bool] = [true, false]
        var keys: [String: String] = ["b": "1", "B": "2", "é": "3", "_": "4", "a b": "5", "": "6"]
        var date = Date(timeIntervalSince1970: 1_700_000_000.25)
    }

    /// Uses every corner of the Encoder protocol: nested containers and super encoders.
    struct Corners: Encodable {
        enum Keys: String, CodingKey { case base, nested, list, a }
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .a)
            try Odd(text: "super").encode(to: container.superEncoder(forKey: .base))
            try "plain super".encode(to: container.superEncoder())
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .nested)
            try nested.encodeNil(forKey: .a)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(true)
            try [1, 2].encode(to: list.superEncoder())
            var inner = list.nestedUnkeyedContainer()
            try inner.encode("x")
            var object = list.nestedContainer(keyedBy: Keys.self)
            try object.encode(2.5, forKey: .a)
        }
    }

    @Test("strings that need escaping, Unicode, empty and nested containers, numbers, optionals, dictionaries")
    func oddValues() throws {
        var samples = [
            "", "plain", "quote \" backslash \\ slash / tab \t newline \n return \r",
            "\u{0}\u{1}\u{8}\u{c}\u{1b}\u{1f}\u{7f}", "é ß ﬁ İ Ω 🍕 👩‍👩‍👧", "\u{2028}\u{2029}\u{feff}\u{202e}", "a\u{301}",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let scalars = (0..<Int.random(in: 0...12, using: &generator)).compactMap { _ in
                Unicode.Scalar(
                    [0x00, 0x1F, 0x22, 0x5C, 0x2F, 0x41, 0x7F, 0xE9, 0x2028, 0x1F355][
                        Int.random(in: 0..<10, using: &generator)] as UInt32)
            }
            samples.append(String(String.UnicodeScalarView(scalars)))
        }
        for text in samples {
            try expectSame(Odd(text: text))
            try expectSame([text: [text]])
        }
        try expectSame([Odd]())
        try expectSame([Odd(text: "one"), Odd(text: "two")])
        try expectSame(Extended(base: Odd(text: "base"), key: "extra", extra: [1, 2]))
        try expectSame(Corners())
    }

    @Test("every model the CLI prints, read back from a real database")
    func models() throws {
        let directory = TemporaryDirectory()
        let pizzeria = try Pizzeria.open(
            path: directory.path("json.sqlite"), now: { Date(timeIntervalSince1970: 1_800_000_000) })
        var draft = PizzaDraft.blank
        draft.name = "Quattro \"Stagioni\" / ½"
        draft.price = Money(cents: 950)
        let pizza = try pizzeria.menu.save(draft)
        let user = try pizzeria.users.add(handle: "anna", displayName: "Anna \"B\" \\ é")
        // 19:00 two days later in the pizzeria's zone, parsed as the CLI parses it.
        let pickup = try pizzeria.orders.pickup(
            parsing: Timestamp.string(from: Date(timeIntervalSince1970: 1_800_000_000 + 2 * 86_400)).prefix(10)
                + "T19:00")
        let order = try pizzeria.orders.place(
            OrderRequest(user: user.id, items: [.init(pizza: pizza.id, quantity: 2)], pickup: pickup)
        ).order
        try pizzeria.navigation.push(user.id, [.pizza(id: pizza.id), .order(id: order.id)])
        try expectSame(try pizzeria.menu.list())
        try expectSame(pizza)
        try expectSame(try pizzeria.menu.history(of: pizza.id))
        try expectSame(order)
        try expectSame(PageJSON(items: [order], next: nil))
        let page = try pizzeria.orders.page(limit: 1)
        try expectSame(PageJSON(items: page.items, next: page.next))
        try expectSame(user)
        try expectSame(try pizzeria.navigation.history(of: user.id))
        try expectSame(try pizzeria.navigation.path(of: user.id))
        try expectSame(try pizzeria.settings.current())
        // Archived, with a history of each kind, opaque navigation elements: the direct writers.
        _ = try pizzeria.orders.advance(id: order.id)
        _ = try pizzeria.menu.archive(id: pizza.id)
        try pizzeria.navigation.replace(
            user.id,
            path: [.route(.pizza(id: pizza.id)), .opaque(typeName: "App.Note", json: #"{"text":"a \"quote\""}"#)])
        try expectSameDirect(try pizzeria.menu.list(includeArchived: true))
        try expectSameDirect(try pizzeria.orders.list())
        try expectSameDirect(try pizzeria.navigation.history(of: user.id))
        try expectSameDirect(try pizzeria.users.list())
        // The list shapes whose CSV columns come from their members, too.
        try expectSameDirect(try pizzeria.orders.slots(on: order.serviceDay))
        try expectSameDirect(try pizzeria.orders.availableSlots(pizzas: 2, limit: 3).slots)
        let sales = try pizzeria.orders.sales(from: order.serviceDay, to: order.serviceDay)
        #expect(!sales.rows.isEmpty && !sales.days.isEmpty)
        try expectSameDirect(sales.rows)
        try expectSameDirect(sales.days)
        try expectSameDirect(try pizzeria.navigation.mostViewed())
        try expectSameDirect(try pizzeria.audit.entries())
        _ = try pizzeria.staff.add("giulia", role: .counter)
        try expectSameDirect(try pizzeria.staff.list())
        // Every CSV column names a member its shape writes (a misspelt key would throw here).
        #expect(try CSVRows.pizza.row(pizza).count == CSVRows.pizza.header.count)
        #expect(try CSVRows.user.row(user).count == CSVRows.user.header.count)
        #expect(try CSVRows.order.row(order).count == CSVRows.order.header.count)
        for slot in try pizzeria.orders.slots(on: order.serviceDay) { _ = try CSVRows.slot.row(slot) }
        for slot in try pizzeria.orders.availableSlots(limit: 2).slots { _ = try CSVRows.available.row(slot) }
        for row in sales.rows { _ = try CSVRows.sales.row(row) }
        for day in sales.days { _ = try CSVRows.salesDay.row(day) }
        for event in try pizzeria.navigation.history(of: user.id) { _ = try CSVRows.event.row(event) }
        #expect(throws: InternalError.self) { try CSVColumns<Pizza>([.member("prize")]).row(pizza) }
    }

    @Test("a table prints the same whether its rows were kept (one pass) or read again (two passes)")
    func tablePasses() throws {
        let rows = [
            ["1a2b3c4d", "Margherita", "6.00"], ["5e6f7a8b", "Cafe\u{0301} crème", "12.50"],
            ["9c0d1e2f", "🍕 Spicy", "1000.00"],
            ["00000000", "Pizza with a rather long name indeed", "8.00"],
        ]
        var table = Table("ID", "NAME", "PRICE", rightAligned: [2])
        for row in rows { table.rows.append(row) }
        func printed(keepingAtMost limit: Int) throws -> String {
            let text = Captured()
            let context = Context(
                databasePath: "unused", json: false, console: Console(out: text.append, err: { _ in }),
                terminal: .none, environment: [:])
            try context.list.table(table, cells: { $0 }, keepingAtMost: limit) { each in try rows.forEach(each) }
            return text.text
        }
        let kept = try printed(keepingAtMost: ListOutput.tableBuffer), readTwice = try printed(keepingAtMost: 0)
        #expect(kept == readTwice)
        #expect(kept == table.rendered)
        // Columns are measured in display columns: the combining accent takes none of its own, the
        // emoji two (the last column is right-aligned, so every line is as wide).
        let lines = kept.split(separator: "\n" as Character)
        #expect(lines.count == 5 && Set(lines.map { DisplayWidth.of($0) }).count == 1, "\(kept)")
    }

    @Test(
        "table widths count display columns: ASCII, Latin, currency signs, combining marks one or none; emoji, CJK two",
        arguments: [
            ("Margherita", 10), ("Café", 4), ("Cafe\u{0301}", 4), ("€12.50", 6), ("-€0.01", 6), ("Crème brûlée", 12),
            ("🍕 Spicy", 8), ("👩‍🍳 Chef's", 9), ("Ærø ½", 5), ("₿ 1.00", 6), ("山田 健二", 9),
        ])
    func tableWidths(cell: String, columns: Int) {
        #expect(Table.width(of: cell) == columns)
    }

    @Test("terminal escaping read byte by byte agrees with the scalar rule for every Unicode scalar, both layouts")
    func escapingEveryScalar() {
        var disagreements: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }  // surrogates
            let text = "a" + String(Character(scalar)) + "b"
            for layout in [TerminalText.Layout.line, .lines] {
                let bytes = TerminalText.withUTF8(text) { TerminalText.needsEscape(utf8: $0, layout) }
                if bytes != TerminalText.needsEscape(scalar, layout) {
                    disagreements.append("U+\(String(value, radix: 16))")
                }
            }
            if let width = TerminalText.withUTF8(text, Table.scalarWidth), width != 3 {
                disagreements.append("width of U+\(String(value, radix: 16)): \(width)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
        #expect(TerminalText.escaped("x\u{202E}y\u{85}z", .line) == "x\\u202ey\\u0085z")
        #expect(TerminalText.escaped("tab\tnew\nline", .lines) == "tab\tnew\nline")
    }
}
