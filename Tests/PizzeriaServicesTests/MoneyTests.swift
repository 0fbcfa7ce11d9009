import Testing
@testable import PizzeriaServices

@Suite("Money: parsing and formatting prices")
struct MoneyTests {
    @Test(
        "accepted spellings",
        arguments: [
            ("6", 600), ("6.5", 650), ("6.50", 650), ("6,50", 650), ("6,5", 650),
            ("€6.50", 650), ("€ 6.50", 650), ("6.50 €", 650), ("6.50€", 650), ("EUR 6,50", 650), ("6.50 EUR", 650),
            ("eur 3", 300), ("  7  ", 700), ("0.01", 1), ("0,01", 1), (".50", 50), ("12.", 1200),
            ("1000", 100_000), ("1000.00", 100_000), ("999.99", 99_999), ("006.00", 600),
        ] as [(String, Int64)])
    func accepted(text: String, cents: Int64) throws {
        #expect(try Money.parse(text).get() == Money(cents: cents))
    }

    @Test(
        "refused spellings, each saying why",
        arguments: [
            ("", "must not be empty"), ("   ", "must not be empty"), ("€", "must not be empty"),
            ("abc", "must be an amount in euros"), ("6 50", "must be an amount in euros"),
            ("٦", "must be an amount in euros"),
            ("six", "must be an amount in euros"), ("6.5.0", "thousands separators"),
            ("-6", "must not be negative"), ("-0.01", "must not be negative"), ("+6", "without a sign"),
            ("0", "must be greater than 0"), ("0.00", "must be greater than 0"), ("0,0", "must be greater than 0"),
            ("6.5051", "at most two decimals"), ("6.505", "ambiguous"), ("1,000", "ambiguous"), ("1.000", "ambiguous"),
            ("1e3", "exponent"), ("6E2", "exponent"), ("1.5e1", "exponent"),
            ("NaN", "finite"), ("inf", "finite"), ("-Infinity", "finite"),
            ("1,000.50", "thousands separators"), ("1.000,50", "thousands separators"),
            ("1000.01", "at most €1000.00"), ("1001", "at most €1000.00"), ("99999999999999999999", "at most €1000.00"),
        ])
    func refused(text: String, reason: String) {
        switch Money.parse(text) {
        case .success(let money): Issue.record("\(text.debugDescription) parsed as \(money)")
        case .failure(let error): #expect(error.message.contains(reason), "\(text.debugDescription): \(error.message)")
        }
    }

    @Test(
        "an ambiguous amount offers only the readings that would be accepted",
        arguments: [
            ("8.555", "write 8.55"), ("1,000", "write 1000 or 1.00"), ("0,750", "write 750 or 0.75"),
            (".500", "write 500 or 0.50"),
            ("9.999", "write 9.99"),
        ])
    func ambiguousHints(text: String, hint: String) {
        guard case .failure(let error) = Money.parse(text) else { Issue.record("\(text) parsed"); return }
        #expect(error.message.hasSuffix(hint), "\(error.message)")
        if !hint.contains(" or ") {
            #expect(
                !error.message.contains("write \(text.replacingOccurrences(of: ".", with: ""))"), "\(error.message)")
        }
    }

    @Test("formatting for people and for JSON")
    func formatting() {
        #expect(Money(cents: 600).formatted == "€6.00")
        #expect(Money(cents: 1).plain == "0.01")
        #expect(Money(cents: 100_000).formatted == "€1000.00")
        #expect(Money(cents: 1205).plain == "12.05")
    }
}
