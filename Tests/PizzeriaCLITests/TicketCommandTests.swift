import Foundation
import PizzeriaTestSupport
import Testing

@Suite("CLI: order ticket, a kitchen ticket within its width (the real binary)")
struct TicketCommandTests {
    @Test("order ticket prints the items for the kitchen in 32, 42 or 48 display columns; --json; refusals")
    func ticket() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T10:00:00Z"
        cli.environment["PIZZERIA_STAFF"] = "giulia"
        try cli.ok("init")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("modifier", "group", "add", "Senza", "--kind", "removal", "--max", "3")
        try cli.ok("modifier", "add", "Senza", "basilico")
        try cli.ok("pizza", "attach", "Margherita", "Senza")
        try cli.ok("user", "add", "kenji", "--name", "山田 健二 🍕")
        let placed =
            try cli.json(
                "order", "place", "kenji", "--pickup", "19:30", "Margherita+basilico=2", "--line-note",
                "1=ben cotta e tagliata in otto pezzi, grazie") as? [String: Any]
        let id = try #require(placed?["id"] as? String)
        for width in ["32", "42", "48"] {
            let text = try cli.ok("order", "ticket", String(id.suffix(8)), "--width", width).stdout
            let lines = text.split(separator: "\n")
            #expect(lines.allSatisfy { columns($0) <= Int(width) ?? 0 }, "\(text)")
            #expect(text.contains("RITIRO 19:30") && text.contains("山田 健二 🍕") && text.contains("2 x Margherita"))
            #expect(
                text.contains("\n  senza basilico") && !text.contains("+ senza") && text.contains(">> ben cotta")
                    && !text.contains("€"))
        }
        let json = try cli.json("order", "ticket", String(id.suffix(8)), "--json") as? [String: Any]
        #expect(json?["order_id"] as? String == id && json?["items"] as? Int == 2 && json?["station"] is NSNull)
        let width = try cli.run("order", "ticket", String(id.suffix(8)), "--width", "40")
        #expect(width.status == 65 && width.stderr.contains("error: width: must be 32, 42 or 48"), "\(width)")
        let unknown = try cli.run("order", "ticket", "ffffffff")
        #expect(unknown.status == 66 && unknown.stderr.contains("no order"), "\(unknown)")
    }

    /// Display columns as a terminal counts them (East Asian wide and fullwidth, and emoji, two).
    func columns(_ line: Substring) -> Int {
        line.unicodeScalars.reduce(0) { total, scalar in
            let value = scalar.value
            if (0x0300...0x036F).contains(value) || value == 0xFE0F || value == 0x200D { return total }
            let wide =
                (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
                || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
                || (0xFF00...0xFF60).contains(value) || (0x1F300...0x1FAFF).contains(value)
            return total + (wide ? 2 : 1)
        }
    }
}
