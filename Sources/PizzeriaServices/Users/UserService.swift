import Foundation
import PizzeriaStorage

/// Users: adding, listing, finding by id or handle. An unknown user is always an error, never a
/// silent creation. Thread-safe; run it from `async` code through ``Pizzeria/read(_:)`` or ``Pizzeria/write(_:)``.
public final class UserService: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    /// Who acts through this handle, for the audit log.
    let acting: Acting

    init(database: Database, now: @escaping @Sendable () -> Date, acting: Acting = .library) {
        self.database = database
        self.now = now
        self.acting = acting
    }

    /// Adds a user.
    /// - Parameters:
    ///   - handle: 1–32 characters of `a-z 0-9 . _ -`; uppercase letters are lowered.
    ///   - displayName: optional; trimmed, at most 80 characters.
    ///   - phone: optional; E.164 (`+39 333 123 4567` is stored `+393331234567`).
    /// - Throws: ``ValidationError`` (every broken rule), ``UserError/duplicateHandle(_:)``.
    @discardableResult
    public func add(handle: String, displayName: String? = nil, phone: String? = nil) throws -> User {
        let handle = UserRules.normalizeHandle(handle)
        let name = UserRules.normalizeDisplayName(displayName)
        let (number, phoneProblems) = try phone.map { try self.phone($0) } ?? (nil, [])
        let problems = UserRules.handleProblems(handle) + UserRules.displayNameProblems(name) + phoneProblems
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        return try database.audited(acting, at: now) { db in
            guard try UserStore.user(handle: handle, in: db) == nil else { throw UserError.duplicateHandle(handle) }
            return try UserStore.insert(
                id: .random(), handle: handle, displayName: name, phone: number, at: now, in: db)
        }
    }

    /// A change of one user field: keep it, set it, or clear it.
    public enum FieldChange: Sendable, Hashable {
        /// This value.
        case set(String)
        /// No value.
        case clear
    }

    /// Changes a user's handle, display name or phone; fields not given stay.
    /// - Throws: ``ValidationError``, ``UserError/duplicateHandle(_:)``, ``UserError/notFound(_:)``,
    ///   ``UserError/erased(_:)``.
    @discardableResult
    public func edit(id: User.ID, handle: String? = nil, displayName: FieldChange? = nil, phone: FieldChange? = nil)
        throws -> User
    {
        let newHandle = handle.map(UserRules.normalizeHandle)
        var problems = newHandle.map(UserRules.handleProblems) ?? []
        var name: String??, number: String??
        if let displayName {
            if case .set(let text) = displayName {
                let normal = UserRules.normalizeDisplayName(text)
                problems +=
                    normal == nil
                    ? [FieldError(field: "name", message: "must not be empty (clear it instead)")]
                    : UserRules.displayNameProblems(normal)
                name = .some(normal)
            } else {
                name = .some(nil)
            }
        }
        if let phone {
            if case .set(let text) = phone {
                let (normal, phoneProblems) = try self.phone(text)
                problems += phoneProblems
                number = .some(normal)
            } else {
                number = .some(nil)
            }
        }
        guard problems.isEmpty else { throw ValidationError(problems) }
        return try database.audited(acting, at: now()) { db in
            let user = try UserStore.required(id, in: db)
            guard user.erasedAt == nil else { throw UserError.erased(user.handle) }
            if let newHandle, newHandle != user.handle, try UserStore.user(handle: newHandle, in: db) != nil {
                throw UserError.duplicateHandle(newHandle)
            }
            try UserStore.update(
                id: id, handle: newHandle ?? user.handle, displayName: name ?? user.displayName,
                phone: number ?? user.phone, in: db)
            return try UserStore.required(id, in: db)
        }
    }

    /// Erases a customer's personal data at their request, in one transaction: name and phone
    /// removed, the handle replaced by a stable pseudonym (`erased-1a2b3c4d-5e6f`), their future
    /// orders cancelled (`erased` in their history), the notes of their orders and the free text of
    /// those orders' history redacted, their name as an actor replaced by the pseudonym, their
    /// idempotency keys dropped, their navigation state, sheet and history deleted — every deleted
    /// byte overwritten (`secure_delete`). Their orders stay for the books (items, amounts,
    /// times), and the erasure is recorded (`user_erasures`). Then the write-ahead log is emptied
    /// (waiting up to `waitingForReaders` seconds for readers of older snapshots), so nothing of
    /// them stays in the `-wal` either; when a reader keeps it, ``UserErasure/walCleared`` is false,
    /// `check` reports the erasure pending and `check --repair` (or the next erasure) finishes it.
    /// - Throws: ``UserError/notFound(_:)``, ``UserError/erased(_:)``.
    @discardableResult
    public func erase(id: User.ID, by actor: String? = nil, waitingForReaders: TimeInterval = 2) throws -> UserErasure {
        let problems = OrderService.actorProblems(actor)
        guard problems.isEmpty else { throw ValidationError(problems) }
        let now = now()
        let (user, counts) = try database.audited(acting, at: now) { db in
            let user = try UserStore.required(id, in: db)
            guard user.erasedAt == nil else { throw UserError.erased(user.handle) }
            let counts = try UserStore.erase(user, actor: actor, at: now, in: db)
            return (try UserStore.required(id, in: db), counts)
        }
        let wal = try Self.clearErasures(from: database, at: now, waitingForReaders: waitingForReaders)
        return UserErasure(
            user: user, navigationRows: counts.navigationRows, notes: counts.notes,
            historyEntries: counts.historyEntries,
            keys: counts.keys, cancelledOrders: counts.cancelled, ordersKept: counts.ordersKept,
            walCleared: wal == .cleared, walReaders: { if case .heldByReaders(let pids) = wal { pids } else { [] } }())
    }

    /// Empties the WAL of every erasure still pending in it, and records that it did.
    static func clearErasures(from database: Database, at now: Date, waitingForReaders: TimeInterval) throws
        -> Database.WALClearing
    {
        // Read first: an erasure committed after this read is not marked, even if the checkpoint covers it.
        let pending = try database.read { try UserStore.erasuresPendingInWAL(in: $0) }
        let outcome = try database.clearWAL(waitingUpTo: waitingForReaders)
        if outcome == .cleared, !pending.isEmpty {
            try database.write { try UserStore.markWALCleared(pending, at: now, in: $0) }
        }
        return outcome
    }

    /// A phone number normalised (a national one in the shop's phone region, if set), or the problem with it.
    private func phone(_ raw: String) throws -> (String?, [FieldError]) {
        guard !raw.trimmingWhitespace().isEmpty else { return (nil, []) }
        let national = !raw.trimmingWhitespace().hasPrefix("+") && !raw.trimmingWhitespace().hasPrefix("00")
        let region = national ? try database.read { try ShopStore.phoneRegion(in: $0) } : nil
        guard let number = UserRules.normalizePhone(raw, region: region) else {
            let rule =
                region.map {
                    "must be a phone number of \($0) such as 081 555 1234, or international: + and 8 to 15 digits"
                }
                ?? "must be an international number: + and 8 to 15 digits, such as +39 333 123 4567 "
                + "(a national number needs the shop's phone region)"
            return (nil, [FieldError(field: "phone", message: rule)])
        }
        return (number, [])
    }

    /// The users a person at the counter means by `text`: part of a handle or display name (any
    /// case), or of a phone number in any common format (`333 123 4567`, `+39 333…`, `0039…`; a
    /// national number's leading 0 is ignored). Erased customers are never found. At most `limit`.
    /// - Throws: ``ValidationError`` for an empty text or one over 64 characters.
    public func find(_ text: String, limit: Int = 50) throws -> [User] {
        let size = min(max(1, limit), 1_000)
        return try database.read { try Self.find(text, limit: size, in: $0) }
    }

    /// ``find(_:limit:)`` inside a transaction: the one search, for `user find` and for every
    /// lookup that accepts a name or a phone (`order list --user`).
    static func find(_ text: String, limit: Int, in db: Connection) throws -> [User] {
        let typed = text.trimmingWhitespace()
        let problems = TextLimit.problems(typed, field: "text", maximum: 64)
        guard problems.isEmpty else { throw ValidationError(problems) }
        var digits = String(typed.unicodeScalars.filter { ("0"..."9").contains($0) }.map(Character.init))
        if digits.hasPrefix("00") { digits.removeFirst(2) }
        while digits.hasPrefix("0") { digits.removeFirst() }
        return try UserStore.find(typed, digits: digits.count >= 3 ? digits : nil, limit: limit, in: db)
    }

    /// Every user, by handle.
    public func list() throws -> [User] {
        try database.read { try UserStore.list(in: $0) }
    }

    /// Calls `body` with every user, by handle, a page of 1,000 at a time: memory stays that of
    /// one page however many users there are.
    public func forEach(_ body: (User) throws -> Void) throws {
        try Page.forEach({ try page(limit: 1_000, after: $0) }, body)
    }

    /// Up to `limit` users by handle, starting after `cursor`.
    public func page(limit: Int = 100, after cursor: PageCursor? = nil) throws -> Page<User> {
        let after = try cursor?.parts(1)[0] ?? ""
        let size = max(1, limit)
        let users = try database.read { try UserStore.list(after: after, limit: size, in: $0) }
        return Page(items: users, next: users.count < size ? nil : users.last.map { PageCursor([$0.handle]) })
    }

    /// The user with this id, or `nil`.
    public func user(id: User.ID) throws -> User? {
        try database.read { try UserStore.user(id: id, in: $0) }
    }

    /// The user with this handle (in any case), or `nil`.
    public func user(handle: String) throws -> User? {
        try database.read { try UserStore.user(handle: handle, in: $0) }
    }
}
