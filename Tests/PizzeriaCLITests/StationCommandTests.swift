import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: stations and categories prepared at them (the real binary)")
struct StationCommandTests {
    @Test("station add/list/edit/remove, category --station; a full station refuses by name with exit 1")
    func stations() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T10:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        #expect(try cli.ok("station", "list").stdout.contains("Forno  the slot capacity"))
        let added = try cli.ok("station", "add", "Friggitrice", "--capacity", "3").stdout
        #expect(added == "Added station Friggitrice (3 per slot).\n", "\(added)")
        let fritti = try cli.ok("category", "add", "Fritti", "--station", "friggitrice").stdout
        #expect(fritti == "Added category Fritti (prepared at Friggitrice, 3 per slot).\n", "\(fritti)")
        try cli.ok("category", "add", "Bevande", "--no-station")
        let categories = try cli.ok("category", "list", "--csv").stdout
        #expect(
            categories.contains("2,Fritti,false,2,Friggitrice") && categories.contains("3,Bevande,false,3,"),
            "\(categories)")
        try cli.ok("pizza", "add", "--name", "Crocchè", "--price", "2.50", "--category", "Fritti")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("user", "add", "anna")
        try cli.ok("order", "place", "anna", "--pickup", "19:30", "Crocchè=2", "Margherita=4")
        let full = try cli.run("order", "place", "anna", "--pickup", "19:30", "Crocchè=2")
        #expect(full.status == 1, "\(full)")
        #expect(
            full.stderr.contains("error: Friggitrice makes only 1 more in the 2026-12-01 19:30 slot (asked for 2)"),
            "\(full)")
        // slots shows each station's load beside the slot's (the oven's).
        let slots = try cli.ok("slots", "--date", "2026-12-01").stdout
        #expect(slots.contains("STATIONS") && slots.contains("Friggitrice 2/3"), "\(slots)")
        let slotRows = try cli.json("slots", "--date", "2026-12-01", "--json") as? [[String: Any]] ?? []
        let half = slotRows.first { ($0["local"] as? String)?.hasSuffix("19:30") == true }
        #expect((half?["stations"] as? [[String: Any]])?.first?["booked"] as? Int == 2, "\(String(describing: half))")
        // The picker for a cart: a slot is offered only where the fryer has room for the cart's part.
        func offered(_ cart: String...) throws -> [String] {
            let answer =
                try cli.json(["slots", "--available", "--after", "19:15", "--limit", "3", "--json"] + cart)
                as? [String: Any]
            return (answer?["slots"] as? [[String: Any]])?.compactMap { $0["time"] as? String } ?? []
        }
        #expect(try offered("Crocchè=2") == ["19:15", "19:45", "20:00"])
        #expect(try offered("Crocchè", "Margherita=2") == ["19:15", "19:30", "19:45"])
        let tooMany = try cli.json(["slots", "--available", "--json", "Crocchè=4"]) as? [String: Any]
        #expect(tooMany?["reason"] as? String == "too_large", "\(String(describing: tooMany))")
        #expect((tooMany?["message"] as? String)?.contains("Friggitrice makes at most 3 pieces per slot") == true)
        let table = try cli.ok("slots", "--available", "--after", "19:15", "--limit", "2", "Crocchè=2").stdout
        #expect(table.contains("19:15") && !table.contains("19:30"), "\(table)")
        #expect(try cli.run("slots", "--available", "--pizzas", "2", "Crocchè").status == 64)
        #expect(try cli.run("slots", "--date", "today", "Crocchè").status == 64)
        let notOnMenu = try cli.run("slots", "--available", "Supplì")
        #expect(notOnMenu.status == 66 && notOnMenu.stderr.contains("Supplì"), "\(notOnMenu)")
        let json = try cli.json("station", "list", "--json") as? [[String: Any]]
        #expect(json?.map { $0["name"] as? String } == ["Forno", "Friggitrice"])
        #expect(json?.last?["capacity"] as? Int == 3 && json?.first?["holds_slot_capacity"] as? Bool == true)
        try cli.ok("station", "edit", "Friggitrice", "--no-limit")
        try cli.ok("order", "place", "anna", "--pickup", "19:30", "Crocchè=9")
        let loads = try cli.sqlite("SELECT booked FROM station_loads;").stdout
        #expect(loads == "11\n", "\(loads)")
        // Refusals: each names the field or the rule and changes nothing.
        let removeForno = try cli.run("station", "remove", "Forno")
        #expect(removeForno.status == 1 && removeForno.stderr.contains("never removed"), "\(removeForno)")
        let used = try cli.run("station", "remove", "Friggitrice")
        #expect(used.status == 1 && used.stderr.contains("prepares Fritti"), "\(used)")
        let fornoCapacity = try cli.run("station", "edit", "Forno", "--capacity", "4")
        #expect(fornoCapacity.status == 65 && fornoCapacity.stderr.contains("capacity: Forno holds the slot capacity"))
        let unknown = try cli.run("category", "edit", "Fritti", "--station", "Brace")
        #expect(unknown.status == 66 && unknown.stderr.contains("Forno, Friggitrice"), "\(unknown)")
        let both = try cli.run("station", "edit", "Friggitrice", "--capacity", "3", "--no-limit")
        #expect(both.status == 64, "\(both)")
        try cli.ok("station", "add", "Bar")
        try cli.ok("station", "remove", "Bar")
        try cli.ok("check")
    }

    @Test("a staff override books a quarter over a full station, recorded; past it, exit 1 naming the station")
    func overrideAtAStation() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T10:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("station", "add", "Friggitrice", "--capacity", "4")
        try cli.ok("category", "add", "Fritti", "--station", "Friggitrice")
        try cli.ok("pizza", "add", "--name", "Crocchè", "--price", "2.50", "--category", "Fritti")
        try cli.ok("user", "add", "anna")
        try cli.ok("order", "place", "anna", "--pickup", "19:30", "Crocchè=4")
        let full = try cli.run("order", "place", "anna", "--pickup", "19:30", "Crocchè")
        #expect(full.status == 1 && full.stderr.contains("hint: ") && full.stderr.contains("--override"), "\(full)")
        try cli.ok("order", "place", "anna", "--pickup", "19:30", "Crocchè", "--override", "regular customer")
        let beyond = try cli.run("order", "place", "anna", "--pickup", "19:30", "Crocchè", "--override", "again")
        #expect(beyond.status == 1, "\(beyond)")
        #expect(
            beyond.stderr.contains(
                "error: Friggitrice makes 4 in the 2026-12-01 19:30 slot and has 5 booked: an override books at most 1 over its capacity"
            ), "\(beyond)")
        let recorded = try cli.sqlite(
            "SELECT t.name, c.pizzas, c.reason, c.actor FROM capacity_overrides c JOIN stations t ON t.id = c.station_id;"
        ).stdout
        #expect(recorded == "Friggitrice|1|regular customer|giulia\n", "\(recorded)")
        #expect(try cli.sqlite("SELECT booked FROM station_loads;").stdout == "5\n")
        // A party of fritti alone (no pizza) spreads over the fryer's room; it used to trap.
        let party = try cli.ok("order", "place", "anna", "--pickup", "20:00", "Crocchè=6", "--split").stdout
        #expect(
            party.contains("(2 orders)") && party.contains("4 × Crocchè") && party.contains("2 × Crocchè"), "\(party)")
        let loads = try cli.sqlite(
            "SELECT substr(pickup_at, 12, 5) || ' ' || booked FROM station_loads ORDER BY pickup_at;"
        ).stdout
        #expect(loads == "18:30 5\n19:00 4\n19:15 2\n", "\(loads)")
        try cli.ok("check")
    }

    @Test("a board per station, a ticket per station, bump until ready (exit codes, JSON)")
    func boardAndBump() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T10:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "Europe/Rome")
        try cli.ok("station", "add", "Friggitrice")
        try cli.ok("category", "add", "Fritti", "--station", "Friggitrice")
        try cli.ok("category", "add", "Bevande", "--no-station")
        try cli.ok("pizza", "add", "--name", "Crocchè", "--price", "2.50", "--category", "Fritti")
        try cli.ok("pizza", "add", "--name", "Acqua", "--price", "1.50", "--category", "Bevande")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("user", "add", "anna")
        let placed =
            try cli.json("order", "place", "anna", "--pickup", "19:30", "Crocchè=2", "Margherita", "Acqua")
            as? [String: Any]
        let id = String(try #require(placed?["id"] as? String).suffix(8))
        let fryer = try cli.ok("order", "board", "--station", "friggitrice").stdout
        #expect(
            fryer.contains("· Friggitrice") && fryer.contains("2 × Crocchè") && !fryer.contains("Margherita"),
            "\(fryer)")
        let ticket = try cli.ok("order", "ticket", id, "--station", "Forno", "--width", "32").stdout
        #expect(
            ticket.contains("FORNO") && ticket.contains("1 x Margherita") && !ticket.contains("Crocchè"), "\(ticket)")
        let first = try cli.ok("order", "bump", id, "--station", "Friggitrice").stdout
        #expect(first == "Friggitrice done on order \(id); still owing: Forno.\n", "\(first)")
        // The board in the shop's language (Italian by default).
        #expect(try cli.ok("order", "board", "--station", "friggitrice").stdout.contains("Nessun ordine aperto."))
        let all = try cli.ok("order", "board").stdout
        #expect(
            all.hasPrefix("Cucina ") && all.contains("MANCA") && all.contains("BANCO") && all.contains("1 × Acqua")
                && all.contains("in preparazione") == false && all.contains("ricevuto"), "\(all)")
        let last = try cli.json("order", "bump", id, "--station", "Forno", "--json") as? [String: Any]
        #expect(last?["made_ready"] as? Bool == true && last?["status"] as? String == "ready")
        let again = try cli.run("order", "bump", id, "--station", "Forno")
        #expect(again.status == 1 && again.stderr.contains("only on a placed or preparing order"), "\(again)")
        let missing = try cli.run("order", "bump", id)
        #expect(missing.status == 64 && missing.stderr.contains("--station"), "\(missing)")
        let history = try cli.ok("order", "show", id).stdout
        #expect(history.contains("every station done") && history.contains("giulia"), "\(history)")
        try cli.ok("check")
    }
}
