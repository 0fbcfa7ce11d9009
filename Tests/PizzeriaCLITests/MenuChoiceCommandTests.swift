import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: variants, modifiers and allergens, booked as PIZZA/VARIANT+MODIFIER=QTY (the real binary)")
struct MenuChoiceCommandTests {
    /// Margherita 6.00 with Maxi 9.00, Aggiunte (0–3: bufala 2.00 / Maxi 3.00 with milk, 'nduja
    /// 1.50) and Senza (0–3: basilico) attached; staff `giulia` acts.
    func pizzeria() throws -> CLI {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T10:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("pizza", "add", "--name", "Marinara", "--price", "4")
        try cli.ok("user", "add", "anna")
        try cli.ok("pizza", "variant", "add", "Margherita", "Maxi", "--price", "9")
        try cli.ok("modifier", "group", "add", "Aggiunte", "--max", "3")
        try cli.ok("modifier", "group", "add", "Senza", "--max", "3")
        try cli.ok("modifier", "add", "Aggiunte", "bufala", "--price", "2", "--allergens", "milk")
        try cli.ok("modifier", "add", "Aggiunte", "'nduja", "--price", "1,50")
        try cli.ok("modifier", "add", "Senza", "basilico")
        try cli.ok("modifier", "edit", "Aggiunte", "bufala", "--variant-price", "Maxi=3")
        try cli.ok("pizza", "attach", "Margherita", "Aggiunte", "Senza")
        try cli.ok("pizza", "allergens", "Margherita", "gluten,milk")
        return cli
    }

    @Test("a booking names variants and modifiers; JSON, text, order_summary and order_line_details show them")
    func bookAndShow() throws {
        let cli = try pizzeria()
        let placed =
            try cli.json(
                "order", "place", "anna", "--pickup", "19:30", "Margherita/maxi+BUFALA+Senza:basilico=2",
                "Margherita", "Marinara") as? [String: Any]
        let lines = placed?["lines"] as? [[String: Any]] ?? []
        #expect(lines.count == 3, "\(String(describing: placed))")
        #expect(lines.first?["variant"] as? String == "Maxi" && lines.first?["unit_price_cents"] as? Int == 1200)
        let modifiers = lines.first?["modifiers"] as? [[String: Any]] ?? []
        #expect(modifiers.map { $0["name"] as? String } == ["bufala", "basilico"])
        #expect(modifiers.map { $0["price_cents"] as? Int } == [300, 0])
        #expect(lines.first?["allergens"] as? [String] == ["gluten", "milk"])
        #expect(lines[1]["variant"] as? String == "Normale" && lines[2]["variant"] is NSNull)
        #expect(placed?["total_cents"] as? Int == 3400)
        let id = placed?["id"] as? String ?? ""
        let shown = try cli.ok("order", "show", shortID(id)).stdout
        #expect(
            shown.contains("+ Aggiunte: bufala") && shown.contains("= one") && shown.contains("allergens: gluten, milk")
        )
        let summary = try cli.sqlite("SELECT items FROM order_summary;").stdout
        #expect(
            summary == "2 × Margherita Maxi + bufala + basilico, 1 × Margherita Normale, 1 × Marinara\n", "\(summary)")
        let details = try cli.sqlite(
            "SELECT item, variant, modifiers, line_total_eur, allergens FROM order_line_details ORDER BY line_no;")
        #expect(
            details.stdout
                == "Margherita|Maxi|bufala, basilico|24.00|gluten, milk\nMargherita|Normale||6.00|gluten, milk\nMarinara|||4.00|\n",
            "\(details)")
        let menu = try cli.sqlite("SELECT item, variant, price_eur, allergens, modifier_groups FROM menu_items;")
        #expect(
            menu.stdout
                == "Margherita|Normale|6.00|gluten, milk|Aggiunte, Senza\nMargherita|Maxi|9.00|gluten, milk|Aggiunte, Senza\nMarinara|Normale|4.00||\n",
            "\(menu)")
        let item = try cli.json("pizza", "show", "Margherita") as? [String: Any]
        #expect((item?["variants"] as? [[String: Any]])?.count == 2)
        #expect((item?["modifier_groups"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Aggiunte", "Senza"])
        #expect(item?["allergens"] as? [String] == ["gluten", "milk"])
        #expect(
            try cli.ok("modifier", "list", "--csv").stdout.hasPrefix(
                "group,group_kind,min_selected,max_selected,modifier,"))
        try cli.ok("check")
    }

    @Test("refusals name the field and the rule, with the documented exit code, and write nothing")
    func refusals() throws {
        let cli = try pizzeria()
        let before = try cli.sqlite(
            "SELECT count(*) FROM orders; SELECT * FROM pizza_variants; SELECT * FROM modifiers; SELECT * FROM modifier_groups;"
        ).stdout
        let tooMany = try cli.run(
            "order", "place", "anna", "--pickup", "19:30", "Margherita+bufala+'nduja+basilico+Aggiunte:bufala")
        #expect(tooMany.status == 65 && tooMany.stderr.contains("modifiers"), "\(tooMany)")
        let stray = try cli.run("order", "place", "anna", "--pickup", "19:30", "Marinara+bufala")
        #expect(stray.status == 66 && stray.stderr.contains("Marinara has no modifier 'bufala'"), "\(stray)")
        let variant = try cli.run("order", "place", "anna", "--pickup", "19:30", "Margherita/Baby")
        #expect(variant.status == 66 && variant.stderr.contains("there are: Normale, Maxi"), "\(variant)")
        let bounds = try cli.run("modifier", "group", "add", "Impasto", "--min", "2", "--max", "1")
        #expect(bounds.status == 65 && bounds.stderr.contains("min"), "\(bounds)")
        let price = try cli.run("modifier", "add", "Aggiunte", "oro", "--price", "100.01")
        #expect(price.status == 65 && price.stderr.contains("price"), "\(price)")
        let allergen = try cli.run("pizza", "allergens", "Margherita", "gluten,peanut")
        #expect(allergen.status == 65 && allergen.stderr.contains("14 allergens"), "\(allergen)")
        let zero = try cli.run("pizza", "variant", "add", "Margherita", "Baby", "--price", "0")
        #expect(zero.status == 65, "\(zero)")
        let defaultVariant = try cli.run("pizza", "variant", "remove", "Margherita", "Normale")
        #expect(defaultVariant.status == 1 && defaultVariant.stderr.contains("default"), "\(defaultVariant)")
        try cli.ok("modifier", "edit", "Aggiunte", "bufala", "--archive")
        let archived = try cli.run("order", "place", "anna", "--pickup", "19:30", "Margherita+bufala")
        #expect(archived.status == 1 && archived.stderr.contains("no longer offered"), "\(archived)")
        try cli.ok("modifier", "edit", "Aggiunte", "bufala", "--restore")
        let after = try cli.sqlite(
            "SELECT count(*) FROM orders; SELECT * FROM pizza_variants; SELECT * FROM modifiers; SELECT * FROM modifier_groups;"
        ).stdout
        #expect(before == after)
    }

    @Test("every menu change is in the audit trail, with who made it")
    func audited() throws {
        let cli = try pizzeria()
        let audit = try cli.sqlite("SELECT object || ' ' || action || ' ' || actor FROM audit_log ORDER BY id;").stdout
        #expect(audit.contains("variant_add giulia"), "\(audit)")
        #expect(audit.contains("modifier_group:1 add giulia") && audit.contains("group_attach giulia"))
        #expect(audit.contains("allergens giulia") && audit.contains("variant_price giulia"))
        // The first variant comes with the item: its own entry is the item's `add`.
        #expect(audit.components(separatedBy: "variant_add").count == 2, "\(audit)")
    }

    @Test("sold out tonight: marked in the menu, refused for tonight (1) with when it is back, fine tomorrow, audited")
    func soldOut() throws {
        let cli = try pizzeria()
        let marked = try cli.ok("pizza", "sold-out", "Marinara").stdout
        #expect(marked == "Marinara: sold out until 2026-12-01 23:00:00 +01:00.\n", "\(marked)")
        #expect(try cli.ok("pizza", "list").stdout.contains("Marinara (sold out)"))
        let refused = try cli.run("order", "place", "anna", "--pickup", "19:30", "Marinara")
        #expect(
            refused.status == 1
                && refused.stderr.contains("'Marinara' is sold out (back for pickups from 2026-12-01 23:00)"),
            "\(refused)")
        try cli.ok("order", "place", "anna", "--pickup", "2026-12-02T19:30", "Marinara")
        try cli.ok("modifier", "sold-out", "Aggiunte", "bufala", "--left", "1", "--until", "never")
        try cli.ok("order", "place", "anna", "--pickup", "19:30", "Margherita+bufala")
        let none = try cli.run("order", "place", "anna", "--pickup", "19:45", "Margherita+bufala")
        #expect(none.status == 1 && none.stderr.contains("'bufala' is sold out (until staff make it available again)"))
        try cli.ok("modifier", "available", "Aggiunte", "bufala")
        try cli.ok("pizza", "available", "Marinara")
        try cli.ok("order", "place", "anna", "--pickup", "19:45", "Marinara", "Margherita+bufala")
        let past = try cli.run("pizza", "sold-out", "Marinara", "--until", "2026-12-01T09:00")
        #expect(past.status == 65 || past.status == 1, "\(past)")
        let audit = try cli.sqlite(
            "SELECT action || ' ' || actor FROM audit_log WHERE action IN ('sold_out', 'stock', 'available');")
        #expect(audit.stdout == "sold_out giulia\nstock giulia\navailable giulia\navailable giulia\n", "\(audit)")
        let view = try cli.sqlite("SELECT count(*) FROM sold_out;")
        #expect(view.status == 0)
        try cli.ok("check")
    }

    @Test("menu export, then import into a new file (dry run first): the same menu; CSV has one row per variant")
    func exportImport() throws {
        let cli = try pizzeria()
        let exported = try cli.ok("menu", "export").stdout
        let path = cli.directory.path("menu.json")
        try Data(exported.utf8).write(to: URL(fileURLWithPath: path))
        var other = CLI()
        other.environment["PIZZERIA_NOW"] = "2026-12-01T10:00:00Z"
        try other.ok("init")
        let dry = try other.ok("menu", "import", path, "--dry-run").stdout
        #expect(dry.hasPrefix("Would change (nothing written):\n") && dry.contains("item Margherita: added"), "\(dry)")
        #expect(try other.ok("pizza", "list").stdout == "The menu is empty.\n")
        try other.ok("menu", "import", path)
        #expect(try other.ok("menu", "export").stdout == exported)
        #expect(try other.ok("menu", "import", path).stdout.hasPrefix("No differences"))
        let csv = try cli.ok("menu", "export", "--format", "csv").stdout
        #expect(
            csv
                == "category,item,variant,price,price_cents,default,allergens,modifier_groups\r\n"
                + "Pizze,Margherita,Normale,6.00,600,1,\"gluten,milk\",\"Aggiunte,Senza\"\r\n"
                + "Pizze,Margherita,Maxi,9.00,900,0,\"gluten,milk\",\"Aggiunte,Senza\"\r\n"
                + "Pizze,Marinara,Normale,4.00,400,1,,\r\n", "\(csv)")
        let bad = try other.run(
            "menu", "import", "-",
            stdin:
                #"{"format": "pizzeria-menu", "version": 1, "items": [{"name": "X", "variants": [{"name": "N", "price": "abc"}]}]}"#
        )
        #expect(bad.status == 65 && bad.stderr.contains("items[0].variants[0].price"), "\(bad)")
    }

    @Test("menu import reads the CSV export back, and a spreadsheet's ';', decimal comma and BOM; errors name the line")
    func csvImport() throws {
        let cli = try pizzeria()
        let csv = try cli.ok("menu", "export", "--format", "csv").stdout
        func imported(_ text: String, _ flags: String...) throws -> String {
            let result = try cli.run(["menu", "import", "-"] + flags, stdin: text)
            #expect(result.status == 0, "\(result)")
            return result.stdout
        }
        #expect(try imported(csv).hasPrefix("No differences"))
        // As an Italian spreadsheet saves it: a BOM, ';' between fields, decimal commas, a quoted
        // name with the separator in it; Margherita's Maxi costs more and a new item has two sizes.
        let sheet =
            "\u{FEFF}category;item;variant;price;price_cents;default;allergens;modifier_groups\r\n"
            + "Pizze;Margherita;Normale;6,00;600;1;gluten,milk;Aggiunte,Senza\r\n"
            + "Pizze;Margherita;Maxi;9,50;;0;;\r\n"
            + "Pizze;\"Bufala; DOP\";Normale;8,00;;1;milk;\r\n"
            + "Pizze;\"Bufala; DOP\";Maxi;11,00;;;;\r\n"
        let before = try cli.sqlite("SELECT count(*) FROM audit_log; SELECT count(*) FROM pizzas;").stdout
        let dry = try imported(sheet, "--dry-run")
        #expect(dry.hasPrefix("Would change (nothing written):") && dry.contains("Bufala; DOP"), "\(dry)")
        #expect(try cli.sqlite("SELECT count(*) FROM audit_log; SELECT count(*) FROM pizzas;").stdout == before)
        _ = try imported(sheet)
        let prices = try cli.sqlite(
            "SELECT p.name || ' ' || v.name || ' ' || coalesce(v.price_cents, p.price_cents) FROM pizza_variants v JOIN pizzas p ON p.id = v.pizza_id ORDER BY 1"
        ).stdout
        #expect(
            prices == "Bufala; DOP Maxi 1100\nBufala; DOP Normale 800\nMargherita Maxi 950\nMargherita Normale 600\n"
                + "Marinara Normale 400\n", "\(prices)")
        // A bad price on line 3, a category that differs within an item, a field never closed:
        // each names its line and column; nothing is written.
        let after = try cli.sqlite("SELECT count(*) FROM audit_log;").stdout
        let header = "category,item,variant,price\n"
        for (text, expected) in [
            (header + "Pizze,Diavola,Normale,7\nPizze,Diavola,Maxi,abc\n", "line 3: price"),
            (header + "Pizze,Diavola,Normale,7\nBevande,Diavola,Maxi,9\n", "line 3: category"),
            (header + "Pizze,\"Diavola,Normale,7\n", "line 2"),
            (header + "Gelati,Diavola,Normale,7\n", "line 2: category"),
            ("item,price\nDiavola,7\n", "line 1"),
        ] {
            let refused = try cli.run("menu", "import", "-", "--format", "csv", stdin: text)
            #expect(refused.status == 65 && refused.stderr.contains(expected), "\(expected): \(refused)")
        }
        #expect(try cli.sqlite("SELECT count(*) FROM audit_log;").stdout == after)
    }

    @Test("report sales by item and variant, and by category; totals agree with the lines")
    func reports() throws {
        let cli = try pizzeria()
        try cli.ok("category", "add", "Bevande", "--no-oven")
        try cli.ok("pizza", "add", "--name", "Aranciata", "--price", "3", "--category", "Bevande")
        try cli.ok("order", "place", "anna", "--pickup", "19:30", "Margherita/Maxi=2", "Margherita", "Aranciata=2")
        let report = try cli.json("report", "sales", "--by", "pizza") as? [String: Any]
        let rows = report?["pizzas"] as? [[String: Any]] ?? []
        let booked = rows.map {
            "\($0["name"] as? String ?? "") \($0["variant"] as? String ?? "-") \($0["booked_quantity"] as? Int ?? -1)"
        }
        #expect(Set(booked) == ["Margherita Maxi 2", "Margherita Normale 1", "Aranciata - 2"], "\(booked)")
        let categories = (report?["categories"] as? [[String: Any]] ?? []).map {
            "\($0["category"] as? String ?? "") \($0["booked_value_cents"] as? Int ?? -1)"
        }
        #expect(Set(categories) == ["Pizze 2400", "Bevande 600"], "\(categories)")
        let table = try cli.ok("report", "sales", "--by", "category").stdout
        #expect(table.contains("CATEGORIA") && table.contains("Bevande"), "\(table)")
        #expect(try cli.ok("report", "sales", "--by", "pizza", "--csv").stdout.contains(",Maxi,Pizze\r\n"))
        let total = try cli.sqlite("SELECT sum(line_total_cents) FROM order_line_details;").stdout
        #expect(total == "3000\n")
        let bad = try cli.run("report", "sales", "--by", "week")
        #expect(bad.status == 65 && bad.stderr.contains("day, pizza, category, hour or staff"))
    }

    @Test("the add and edit sheets edit variants, allergens and groups across runs, validate by field, save in one go")
    func sheets() throws {
        let cli = try pizzeria()
        try cli.ok("sheet", "open", "anna", "add")
        try cli.ok("sheet", "set", "anna", "--name", "Diavola", "--variant", "Normale=8", "--variant", "Maxi=11")
        try cli.ok("sheet", "set", "anna", "--allergens", "gluten,milk", "--groups", "Aggiunte")
        let shown = try cli.json("sheet", "show", "anna") as? [String: Any]
        let draft = shown?["draft"] as? [String: Any]
        #expect(
            draft?["price_cents"] as? Int == 800 && (draft?["variants"] as? [Any])?.count == 2,
            "\(String(describing: shown))")
        #expect(shown?["can_save"] as? Bool == true)
        let zero = try cli.run("sheet", "set", "anna", "--variant", "Baby=0")
        #expect(zero.status == 65 && zero.stderr.contains("variant"), "\(zero)")
        try cli.ok("sheet", "set", "anna", "--variant", "Baby=5", "--variant", "baby=6")
        let invalid = try cli.run("sheet", "save", "anna")
        #expect(
            invalid.status == 65 && invalid.stderr.contains("variants[1].name: names a variant twice"), "\(invalid)")
        try cli.ok("sheet", "set", "anna", "--variant", "Normale=8", "--variant", "Maxi=11*")
        let saved = try cli.json("sheet", "save", "anna") as? [String: Any]
        #expect(saved?["price_cents"] as? Int == 1100, "\(String(describing: saved))")
        let item = try cli.json("pizza", "show", "Diavola") as? [String: Any]
        let variants = (item?["variants"] as? [[String: Any]] ?? []).map {
            "\($0["name"] as? String ?? "") \($0["is_default"] as? Bool ?? false)"
        }
        #expect(variants == ["Normale false", "Maxi true"], "\(variants)")
        #expect(item?["allergens"] as? [String] == ["gluten", "milk"])
        #expect((item?["modifier_groups"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Aggiunte"])
        // The edit sheet: one variant fewer and no groups; a booked variant cannot leave the list.
        try cli.ok("order", "place", "anna", "--pickup", "19:30", "Diavola/Normale")
        try cli.ok("sheet", "open", "anna", "edit", "Diavola")
        try cli.ok("sheet", "set", "anna", "--variant", "Maxi=11", "--groups", "none")
        let booked = try cli.run("sheet", "save", "anna")
        #expect(booked.status == 1 && booked.stderr.contains("Diavola Normale is on booked order lines"), "\(booked)")
        try cli.ok("sheet", "set", "anna", "--variant", "Maxi=11*", "--variant", "Normale=8.50")
        try cli.ok("sheet", "save", "anna")
        let edited = try cli.json("pizza", "show", "Diavola") as? [String: Any]
        #expect((edited?["modifier_groups"] as? [Any])?.isEmpty == true)
        #expect((edited?["variants"] as? [[String: Any]])?.map { $0["price_cents"] as? Int } == [1100, 850])
        try cli.ok("check")
    }

    @Test("group kinds: a removal prints senza, a choice takes its default unprinted; refusals name the field")
    func groupKinds() throws {
        let cli = try pizzeria()
        try cli.ok("modifier", "group", "edit", "Senza", "--kind", "removal")
        try cli.ok("modifier", "group", "add", "Impasto", "--kind", "choice")
        try cli.ok("modifier", "add", "Impasto", "classico")
        try cli.ok("modifier", "add", "Impasto", "integrale", "--price", "1")
        try cli.ok("modifier", "group", "edit", "Impasto", "--default", "CLASSICO")
        try cli.ok("pizza", "attach", "Margherita", "Impasto")
        let list = try cli.ok("modifier", "list").stdout
        #expect(list.contains("KIND") && list.contains("removal") && list.contains("offered, default"), "\(list)")
        let placed = try cli.ok(
            "order", "place", "anna", "--pickup", "19:30", "Margherita+basilico", "Margherita+integrale")
        #expect(
            placed.stdout.contains(
                "1 × Margherita Normale + senza basilico, 1 × Margherita Normale + Impasto: integrale"),
            "\(placed)")
        let summary = try cli.sqlite("SELECT items FROM order_summary;").stdout
        #expect(summary.contains("Margherita Normale + senza basilico,") && !summary.contains("classico"), "\(summary)")
        let stored = try cli.sqlite("SELECT modifiers FROM order_lines WHERE line_no = 1;").stdout
        #expect(
            stored.contains(#""default":true,"group":"Impasto""#) && stored.contains(#""kind":"removal""#), "\(stored)")
        // Refusals: each names the field and the rule, exits 65 and changes nothing.
        let before = try cli.sqlite("SELECT count(*) FROM audit_log;").stdout
        let priced = try cli.run("modifier", "add", "Senza", "aglio", "--price", "1")
        #expect(priced.status == 65 && priced.stderr.contains("error: price: Senza is a removal"), "\(priced)")
        let unknown = try cli.run("modifier", "group", "edit", "Impasto", "--default", "nope")
        #expect(unknown.status == 65 && unknown.stderr.contains("default: Impasto offers no 'nope'"), "\(unknown)")
        let archive = try cli.run("modifier", "edit", "Impasto", "classico", "--archive")
        #expect(archive.status == 65 && archive.stderr.contains("--default NAME"), "\(archive)")
        let kind = try cli.run("modifier", "group", "add", "Cottura", "--kind", "many")
        #expect(kind.status == 65 && kind.stderr.contains("kind: must be one of extra, removal, choice"), "\(kind)")
        let bounds = try cli.run("modifier", "group", "add", "Cottura", "--kind", "choice", "--max", "2")
        #expect(bounds.status == 65 && bounds.stderr.contains("a choice takes exactly one"), "\(bounds)")
        let toRemoval = try cli.run("modifier", "group", "edit", "Aggiunte", "--kind", "removal")
        #expect(toRemoval.status == 65 && toRemoval.stderr.contains("kind: a removal costs nothing"), "\(toRemoval)")
        #expect(try cli.sqlite("SELECT count(*) FROM audit_log;").stdout == before)
        try cli.ok("check")
    }
}
