import Testing
@testable import PizzeriaServices

@Suite("Pizza drafts: the sheet's validation rules")
struct PizzaValidationTests {
    func errors(name: String, cents: Int64 = 600) -> [String] {
        PizzaDraft(mode: .add, name: name, price: Money(cents: cents)).validate().map(\.description)
    }

    @Test(
        "names on both sides of each rule",
        arguments: [
            ("Margherita", []),
            ("", ["name: must not be empty"]),
            ("   \t ", ["name: must not be empty"]),
            ("  Margherita  ", []),
            (String(repeating: "a", count: 59), []),
            (String(repeating: "a", count: 60), []),
            (String(repeating: "a", count: 61), ["name: must be at most 60 characters (has 61)"]),
            // 60 user-perceived characters, each a letter plus a combining accent (120 code points).
            (String(repeating: "q\u{0303}", count: 60), []),
            (String(repeating: "q\u{0303}", count: 61), ["name: must be at most 60 characters (has 61)"]),
            (String(repeating: "🍕", count: 60), []),
            ("Pizza\nNapoli", ["name: must not contain control characters or line breaks"]),
            ("Tab\there", ["name: must not contain control characters or line breaks"]),
            ("Bell\u{7}", ["name: must not contain control characters or line breaks"]),
            ("Line\u{2028}sep", ["name: must not contain control characters or line breaks"]),
            ("'); DROP TABLE pizzas;--", []),
        ] as [(String, [String])])
    func names(name: String, expected: [String]) {
        #expect(errors(name: name) == expected)
    }

    @Test(
        "prices on both sides of each rule",
        arguments: [
            (0, ["price: must be greater than 0"]), (-1, ["price: must be greater than 0"]),
            (1, []), (100_000, []), (100_001, ["price: must be at most €1000.00"]),
        ] as [(Int64, [String])])
    func prices(cents: Int64, expected: [String]) {
        #expect(errors(name: "Margherita", cents: cents) == expected)
    }

    @Test("a blank add draft reports name and price together")
    func blankDraft() {
        #expect(
            PizzaDraft.blank.validate().map(\.description) == [
                "name: must not be empty", "price: must be greater than 0",
            ])
        #expect(!PizzaDraft.blank.isValid)
    }

    @Test("names are NFC-normalised and trimmed")
    func normalisation() {
        #expect(PizzaName.normalize("  Cafe\u{0301} ") == "Caf\u{00E9}")
        #expect(PizzaName.foldKey("CAFÉ") == PizzaName.foldKey("cafe\u{0301}"))
    }
}
