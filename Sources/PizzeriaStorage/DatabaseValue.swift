import Foundation

/// One SQLite value, as bound to a statement or read from a row.
///
/// SQLite has five storage classes; this enum has one case for each.
public enum DatabaseValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob(Data)
}

/// A Swift type that can be bound to a statement parameter and read back from a column.
///
/// ```swift
/// try connection.run("INSERT INTO users (handle, display_name) VALUES (?, ?)",
///                    ["anna", Optional<String>.none])
/// ```
public protocol DatabaseValueConvertible {
    /// The value to bind.
    var databaseValue: DatabaseValue { get }
    /// Reads the value back.
    /// - Throws: ``DatabaseError`` of kind ``DatabaseError/Kind/typeMismatch`` when the stored
    ///   value has another type (a `NULL` included, unless `Self` is an `Optional`).
    init(databaseValue: DatabaseValue) throws
    /// Writes the value's text into `buffer` (``databaseTextCapacity`` bytes) and returns how many
    /// bytes it wrote, when it binds as text it can write without building a `String` (an id, a
    /// stored timestamp); `nil` for every other value, which binds through ``databaseValue``. The
    /// default is `nil`. Not generic, so a statement binding it through the protocol calls it
    /// directly.
    func writeDatabaseText(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int?
}

/// The room ``DatabaseValueConvertible/writeDatabaseText(into:)`` has for one value's text.
public let databaseTextCapacity = 64

extension DatabaseValueConvertible {
    /// No text form of its own: the value binds through ``databaseValue``.
    public func writeDatabaseText(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? { nil }
}

extension DatabaseValue: DatabaseValueConvertible {
    /// The value itself.
    public var databaseValue: DatabaseValue { self }
    /// The value itself; never throws.
    public init(databaseValue: DatabaseValue) { self = databaseValue }
}

extension DatabaseValue {
    /// A short name of the storage class, for error messages.
    public var typeName: String {
        switch self {
        case .null: "NULL"
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        }
    }

    fileprivate func mismatch(_ expected: String) -> DatabaseError {
        DatabaseError.typeMismatch("expected \(expected), found \(typeName)")
    }
}

extension Int64: DatabaseValueConvertible {
    /// Binds as `INTEGER`.
    public var databaseValue: DatabaseValue { .integer(self) }
    /// Reads an `INTEGER`.
    public init(databaseValue: DatabaseValue) throws {
        guard case .integer(let value) = databaseValue else { throw databaseValue.mismatch("INTEGER") }
        self = value
    }
}

extension Int: DatabaseValueConvertible {
    /// Binds as `INTEGER`.
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    /// Reads an `INTEGER`.
    public init(databaseValue: DatabaseValue) throws {
        self = Int(try Int64(databaseValue: databaseValue))
    }
}

extension Bool: DatabaseValueConvertible {
    /// Binds as `INTEGER` 1 or 0, SQLite's booleans.
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    /// Reads an `INTEGER`: zero is false, anything else true.
    public init(databaseValue: DatabaseValue) throws {
        self = try Int64(databaseValue: databaseValue) != 0
    }
}

extension Double: DatabaseValueConvertible {
    /// Binds as `REAL`.
    public var databaseValue: DatabaseValue { .real(self) }
    /// Reads a `REAL` (an `INTEGER` is converted).
    public init(databaseValue: DatabaseValue) throws {
        switch databaseValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: throw databaseValue.mismatch("REAL")
        }
    }
}

extension String: DatabaseValueConvertible {
    /// Binds as `TEXT`.
    public var databaseValue: DatabaseValue { .text(self) }
    /// Reads a `TEXT`.
    public init(databaseValue: DatabaseValue) throws {
        guard case .text(let value) = databaseValue else { throw databaseValue.mismatch("TEXT") }
        self = value
    }
}

extension Data: DatabaseValueConvertible {
    /// Binds as `BLOB`.
    public var databaseValue: DatabaseValue { .blob(self) }
    /// Reads a `BLOB`.
    public init(databaseValue: DatabaseValue) throws {
        guard case .blob(let value) = databaseValue else { throw databaseValue.mismatch("BLOB") }
        self = value
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// Binds `nil` as `NULL`.
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
    /// Reads `NULL` as `nil`.
    public init(databaseValue: DatabaseValue) throws {
        if case .null = databaseValue { self = nil } else { self = try Wrapped(databaseValue: databaseValue) }
    }
}
