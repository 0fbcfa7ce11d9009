import Foundation
import PizzeriaStorage
import PizzeriaTestSupport
import Testing

@testable import PizzeriaServices

/// Rules whose home is Swift and which the schema must also hold against hand-written SQL: the
/// SQL side is checked equal to the Swift definition mechanically (ARCHITECTURE.md, "One home per
/// rule"), so a change on one side that the other does not follow fails here.
@Suite("One home per rule: the schema's copy checked equal to the Swift definition")
struct OneHomeTests {
    /// The repeatable definitions and the Swift sources, as text.
    static func texts() throws -> [(name: String, text: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var found: [(String, String)] = []
        for folder in ["Migrations", "Sources/PizzeriaServices"] {
            let base = root.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
            for file in files.sorted()
            where (folder == "Migrations" && file.hasPrefix("R__"))
                || (folder != "Migrations" && file.hasSuffix(".swift"))
            {
                found.append(
                    (folder + "/" + file, try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)))
            }
        }
        return found
    }

    @Test("the status machine: every (from, to) the trigger lets through is one OrderStatus.canChange allows")
    func statusMachine() throws {
        let f = try OrderFixture()
        let orders = f.pizzeria.orders
        // One order in each status, reached through the library.
        func order(in status: OrderStatus, at time: String) throws -> Order.ID {
            let placed = try f.place("anna", time, ("Margherita", 1))
            let id = placed.order.id
            switch status {
            case .placed: break
            case .preparing: _ = try orders.advance(id: id)
            case .ready: for _ in 0..<2 { _ = try orders.advance(id: id) }
            case .collected:
                for _ in 0..<2 { _ = try orders.advance(id: id) }
                _ = try orders.advance(id: id, by: "giulia", settling: .unpaid(reason: "tab"))
            case .noShow:
                for _ in 0..<2 { _ = try orders.advance(id: id) }
                _ = try orders.markNoShow(id: id)
            case .cancelled: _ = try orders.cancel(id: id)
            }
            return id
        }
        struct Rollback: Error {}
        var disagreements: [String] = []
        for (index, from) in OrderStatus.allCases.enumerated() {
            let id = try order(in: from, at: ["19:00", "19:15", "19:30", "19:45", "20:00", "20:15"][index])
            for to in OrderStatus.allCases where to != from {
                var machineRefused = false
                do {
                    try f.pizzeria.database.write { db in
                        try db.run("UPDATE orders SET status = ? WHERE id = ?", [to.rawValue, id])
                        throw Rollback()
                    }
                } catch let error as DatabaseError {
                    machineRefused = error.message.contains("illegal order status change")
                } catch is Rollback {}
                if machineRefused == from.canChange(to: to) {
                    disagreements.append(
                        "\(from.rawValue) → \(to.rawValue): Swift \(from.canChange(to: to)), SQL \(!machineRefused)")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    @Test("every set of statuses written in SQL is one OrderStatus names")
    func statusSets() throws {
        let all = OrderStatus.allCases
        var named: [Set<String>: String] = [:]
        named[Set(all.filter(\.isBooked).map(\.rawValue))] = "isBooked"
        named[Set(all.filter(\.isCancellable).map(\.rawValue))] = "isCancellable"
        for from in all {
            let targets = Set(all.filter { from.canChange(to: $0) }.map(\.rawValue))
            if !targets.isEmpty { named[targets] = "canChange from \(from.rawValue)" }
        }
        let list = try Regex(#"status (NOT )?IN \(([^)]*)\)"#)
        var unnamed: [String] = []
        var seen = 0
        for (name, text) in try Self.texts() {
            for match in text.matches(of: list) {
                let inside = match.output[2].substring.map(String.init) ?? ""
                let statuses = Set(
                    inside.split(separator: ",").map {
                        $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["'"])
                    })
                seen += 1
                if named[statuses] == nil { unnamed.append("\(name): \(match.output[0].substring ?? "")") }
            }
        }
        #expect(seen >= 10, "the search found the lists (\(seen))")
        #expect(unnamed.isEmpty, "status sets with no name in OrderStatus: \(unnamed)")
        // Holding capacity is every status but cancelled: the schema writes it `status <> 'cancelled'`.
        #expect(all.filter(\.holdsCapacity) == all.filter { $0 != .cancelled })
    }

    @Test("the override margin: every margin the triggers compute is SlotCapacity.overrideMargin")
    func overrideMargin() throws {
        let margin = try Regex(#"min\(\(([A-Za-z_.]+) \+ (\d+)\) / (\d+)"#)
        var expressions: [(add: Int, divide: Int, where: String)] = []
        for (name, text) in try Self.texts() where name.hasPrefix("Migrations/") {
            for match in text.matches(of: margin) {
                let add = Int(match.output[2].substring ?? "") ?? -1
                let divide = Int(match.output[3].substring ?? "") ?? -1
                expressions.append((add, divide, name))
            }
        }
        // The slot's (slot_loads_capacity) and a station's (station_loads_capacity).
        #expect(expressions.count == 2, "\(expressions)")
        let f = try OrderFixture()
        for expression in expressions {
            let differing = try f.pizzeria.database.read { db in
                try db.fetchAll(
                    """
                    WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 10000)
                    SELECT n, (n + ?) / ? AS margin FROM c
                    """, [expression.add, expression.divide]
                ) { (try $0.int("n"), try $0.int("margin")) }
                .filter { SlotCapacity.overrideMargin(of: $0.0) != $0.1 }
            }
            #expect(differing.isEmpty, "\(expression.where): \(differing.prefix(3))")
        }
    }
}
