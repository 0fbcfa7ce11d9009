import Foundation
import PizzeriaTestSupport
import Testing

/// The real `pizzeria` binary on real files: payments, refunds, receipts, the cash-up.
@Suite("CLI: money (the real binary)")
struct MoneyCommandTests {
    static let now = "2026-12-02T16:00:00Z"
    static let day = "2026-12-02"

    func pizzeria() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = Self.now
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("demo")
        return cli
    }

    func place(_ cli: CLI, _ items: String...) throws -> String {
        let order = try cli.json(["order", "place", "anna", "--pickup", "\(Self.day)T20:00"] + items) as? [String: Any]
        return try #require(order?["id"] as? String)
    }

    @Test("pay, refund, cancel with a reason, owes-refund; refusals name the rule and change nothing")
    func payAndRefund() throws {
        let cli = try pizzeria()
        let id = try place(cli, "Margherita=2", "Aranciata")
        let paid = try cli.ok("order", "pay", id, "--method", "cash", "--tendered", "50").stdout
        #expect(paid.contains("it is paid") && paid.contains("Change: €35.00"), "\(paid)")
        let before = try cli.sqlite("SELECT * FROM payments; SELECT * FROM refunds;").stdout
        for (arguments, status, message) in [
            (["order", "pay", id, "--method", "card"], Int32(1), "owes nothing"),
            (["order", "pay", id, "--method", "bitcoin"], 65, "method: must be one of cash, card, online, voucher"),
            (["order", "pay", id, "--method", "card", "--amount", "-1"], 65, "amount: must not be negative"),
            (["order", "refund", id, "--amount", "16", "--reason", "x"], 1, "more than the €15.00 left to refund"),
            (["order", "refund", id, "--reason", "x"], 65, "owes no refund; say how much"),
            (["order", "refund", id, "--amount", "1"], 64, "--reason"),
            (["order", "cancel", id], 1, "cancelling it needs a reason"),
        ] {
            let result = try cli.run(arguments)
            #expect(result.status == status && result.stderr.contains(message), "\(arguments): \(result)")
        }
        #expect(try cli.sqlite("SELECT * FROM payments; SELECT * FROM refunds;").stdout == before)
        try cli.ok("order", "cancel", id, "--reason", "oven down")
        let owing = try cli.json("order", "list", "--owes-refund") as? [[String: Any]]
        #expect(owing?.map { $0["id"] as? String } == [id])
        let refunded = try cli.json("order", "refund", id, "--reason", "cancelled: oven down") as? [String: Any]
        #expect(refunded?["state"] as? String == "refunded" && refunded?["refunded_cents"] as? Int == 1500)
        #expect((try cli.json("order", "list", "--owes-refund") as? [Any])?.isEmpty == true)
        let history = try cli.sqlite("SELECT detail FROM order_status_events WHERE to_status = 'cancelled';").stdout
        #expect(history.contains("reason: oven down"))
        try cli.ok("check")
    }

    @Test("two processes refunding one payment at once never give back more than it paid")
    func refundRace() async throws {
        let cli = try pizzeria()
        let id = try place(cli, "Porcini")  // 12.00
        try cli.ok("order", "pay", id, "--method", "card")
        let environment = cli.environment
        let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try PizzeriaBinary.run(
                        ["order", "refund", id, "--amount", "7", "--reason", "race"], in: cli.directory.url,
                        environment: environment)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { $0.status == 0 }.count == 1, "\(results)")
        #expect(results.filter { $0.status == 1 && $0.stderr.contains("left to refund") }.count == 3, "\(results)")
        #expect(try cli.sqlite("SELECT sum(amount_cents) FROM refunds;").stdout == "700\n")
    }

    @Test("receipt: the shop's head, VAT by rate, payments and change, within 32, 42 and 48 columns; JSON for a bridge")
    func receipt() throws {
        let cli = try pizzeria()
        try cli.ok("config", "set", "shop-name", "Pizzeria da Michele")
        try cli.ok("config", "set", "shop-address", "Via Cesare Sersale 1, 80139 Napoli")
        try cli.ok("config", "set", "vat-number", "IT01234567890")
        try cli.ok("category", "vat", "Bevande", "22")
        #expect(try cli.run("config", "set", "vat-rate", "101").stderr.contains("vat-rate: must be at most 100"))
        #expect(try cli.run("config", "set", "vat-number", "it-0123").stderr.contains("vat-number: must be 2 to 20"))
        // config show shows every setting, the shop's details among them, in text and JSON.
        let shown = try cli.ok("config", "show").stdout
        for row in [
            "shop-name             Pizzeria da Michele", "shop-address          Via Cesare Sersale 1, 80139 Napoli",
            "vat-number            IT01234567890", "vat-rate              10%", "require-staff         off",
            "phone-region          (not set",
        ] {
            #expect(shown.contains(row), "\(row)\n\(shown)")
        }
        let config = try cli.json("config", "show") as? [String: Any]
        let shop = config?["shop"] as? [String: Any]
        #expect(shop?["name"] as? String == "Pizzeria da Michele" && shop?["vat_rate_bp"] as? Int == 1000)
        #expect(config?["require_staff"] as? Bool == false && config?["slot_capacity"] is Int)
        let id = try place(cli, "Margherita/Maxi+bufala=2", "Aranciata")
        try cli.ok("order", "pay", id, "--method", "cash", "--tendered", "40")
        for width in ["32", "42", "48"] {
            let text = try cli.ok("order", "receipt", id, "--width", width).stdout
            let lines = text.split(separator: "\n")
            #expect(lines.allSatisfy { $0.count <= Int(width) ?? 0 }, "\(text)")
            #expect(
                text.contains("P.IVA IT01234567890") && text.contains("+ Aggiunte: bufala") && text.contains("22%"),
                "\(text)")
            #expect(text.contains("Documento non fiscale") && text.contains("Resto"), "\(text)")
        }
        // In the shop's language: Italian by default, English when set; the JSON keys stay.
        try cli.ok("config", "set", "language", "en")
        let english = try cli.ok("order", "receipt", id, "--width", "32").stdout
        #expect(
            english.contains("TOTAL EUR") && english.contains("Paid cash") && english.contains("Change")
                && english.contains("GROSS"), "\(english)")
        try cli.ok("config", "set", "language", "it")
        let italian = try cli.ok("order", "receipt", id, "--width", "32").stdout
        #expect(
            italian.contains("TOTALE EUR") && italian.contains("Pagato contanti") && italian.contains("Resto")
                && !italian.contains("Paid"), "\(italian)")
        #expect(try cli.run("order", "receipt", id, "--width", "40").status == 65)
        let json = try cli.json("order", "receipt", id, "--format", "json") as? [String: Any]
        let vat = json?["vat"] as? [String: Any]
        #expect((vat?["rates"] as? [[String: Any]])?.compactMap { $0["rate_bp"] as? Int } == [1000, 2200])
        #expect(vat?["gross_cents"] as? Int == json?["total_cents"] as? Int)
        #expect((json?["shop"] as? [String: Any])?["vat_number"] as? String == "IT01234567890")
    }

    @Test(
        "report close: orders, payments by method, VAT, expected cash, unpaid collected orders; --json and --csv agree")
    func close() throws {
        let cli = try pizzeria()
        let cash = try place(cli, "Margherita=2")  // 12.00
        let card = try place(cli, "Porcini")  // 12.00
        let walkOut = try place(cli, "Marinara")  // 4.00
        try cli.ok("order", "pay", cash, "--method", "cash")
        try cli.ok("order", "pay", card, "--method", "card")
        try cli.ok("order", "refund", card, "--amount", "2", "--reason", "late")
        // Handing over an order that owes money is refused unless it is paid then or left unpaid on purpose.
        let silent = try cli.run("order", "collect", walkOut)
        #expect(silent.status == 1 && silent.stderr.contains("owes €4.00"), "\(silent)")
        #expect(silent.stderr.contains("hint: `pizzeria order collect \(shortID(walkOut)) --pay"), "\(silent)")
        try cli.ok("order", "collect", cash)
        try cli.ok("order", "collect", card, "--unpaid", "2 euro off for the wait")
        try cli.ok("order", "collect", walkOut, "--unpaid", "walked out")
        #expect(try cli.ok("order", "show", walkOut).stdout.contains("unpaid: walked out"))
        // The text is in the shop's language (Italian by default); the CSV is the same in either.
        let testo = try cli.ok("report", "close", "--date", Self.day, "--opening-cash", "100").stdout
        let csvItalian = try cli.ok("report", "close", "--date", Self.day, "--csv").stdout
        #expect(testo.hasPrefix("Chiusura cassa mer \(Self.day)"), "\(testo)")
        #expect(testo.contains("STATO") && testo.contains("ritirato") && testo.contains("contanti"), "\(testo)")
        #expect(testo.contains("Contanti attesi nel cassetto: €112.00 (fondo cassa €100.00)"), "\(testo)")
        #expect(testo.contains("senza pagare") && testo.contains("€4.00 da pagare"), "\(testo)")
        #expect(!testo.contains("Cash") && !testo.contains("Collected"), "\(testo)")
        try cli.ok("config", "set", "language", "en")
        let text = try cli.ok("report", "close", "--date", Self.day, "--opening-cash", "100").stdout
        #expect(text.hasPrefix("Cash-up wed \(Self.day)") && text.contains("STATUS"), "\(text)")
        #expect(text.contains("Cash expected in the drawer: €112.00"), "\(text)")
        #expect(text.contains("left without paying") && text.contains(shortID(walkOut)), "\(text)")
        #expect(try cli.ok("report", "close", "--date", Self.day, "--csv").stdout == csvItalian)
        let json = try cli.json("report", "close", "--date", Self.day, "--opening-cash", "100") as? [String: Any]
        let collected = json?["collected_cents"] as? Int
        let sums = try cli.sqlite(
            "SELECT sum(total_cents) FROM orders WHERE service_day = '\(Self.day)' AND status = 'collected';"
        ).stdout
        #expect(collected.map { "\($0)\n" } == sums)
        #expect(json?["paid_cents"] as? Int == 2400 && json?["refunded_cents"] as? Int == 200)
        #expect(json?["expected_cash_cents"] as? Int == 11_200)
        let vat = json?["vat"] as? [String: Any]
        #expect(vat?["gross_cents"] as? Int == collected)
        #expect((vat?["net_cents"] as? Int ?? 0) + (vat?["vat_cents"] as? Int ?? 0) == collected)
        let csv = try cli.ok("report", "close", "--date", Self.day, "--csv").stdout
        #expect(csv.hasPrefix("section,name,count,amount,amount_cents\r\n"))
        #expect(csv.contains("payments,cash,1,12.00,1200") && csv.contains("refunds,card,1,2.00,200"), "\(csv)")
    }
}

extension MoneyCommandTests {
    @Test("order list --lines: a row per line with VAT; --csv-dialect excel-eu opens in an Italian spreadsheet")
    func accountantExport() throws {
        let cli = try pizzeria()
        try cli.ok("category", "vat", "Bevande", "22")
        let id = try place(cli, "Margherita/Maxi+bufala=2", "Aranciata", "Frittatina")
        let rows = try cli.json("order", "list", "--lines", "--date", Self.day) as? [[String: Any]] ?? []
        let mine = rows.filter { $0["order_id"] as? String == id }
        #expect(mine.count == 3 && mine.compactMap { $0["vat_rate_bp"] as? Int }.sorted() == [1000, 1000, 2200])
        let vat = mine.reduce(0) { $0 + ($1["vat_cents"] as? Int ?? 0) }
        let receipt = try cli.json("order", "receipt", id, "--format", "json") as? [String: Any]
        #expect(vat == (receipt?["vat"] as? [String: Any])?["vat_cents"] as? Int)
        for row in mine {
            #expect((row["net_cents"] as? Int ?? 0) + (row["vat_cents"] as? Int ?? 0) == row["gross_cents"] as? Int)
        }
        let eu = try cli.ok("order", "list", "--lines", "--date", Self.day, "--csv", "--csv-dialect", "excel-eu").stdout
        #expect(eu.hasPrefix("\u{FEFF}order_id;service_day;pickup_local;status;line_no;item;"), "\(eu.prefix(200))")
        #expect(eu.contains(";Margherita;Maxi;Aggiunte: bufala;2;12,00;1200;1000;"), "\(eu)")
        let plain = try cli.ok("order", "list", "--lines", "--date", Self.day, "--csv").stdout
        #expect(
            plain.hasPrefix("order_id,service_day")
                && plain.contains(",Margherita,Maxi,Aggiunte: bufala,2,12.00,1200,1000,"))
        let euOrders = try cli.ok("order", "list", "--csv", "--csv-dialect", "excel-eu").stdout
        #expect(euOrders.hasPrefix("\u{FEFF}id;user;") && euOrders.contains(";30,50;3050;"), "\(euOrders)")
        #expect(try cli.run("order", "list", "--csv-dialect", "excel-eu").status == 64)
        #expect(try cli.run("order", "list", "--csv", "--csv-dialect", "excel").stderr.contains("csv-dialect: must be"))
    }

    @Test("report sales --by hour and --by staff: orders, items and money per group; the day table says what it counts")
    func salesGroups() throws {
        let cli = try pizzeria()
        let first = try place(cli, "Margherita=2")
        let second =
            try cli.json("order", "place", "marco", "--pickup", "\(Self.day)T21:00", "Porcini") as? [String: Any]
        let secondID = try #require(second?["id"] as? String)
        try cli.ok("order", "pay", first, "--method", "card", "--by", "luca")
        try cli.ok("order", "collect", first, "--by", "luca")
        try cli.ok("order", "collect", secondID, "--by", "giulia", "--unpaid", "pays next time")
        let hours =
            try cli.json("report", "sales", "--by", "hour", "--from", Self.day, "--to", Self.day) as? [[String: Any]]
            ?? []
        #expect(hours.map { $0["key"] as? String } == ["20:00", "21:00"])
        #expect(hours.map { $0["items"] as? Int } == [2, 1] && hours.map { $0["paid_cents"] as? Int } == [1200, 0])
        let staff =
            try cli.json("report", "sales", "--by", "staff", "--from", Self.day, "--to", Self.day) as? [[String: Any]]
            ?? []
        #expect(staff.map { $0["key"] as? String } == ["giulia", "luca"], "\(staff)")
        #expect(staff.map { $0["orders"] as? Int } == [1, 1] && staff.map { $0["paid_cents"] as? Int } == [0, 1200])
        // People read the shop's language (Italian by default); scripts read the same rows in either.
        let tabella = try cli.ok("report", "sales").stdout
        #expect(tabella.hasPrefix("GIORNO") && tabella.contains("ORDINI RITIRATI"), "\(tabella)")
        #expect(tabella.contains("Totale: 3 pezzi ritirati") && tabella.contains("mer \(Self.day)"), "\(tabella)")
        #expect(try cli.ok("report", "sales", "--by", "pizza").stdout.contains("PEZZI RITIRATI"))
        let scripts = try ["--csv", "--tsv", "--nl", "--no-headers"].map { try cli.ok("report", "sales", $0).stdout }
        try cli.ok("config", "set", "language", "en")
        let table = try cli.ok("report", "sales").stdout
        #expect(table.hasPrefix("DAY") && table.contains("ORDERS COLLECTED") && table.contains("items collected"))
        #expect(try cli.ok("report", "sales", "--by", "pizza").stdout.contains("ITEMS COLLECTED"))
        #expect(try cli.ok("report", "sales", "--by", "staff").stdout.hasPrefix("STAFF"))
        #expect(
            try ["--csv", "--tsv", "--nl", "--no-headers"].map { try cli.ok("report", "sales", $0).stdout } == scripts)
    }
}
