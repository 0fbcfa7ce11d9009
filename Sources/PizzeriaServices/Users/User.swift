import Foundation

/// A person using the app or booking orders, named by a handle.
///
/// JSON: `{"id", "handle", "display_name", "phone", "erased_at", "created_at"}`.
public struct User: Sendable, Hashable, Identifiable, Record {
    /// A user's id.
    public typealias ID = Identifier<User>

    /// Its id.
    public internal(set) var id: ID = .blank
    /// 1–32 characters of `a-z 0-9 . _ -`, lowercase, unique.
    public internal(set) var handle: String = ""
    /// Optional name for people.
    public internal(set) var displayName: String?
    /// Optional phone number for the counter, E.164 (`+393331234567`).
    public internal(set) var phone: String?
    /// When it was added.
    public internal(set) var createdAt: Date = Date(timeIntervalSince1970: 0)
    /// When the customer's personal data was erased at their request (the handle is then a
    /// pseudonym), or `nil`.
    public internal(set) var erasedAt: Date?

    /// A user from its parts (rows are read through its members, see ``Record``).
    public init(
        id: ID, handle: String, displayName: String?, phone: String? = nil, createdAt: Date, erasedAt: Date? = nil
    ) {
        self.id = id
        self.handle = handle
        self.displayName = displayName
        self.phone = phone
        self.createdAt = createdAt
        self.erasedAt = erasedAt
    }

    /// A value for a reader to fill (see ``Record``).
    public init(blank: RecordBlank) {}

    /// The members, declared once for its rows, its JSON and its CSV (see ``Record``).
    public mutating func members<Visitor: MemberVisitor>(_ visitor: inout Visitor) throws {
        try visitor.member("created_at", timestamp: &createdAt)
        try visitor.member("display_name", &displayName)
        try visitor.member("erased_at", timestamp: &erasedAt)
        try visitor.member("handle", &handle)
        try visitor.member("id", &id)
        try visitor.member("phone", &phone)
    }
}

extension User: StoredMembers {
    static let table = "users"
}

/// The rules for handles and display names.
public enum UserRules {
    /// The longest handle.
    public static let maximumHandleLength = 32
    /// The longest display name, in user-perceived characters.
    public static let maximumDisplayNameLength = 80

    /// `raw` trimmed and lowercased: handles are stored lowercase, so `Luca` and `luca` are one
    /// handle (front ends say when they lowered one).
    public static func normalizeHandle(_ raw: String) -> String { raw.trimmingWhitespace().lowercased() }

    /// A phone number as people type it (`+39 333 123 4567`, `+39-333-1234567`, `(+39) 333…`,
    /// `0039 333…`) in E.164 form (`+393331234567`), or `nil` when it is not one: a `+`, a country
    /// code that does not start with 0, 8 to 15 digits in all. With `region` (the shop's country,
    /// `config set phone-region IT`), a national number (`081 555 1234`) is read in that country.
    public static func normalizePhone(_ raw: String, region: PhoneRegion? = nil) -> String? {
        let kept = raw.unicodeScalars.filter { !" -.()/".unicodeScalars.contains($0) }
        var text = String(String.UnicodeScalarView(kept))
        if text.hasPrefix("00") { text = "+" + text.dropFirst(2) }
        if !text.hasPrefix("+"), let region {
            // A national number, read in the shop's country.
            guard (4...15).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }),
                let international = region.international(national: text)
            else { return nil }
            text = international
        }
        guard text.hasPrefix("+") else { return nil }
        let digits = text.dropFirst()
        guard (8...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0"
        else { return nil }
        return text
    }

    /// The prefix of erased users' pseudonyms; no handle people choose may start with it.
    public static let pseudonymPrefix = "erased-"

    /// The pseudonym an erased user's handle becomes (`erased-1a2b3c4d-5e6f`): stable for the
    /// user, and never a handle people can choose.
    static func pseudonym(for id: User.ID) -> String { pseudonymPrefix + id.description.prefix(13) }

    /// The rules a normalised handle breaks.
    public static func handleProblems(_ handle: String) -> [FieldError] {
        if handle.isEmpty { return [FieldError(field: "handle", message: "must not be empty")] }
        var errors: [FieldError] = []
        if handle.count > maximumHandleLength {
            errors.append(
                FieldError(
                    field: "handle", message: "must be at most \(maximumHandleLength) characters (has \(handle.count))")
            )
        }
        if !handle.unicodeScalars.allSatisfy({ "abcdefghijklmnopqrstuvwxyz0123456789._-".unicodeScalars.contains($0) })
        {
            errors.append(FieldError(field: "handle", message: "may contain only a-z, 0-9, '.', '_' and '-'"))
        }
        if handle.hasPrefix(pseudonymPrefix) {
            errors.append(
                FieldError(
                    field: "handle", message: "must not start with '\(pseudonymPrefix)' (kept for erased customers)"))
        }
        return errors
    }

    /// The trimmed display name, `nil` when blank.
    public static func normalizeDisplayName(_ raw: String?) -> String? {
        guard let trimmed = raw.map({ $0.trimmingWhitespace().precomposedStringWithCanonicalMapping }), !trimmed.isEmpty
        else { return nil }
        return trimmed
    }

    /// The rules a normalised display name breaks.
    public static func displayNameProblems(_ name: String?) -> [FieldError] {
        guard let name else { return [] }
        var errors: [FieldError] = []
        if name.unicodeScalars.count > maximumDisplayNameLength {
            errors.append(
                FieldError(
                    field: "name",
                    message:
                        "must be at most \(maximumDisplayNameLength) characters (Unicode scalars; has \(name.unicodeScalars.count))"
                ))
        }
        if name.unicodeScalars.contains(where: PizzaName.isForbidden) {
            errors.append(FieldError(field: "name", message: "must not contain control characters or line breaks"))
        }
        return errors
    }
}

/// Why a user lookup or change was refused.
public enum UserError: PizzeriaFailure, Equatable {
    /// No user has this id or handle.
    case notFound(_ reference: String)
    /// The handle is taken.
    case duplicateHandle(String)
    /// The user's personal data was erased; nothing more can be changed.
    case erased(String)
    /// A search (name, phone) matched several users: their handles, up to five.
    case ambiguous(query: String, handles: [String])

    /// Not found, or refused.
    public var category: FailureCategory {
        switch self {
        case .notFound: .notFound
        case .duplicateHandle, .erased: .refused
        case .ambiguous: .invalidInput
        }
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .notFound(let reference): "no user with handle or id '\(reference)'"
        case .ambiguous(let query, let handles):
            "user: '\(query)' matches several users (\(handles.joined(separator: ", "))\(handles.count > 4 ? ", …" : ""))"
        case .duplicateHandle(let handle): "handle: '\(handle)' is already taken"
        case .erased(let handle):
            "user \(handle) was erased at their request: nothing can be booked or changed for them"
        }
    }
}

/// What ``UserService/erase(id:by:waitingForReaders:)`` removed and kept.
///
/// JSON: `{"user", "removed": {"navigation_rows", "notes", "history_entries", "idempotency_keys"},
/// "cancelled_orders": [id], "orders_kept", "wal_cleared", "wal_readers": [pid]}`.
public struct UserErasure: Sendable, Hashable, Encodable {
    /// The user as it is now: the pseudonym, no name or phone.
    public let user: User
    /// Navigation stack, sheet and history rows deleted.
    public let navigationRows: Int
    /// Order notes removed.
    public let notes: Int
    /// History entries redacted (free text, or their name as the actor).
    public let historyEntries: Int
    /// Idempotency keys dropped (a key may hold a handle).
    public let keys: Int
    /// Future orders cancelled by the erasure.
    public let cancelledOrders: [Order.ID]
    /// Orders kept for the books, under the pseudonym (the cancelled ones included).
    public let ordersKept: Int
    /// Whether the write-ahead log was emptied after it (nothing of them left in the `-wal`).
    public let walCleared: Bool
    /// When not: the processes whose read transactions kept it (Linux; may be empty).
    public let walReaders: [Int32]

    private enum CodingKeys: String, CodingKey {
        case user, removed, cancelledOrders = "cancelled_orders", ordersKept = "orders_kept", walCleared =
            "wal_cleared", walReaders = "wal_readers"
    }

    private enum RemovedKeys: String, CodingKey {
        case navigationRows = "navigation_rows", notes, historyEntries = "history_entries", keys = "idempotency_keys"
    }

    /// The documented JSON shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user, forKey: .user)
        var removed = container.nestedContainer(keyedBy: RemovedKeys.self, forKey: .removed)
        try removed.encode(navigationRows, forKey: .navigationRows)
        try removed.encode(notes, forKey: .notes)
        try removed.encode(historyEntries, forKey: .historyEntries)
        try removed.encode(keys, forKey: .keys)
        try container.encode(cancelledOrders, forKey: .cancelledOrders)
        try container.encode(ordersKept, forKey: .ordersKept)
        try container.encode(walCleared, forKey: .walCleared)
        try container.encode(walReaders, forKey: .walReaders)
    }
}
