import Foundation
import PizzeriaStorage

/// Moves a shop to another node (docs/SHOPS.md, "Moving a shop"): drain → final sync → restore on
/// the target → switch the placement → resume.
///
/// 1. **Drain**: the placement marks the shop `moving` (new requests get busy, 75: retry), and
///    the old file is fenced (``MoveFence``) in a write transaction, which waits for the write in
///    flight; every later write to that file is refused.
/// 2. **Final sync**: the fence's commit is the file's last; the move restores the shop from the
///    old node's replica until a copy carries the fence, so the copy holds every commit before it
///    — every acknowledged write. The copy's rows must equal the old file's (``Database/contentDigest()``).
/// 3. **Restore on the target**: the copy is unfenced and put in place in the target's directory
///    (a rename: a file appears whole or not at all).
/// 4. **Switch**: the placement names the target, serving; requests go there.
/// 5. **Resume**: the old file (fenced) is removed, so nothing of the shop stays on the old node.
///
/// The fence's token is the move's own (kept in the placement's `moves.fence`), so a copy fenced
/// by an earlier move of the same shop is never taken for this one's.
///
/// Any failure before the switch undoes the drain (the old file unfenced, the placement serving
/// on the old node, the copy removed) and is reported as ``PlacementError/moveFailed(shop:reason:)``.
/// A move killed midway leaves the shop `moving`; moving it again to the same node resumes.
public struct ShopMove: Sendable {
    /// Writes the newest state of the replica at `replica` (the old node's replica of the shop)
    /// to the new file `output` — `litestream restore -o OUTPUT file://REPLICA` for Litestream.
    public typealias Restore = @Sendable (_ replica: String, _ output: String) throws -> Void

    /// The placement to change.
    public let placement: Placement
    /// How a copy is restored from the replica.
    public let restore: Restore
    /// How long the final sync may take before the move is undone.
    public let timeout: Duration
    /// How the shops' files are opened.
    public let configuration: PizzeriaConfiguration

    /// A mover.
    public init(
        placement: Placement, timeout: Duration = .seconds(60), configuration: PizzeriaConfiguration = .init(),
        restore: @escaping Restore
    ) {
        (self.placement, self.timeout, self.configuration, self.restore) = (placement, timeout, configuration, restore)
    }

    /// Moves `shop` to node `target`; `progress` hears each step.
    /// - Throws: ``PlacementError`` (`moving` to another node, `moveFailed` with the reason, the
    ///   nodes unknown); storage errors of the placement itself.
    public func move(_ shop: ShopName, to target: ShopName, progress: (String) -> Void = { _ in }) throws
        -> ShopMoveReport
    {
        let started = ContinuousClock.now
        let (from, to, moveID, token) = try begin(shop, to: target)
        let source = Shops.path(of: shop, in: from.shopsDirectory)
        let destination = Shops.path(of: shop, in: to.shopsDirectory)
        var fenced: Database?
        var temporary: String?
        do {
            guard FileManager.default.fileExists(atPath: source) else {
                throw MoveStep("the file of the shop on node \(from.name) is missing (\(source))")
            }
            let old = try Database(path: source, configuration: configuration.database)
            fenced = old
            try old.write { try MoveFence.set(token, on: $0) }
            let fencedAt = ContinuousClock.now
            progress("fenced \(source): writes refused from now on")
            let digest = try old.contentDigest()
            var attempts = 0
            if FileManager.default.fileExists(atPath: destination) {
                // A move killed after putting the copy in place: the copy must be the old file's rows.
                guard try Database(path: destination, configuration: configuration.database).contentDigest() == digest
                else {
                    throw MoveStep("node \(to.name) has a different file for this shop already (\(destination))")
                }
                try unfence(destination)
            } else {
                let copy = try syncedCopy(
                    replica: Shops.path(of: shop, in: from.replicaDirectory), next: destination, token: token,
                    digest: digest, attempts: &attempts, temporary: &temporary)
                progress("restored from the replica of node \(from.name) in \(attempts) attempt(s); rows identical")
                try FileManager.default.moveItem(atPath: copy, toPath: destination)
                temporary = nil
                try Self.syncDirectory(of: destination)
            }
            let stamp = placement.stamp
            try placement.database.write { db in
                try PlacementStore.endMove(
                    moveID, shop: shop.description, servingOn: to.name, outcome: "moved", detail: nil, at: stamp.at,
                    by: stamp.by, db)
            }
            let refusing = ContinuousClock.now - fencedAt
            progress("placement: \(shop) served by node \(to.name)")
            fenced = nil
            // The old node keeps nothing of the shop: its file and Litestream's local state of it.
            // The move is done, so a file that cannot be removed is said, not thrown (it is fenced).
            let litestreamState =
                (source as NSString).deletingLastPathComponent + "/." + (source as NSString).lastPathComponent
                + "-litestream"
            do {
                try removeFiles(source)
                if FileManager.default.fileExists(atPath: litestreamState) {
                    try FileManager.default.removeItem(atPath: litestreamState)
                }
            } catch {
                progress("warning: the old file stays on node \(from.name), fenced; remove it by hand: \(error)")
            }
            let signalled = Self.retireReplica(of: from)
            progress(
                signalled
                    ? "told node \(from.name)'s replicator to retire the shop's replica"
                    : "no replicator of node \(from.name) to tell (\(Self.replicatorPIDFile(of: from))); restart it to retire the shop's replica"
            )
            return ShopMoveReport(
                shop: shop.description, from: from.name, to: to.name, path: destination, digest: digest,
                restoreAttempts: attempts, writesRefusedSeconds: Self.seconds(refusing),
                seconds: Self.seconds(ContinuousClock.now - started))
        } catch {
            let reason = (error as? any PizzeriaFailure)?.description ?? (error as? MoveStep)?.message ?? "\(error)"
            if let temporary { try? removeFiles(temporary) }
            try fenced?.write { try MoveFence.set(nil, on: $0) }
            let stamp = placement.stamp
            try placement.database.write { db in
                try PlacementStore.endMove(
                    moveID, shop: shop.description, servingOn: from.name, outcome: "aborted", detail: reason,
                    at: stamp.at, by: stamp.by, db)
            }
            throw PlacementError.moveFailed(shop: shop.description, reason: reason)
        }
    }

    /// Marks the move in the placement (or finds the move a kill interrupted, to the same node).
    private func begin(_ shop: ShopName, to target: ShopName) throws -> (PlacementNode, PlacementNode, Int64, Int32) {
        let to = try placement.node(target)
        let stamp = placement.stamp
        return try placement.database.write { db in
            guard let row = try PlacementStore.placement(of: shop.description, db) else {
                throw PlacementError.notPlaced(shop.description)
            }
            guard let from = try PlacementStore.node(named: row.node, db) else {
                throw PlacementError.noNode(row.node)
            }
            if let moving = row.target {
                guard moving == to.name, let open = try PlacementStore.openMove(of: shop.description, db) else {
                    throw PlacementError.moving(shop: shop.description, from: row.node, to: moving)
                }
                return (from, to, open.id, open.fence)
            }
            guard row.node != to.name else {
                throw PlacementError.moveFailed(shop: shop.description, reason: "it is on node \(to.name) already")
            }
            let token = MoveFence.newToken()
            let id = try PlacementStore.beginMove(
                shop.description, from: from.name, to: to.name, fence: token, at: stamp.at, by: stamp.by, db)
            return (from, to, id, token)
        }
    }

    /// Restores copies next to `next` until one carries the fence, then checks its rows.
    private func syncedCopy(
        replica: String, next: String, token: Int32, digest: String, attempts: inout Int, temporary: inout String?
    ) throws -> String {
        let directory = (next as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.milliseconds(50)
        var last = "the replica never had the fence"
        while true {
            attempts += 1
            let copy = "\(directory)/.\((next as NSString).lastPathComponent).restoring-\(attempts)"
            try? removeFiles(copy)
            temporary = copy
            do {
                try restore(replica, copy)
                if try isWhole(copy, token: token, digest: digest) {
                    try unfence(copy)
                    return copy
                }
                last = "the newest restore point is before this move's fence"
            } catch let step as MoveStep {
                throw step
            } catch {
                last = (error as? any PizzeriaFailure)?.description ?? "\(error)"
            }
            try removeFiles(copy)
            temporary = nil
            guard ContinuousClock.now + pause < deadline else {
                throw MoveStep(
                    "the replica of the shop did not reach the fence within \(Self.seconds(timeout)) s (\(last)); is the node's replicator running?"
                )
            }
            Thread.sleep(forTimeInterval: Self.seconds(pause))
            pause = min(pause * 2, .seconds(1))
        }
    }

    /// Whether the copy at `path` carries the fence, so holds every commit; its rows must then be
    /// the old file's.
    private func isWhole(_ path: String, token: Int32, digest: String) throws -> Bool {
        let restored = try Database(path: path, configuration: configuration.database)
        guard try restored.read({ try MoveFence.token($0) }) == token else { return false }
        guard try restored.contentDigest() == digest else {
            throw MoveStep(
                "the copy restored with the fence has other rows than the old file: something wrote to it without the fence (sqlite3?)"
            )
        }
        return true
    }

    /// Lifts the fence of the copy at `path` and empties its WAL into the file, so the file alone
    /// (without a `-wal`) is the open shop when it is renamed into place.
    private func unfence(_ path: String) throws {
        do {
            let copy = try Database(path: path, configuration: configuration.database)
            try copy.write { try MoveFence.set(nil, on: $0) }
            guard case .cleared = try copy.clearWAL(waitingUpTo: 5) else {
                throw MoveStep("the copy's WAL could not be emptied (\(path)): a reader holds it")
            }
        }
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
        let check = try Database(path: path, configuration: configuration.database, readOnly: true)
        guard try check.read({ try MoveFence.token($0) }) == nil else {
            throw MoveStep("the copy is still fenced after lifting the fence (\(path))")
        }
    }

    /// Where `scripts/replicate-shops` keeps its pid, in the node's replica directory.
    static func replicatorPIDFile(of node: PlacementNode) -> String {
        "\(node.replicaDirectory)/.litestream/replicate-shops.pid"
    }

    /// Signals the node's replicator (SIGUSR1) to restart its Litestream processes and retire the
    /// replicas of shops no longer on the node; `false` when none runs.
    static func retireReplica(of node: PlacementNode) -> Bool {
        guard let text = try? String(contentsOfFile: replicatorPIDFile(of: node), encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1
        else { return false }
        return kill(pid, SIGUSR1) == 0
    }

    /// Makes a rename in the directory of `path` durable.
    static func syncDirectory(of path: String) throws {
        let directory = open((path as NSString).deletingLastPathComponent, O_RDONLY)
        guard directory >= 0 else { throw MoveStep("cannot open the directory of \(path) to sync it") }
        defer { close(directory) }
        guard fsync(directory) == 0 else { throw MoveStep("cannot sync the directory of \(path)") }
    }

    private func removeFiles(_ path: String) throws {
        for suffix in ["-wal", "-shm", ""] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// Why a step of a move failed, in words.
struct MoveStep: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// What a move did.
///
/// JSON: `{"shop", "from", "to", "path", "digest", "restore_attempts", "writes_refused_seconds", "seconds"}`.
public struct ShopMoveReport: Sendable, Hashable, Codable {
    /// The shop.
    public let shop: String
    /// The node it left.
    public let from: String
    /// The node serving it now.
    public let to: String
    /// Its file there.
    public let path: String
    /// The digest of its rows, equal on both nodes.
    public let digest: String
    /// Restores from the replica until one carried the fence.
    public let restoreAttempts: Int
    /// From the fence to the switch: how long writes were refused.
    public let writesRefusedSeconds: Double
    /// The whole move.
    public let seconds: Double

    enum CodingKeys: String, CodingKey {
        case shop, from, to, path, digest, restoreAttempts = "restore_attempts"
        case writesRefusedSeconds = "writes_refused_seconds", seconds
    }
}
