import Foundation
import PizzeriaServices
import PizzeriaTestSupport
import Testing

@Suite("Crash safety: writers killed with SIGKILL at random moments (the real binary)")
struct CrashTests {
    /// Tomorrow in UTC (the binary runs with TZ=UTC and the demo's default zone).
    static var tomorrow: String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month, .day], from: Date().addingTimeInterval(86_400))
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// One command a worker ran, and how it ended.
    struct Attempt: Sendable {
        let key: String?
        let status: Int32
    }

    @Test(
        "booking, navigation and price edits killed 40 times: every acknowledged write is whole, every invariant holds")
    func killedWriters() throws {
        let cli = CLI()
        try cli.ok("demo")
        let running = Locked<[Int: RunningProcess]>([:])
        let attempts = Locked<[Attempt]>([])
        let kills = Locked(0)
        let stop = Locked(false)
        let directory = cli.directory.url, day = Self.tomorrow

        // Three workers, each starting one pizzeria process after another.
        let commands: [@Sendable (Int) -> (arguments: [String], key: String?)] = [
            { n in
                let slot = String(format: "%@T%02d:%02d", day, 12 + n % 11, (n / 11 % 4) * 15)
                let key = "crash-\(n)"
                return (
                    [
                        "order", "place", "anna", "--pickup", slot, "--key", key, "Margherita=1",
                        "Marinara=\(1 + n % 2)",
                    ], key
                )
            },
            { n in (n % 3 == 2 ? ["nav", "pop", "anna"] : ["nav", "push", "anna", "pizza:Porcini"], nil) },
            { n in (["pizza", "edit", "Porcini", "--price", "\(10 + n % 7).50"], nil) },
        ]
        var workers: [Thread] = []
        let finished = DispatchSemaphore(value: 0)
        for (index, command) in commands.enumerated() {
            let worker = Thread {
                var n = 0
                while !stop.get() {
                    let (arguments, key) = command(n)
                    n += 1
                    guard let process = try? PizzeriaBinary.start(arguments, in: directory) else { continue }
                    let slot = index * 1_000_000 + n
                    running.set(running.get().merging([slot: process]) { $1 })
                    let result = try? process.wait()
                    running.set(running.get().filter { $0.key != slot })
                    attempts.set(attempts.get() + [Attempt(key: key, status: result?.status ?? -1)])
                }
                finished.signal()
            }
            workers.append(worker)
            worker.start()
        }

        // The killer: SIGKILL a random running writer every 20–120 ms, 40 times (30 s at most).
        let deadline = Date().addingTimeInterval(30)
        while kills.get() < 40 && Date() < deadline {
            usleep(UInt32.random(in: 20_000...120_000))
            if let victim = running.get().values.randomElement(), victim.isRunning {
                victim.kill()
                kills.set(kills.get() + 1)
            }
        }
        stop.set(true)
        for _ in workers { finished.wait() }
        #expect(kills.get() >= 40)
        let all = attempts.get()
        let acknowledged = all.compactMap { $0.status == 0 ? $0.key : nil }
        #expect(all.contains { $0.status == -9 })
        #expect(!acknowledged.isEmpty)

        // The file is sound.
        let check = try cli.run("check")
        #expect(check.status == 0, "\(check)")

        let pizzeria = try Pizzeria.open(path: cli.databasePath, access: .requireCurrent)
        try pizzeria.database.read { db in
            // Every acknowledged order is there, with its lines and the right total.
            for key in acknowledged {
                let order = try db.fetchOne(
                    """
                    SELECT o.total_cents, count(l.line_no) AS lines, coalesce(sum(l.quantity * l.unit_price_cents), 0) AS sum_cents
                    FROM orders o LEFT JOIN order_lines l ON l.order_id = o.id WHERE o.idempotency_key = ?
                    """, [key]
                ) { (try $0.int("total_cents"), try $0.int("lines"), try $0.int("sum_cents")) }
                #expect(order?.1 == 2 && order?.0 == order?.2, "order \(key): \(String(describing: order))")
            }
            // No order without lines; no slot over capacity; no version behind its history, none twice in it.
            #expect(
                try db.fetchOne(
                    "SELECT count(*) AS value FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id)"
                ) { try $0.int("value") } == 0)
            let fullest =
                try db.fetchOne(
                    """
                    SELECT coalesce(max(load), 0) AS fullest FROM (SELECT sum(l.quantity) AS load FROM orders o JOIN order_lines l ON l.order_id = o.id
                    WHERE o.status <> 'cancelled' GROUP BY o.pickup_at)
                    """
                ) { try $0.int("fullest") } ?? 0
            let capacity = try db.fetchOne("SELECT slot_capacity FROM settings") { try $0.int("slot_capacity") } ?? 0
            #expect(fullest <= capacity)
            #expect(
                try db.fetchOne(
                    """
                    SELECT count(*) AS value FROM pizzas p
                    WHERE version < (SELECT max(h.version) FROM pizza_history h WHERE h.pizza_id = p.id)
                       OR (SELECT count(*) - count(DISTINCT h.version) FROM pizza_history h WHERE h.pizza_id = p.id) <> 0
                    """
                ) { try $0.int("value") } == 0)

            // Replaying each user's navigation history gives their stack.
            let users = try db.fetchAll("SELECT id FROM users") { try $0.string("id") }
            for user in users {
                var stack: [String] = []
                try db.forEach(
                    "SELECT action, routes, depth_after FROM navigation_events WHERE user_id = ? ORDER BY id", [user]
                ) { row in
                    let routes =
                        try JSONSerialization.jsonObject(with: Data(try row.string("routes").utf8)) as? [Any] ?? []
                    let texts = try routes.map {
                        String(
                            decoding: try JSONSerialization.data(withJSONObject: $0, options: .sortedKeys),
                            as: UTF8.self)
                    }
                    let action = try row.string("action"), depth = try row.int("depth_after")
                    switch action {
                    case "push", "random": stack += texts
                    case "replace", "open_url", "import": stack = texts
                    case "pop", "pop_to", "pop_to_root": stack = Array(stack.prefix(depth))
                    default: break
                    }
                    #expect(stack.count == depth || action.hasPrefix("sheet"))
                }
                let stored = try db.fetchAll(
                    "SELECT kind, pizza_id, order_id FROM navigation_stack WHERE user_id = ? ORDER BY depth", [user]
                ) { row in
                    try row.string("kind") == "pizza"
                        ? "{\"pizza\":{\"id\":\"\(try row.string("pizza_id"))\"}}"
                        : "{\"order\":{\"id\":\"\(try row.string("order_id"))\"}}"
                }
                #expect(stack == stored, "user \(user)")
            }
        }
    }
}
