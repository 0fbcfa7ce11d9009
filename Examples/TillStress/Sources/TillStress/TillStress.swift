// Eight tills book orders as fast as the database takes them — the async API, so the bookings
// share commits — and each acknowledged order's id is appended to LOG the moment its call
// returns. Kill it at any time: every id in LOG was acknowledged, so a later restore can be
// checked against it.
//
//   swift run -c release TillStress DATABASE LOG [SECONDS]
//
// The database needs users, pizzas and open slots (`pizzeria demo` and a large
// `config set slot-capacity`); the environment's PIZZERIA_* variables configure it as they do
// the CLI (PIZZERIA_CHECKPOINTS=external next to Litestream). Without SECONDS it runs until
// killed.
import Foundation
import PizzeriaServices

@main
struct TillStress {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 2 || arguments.count == 3, let path = arguments.first,
            let logPath = arguments.dropFirst().first
        else {
            FileHandle.standardError.write(Data("usage: TillStress DATABASE LOG [SECONDS]\n".utf8))
            exit(64)
        }
        let seconds = arguments.count == 3 ? Double(arguments[arguments.startIndex + 2]) : nil
        let configuration = try PizzeriaConfiguration(environment: ProcessInfo.processInfo.environment)
        let pizzeria = try await Pizzeria.open(path: path, access: .requireCurrent, configuration: configuration)
        let users = try await pizzeria.read { try $0.users.list() }.map(\.id)
        let pizzas = try await pizzeria.read { try $0.menu.list() }.map(\.id)
        let slots = try await pizzeria.read { try $0.orders.availableSlots(pizzas: 1, limit: 100) }.slots.map(\.start)
        guard !users.isEmpty, !pizzas.isEmpty, !slots.isEmpty else {
            FileHandle.standardError.write(
                Data("TillStress: the database needs users, pizzas and open slots (pizzeria demo)\n".utf8))
            exit(65)
        }
        guard FileManager.default.createFile(atPath: logPath, contents: nil) else {
            FileHandle.standardError.write(Data("TillStress: cannot create \(logPath)\n".utf8))
            exit(74)
        }
        let tally = Tally(log: try FileHandle(forWritingTo: URL(fileURLWithPath: logPath)))
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        await withTaskGroup(of: Void.self) { group in
            for till in 0..<8 {
                group.addTask {
                    var index = till
                    while deadline.map({ Date() < $0 }) ?? true {
                        index += 8
                        let request = OrderRequest(
                            user: users[index % users.count], items: [.init(pizza: pizzas[index % pizzas.count])],
                            pickup: slots[index % slots.count])
                        do {
                            // Written as soon as the call returns: what is in the log was acknowledged.
                            tally.booked(try await pizzeria.write { try $0.orders.place(request) }.order.id)
                        } catch {
                            tally.refused()
                        }
                    }
                }
            }
        }
        print("tills: \(tally.summary)")
    }
}

/// The log of acknowledged orders and the counts, shared by the tills.
final class Tally: @unchecked Sendable {
    // @unchecked: every member is used under `lock`.
    private let lock = NSLock()
    private let log: FileHandle
    private var bookings = 0, refusals = 0

    init(log: FileHandle) { self.log = log }

    func booked(_ id: Order.ID) {
        lock.withLock {
            log.write(Data((id.description + "\n").utf8))
            bookings += 1
        }
    }

    func refused() { lock.withLock { refusals += 1 } }

    var summary: String { lock.withLock { "\(bookings) orders booked, \(refusals) refused" } }
}
