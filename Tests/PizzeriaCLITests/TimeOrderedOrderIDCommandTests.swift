import Foundation
import PizzeriaTestSupport
import Testing

/// Order ids as staff meet them at the CLI (the real binary): time-ordered, shown by their end.
@Suite("CLI: time-ordered order ids and their short ids")
struct TimeOrderedOrderIDCommandTests {
    @Test(
        "an order's id starts with PIZZERIA_NOW's millisecond; list, board and messages show its last 8 characters, which show, advance, routes and completion take"
    )
    func shortIDs() throws {
        var cli = CLI()
        cli.environment["PIZZERIA_NOW"] = "2026-12-01T09:00:00.250Z"
        try cli.ok("init")
        try cli.ok("config", "set", "time-zone", "UTC")
        try cli.ok("pizza", "add", "--name", "Margherita", "--price", "6")
        try cli.ok("user", "add", "anna")
        var ids: [String] = []
        for time in ["19:00", "19:15"] {
            let order =
                try cli.json("order", "place", "anna", "--pickup", "2026-12-04T\(time)", "Margherita") as? [String: Any]
            ids.append(try #require(order?["id"] as? String))
            #expect(order?["short_id"] as? String == shortID(ids[ids.count - 1]), "the JSON says what people see")
        }
        // 2026-12-01T09:00:00.250Z is 1,796,115,600,250 ms: 01a230d5-137a.
        #expect(ids.allSatisfy { $0.hasPrefix("01a230d5-137a-7") }, "\(ids)")
        let shorts = ids.map { shortID($0) }
        #expect(shorts == ids.map { String($0.suffix(8)) })
        let list = try cli.ok("order", "list").stdout
        #expect(shorts.allSatisfy { list.contains($0) } && !list.contains("01a230d5"), "\(list)")
        let board = try cli.ok("order", "board", "--date", "2026-12-04").stdout
        #expect(shorts.allSatisfy { board.contains($0) }, "\(board)")
        #expect(try cli.ok("order", "show", shorts[0]).stdout.contains(ids[0]))
        #expect(
            try cli.ok("order", "advance", String(shorts[1].prefix(5))).stdout
                == "Order \(shorts[1]) is now preparing.\n")
        // The start both share is their time: ambiguous, and the refusal names their short ids.
        let ambiguous = try cli.run("order", "show", "01a230d5")
        #expect(ambiguous.status == 65 && ambiguous.stderr.contains(shorts[0]) && ambiguous.stderr.contains(shorts[1]))
        let missing = try cli.run("order", "show", "beef")
        #expect(
            missing.status == 66 && missing.stderr.contains("no order with id, short id or the start of either 'beef'"))
        #expect(try cli.ok("nav", "push", "anna", "order:\(shorts[0])").stdout.contains("order \(shorts[0])"))
        let offered = try cli.run("__complete", "order", "show", String(shorts[0].prefix(4))).stdout
        #expect(offered.split(separator: "\n").contains(Substring(shorts[0])), "\(offered)")
    }
}
