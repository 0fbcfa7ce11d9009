import Foundation
import PizzeriaStorage

/// What a bump did: the station's part marked done, and whether that made the order ready.
public struct BumpResult: Sendable, Hashable, Encodable {
    /// The order as it is now.
    public let order: Order
    /// The station whose part is done.
    public let station: String
    /// Whether the station had already marked it done (nothing changed).
    public let alreadyDone: Bool
    /// The stations that still owe their part, in the stations' order.
    public let owing: [String]
    /// Whether this bump made the order ready (every station done).
    public let madeReady: Bool

    private enum CodingKeys: String, CodingKey {
        case orderID = "order_id", status, station, alreadyDone = "already_done", owing, madeReady = "made_ready"
    }

    /// JSON: `{"order_id", "status", "station", "already_done", "owing", "made_ready"}`.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(order.id, forKey: .orderID)
        try container.encode(order.status, forKey: .status)
        try container.encode(station, forKey: .station)
        try container.encode(alreadyDone, forKey: .alreadyDone)
        try container.encode(owing, forKey: .owing)
        try container.encode(madeReady, forKey: .madeReady)
    }
}

// A station marks its part of an order done, as a kitchen display's bump; the order is ready by
// itself once every station of its lines has (its history keeps each step and who made it).
extension OrderService {
    /// Marks `station`'s part of order `id` done; when no station of its lines still owes its
    /// part, the order goes to ready (through preparing), in the same transaction.
    /// - Throws: ``OrderError/notFound(_:)``; ``OrderError/illegalTransition(orderID:from:action:)``
    ///   unless placed or preparing; ``OrderError/nothingAtStation(orderID:station:stations:)``.
    @discardableResult
    public func bump(id: Order.ID, station: Station.ID, by actor: String? = nil) throws -> BumpResult {
        let problems = Self.actorProblems(actor)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.write { db in
            guard var header = try OrderStore.header(id: id, in: db) else { throw OrderError.notFound(id.description) }
            guard header.status == .placed || header.status == .preparing else {
                throw OrderError.illegalTransition(orderID: header.id, from: header.status, action: .bump)
            }
            let stations = try StationStore.list(in: db)
            let name = try MenuService.requiredStation(station, in: db).name
            let lines = try OrderStore.numberedLines(of: id, in: db).map(\.line)
            let making = Set(lines.compactMap(\.stationID))
            let ordered = stations.filter { making.contains($0.id) }
            guard making.contains(station) else {
                throw OrderError.nothingAtStation(orderID: header.id, station: name, stations: ordered.map(\.name))
            }
            let fresh = try StationStore.bump(order: id, station: station, actor: actor, at: now, in: db)
            let done = try StationStore.bumps(of: [id], in: db)[id] ?? []
            let owing = ordered.filter { !done.contains($0.id) }.map(\.name)
            var madeReady = false
            if owing.isEmpty {
                while header.status != .ready {
                    guard let next = header.status.next,
                        try OrderStore.setStatus(
                            id: header.id, from: header.status, to: next, actor: actor,
                            note: next == .ready ? "every station done" : nil, at: now, in: db),
                        let updated = try OrderStore.header(id: header.id, in: db)
                    else { throw OrderError.illegalTransition(orderID: header.id, from: header.status, action: .bump) }
                    header = updated
                }
                madeReady = true
            }
            return BumpResult(
                order: try OrderAssembler(now: now, in: db).order(header), station: name, alreadyDone: !fresh,
                owing: owing, madeReady: madeReady)
        }
    }
}
