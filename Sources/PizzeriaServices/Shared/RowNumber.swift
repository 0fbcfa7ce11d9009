import Foundation
import PizzeriaStorage

/// The id of a menu part the schema numbers itself (a category, a variant, a modifier group, a
/// modifier): a small whole number, typed by what it identifies so one kind cannot be passed for
/// another. JSON and SQL: the number.
public struct RowNumber<Entity>: Sendable, Hashable, Comparable, Codable, CustomStringConvertible,
    DatabaseValueConvertible
{
    /// The stored number.
    public let rawValue: Int64
    /// An id from its stored number.
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    /// The number as text.
    public var description: String { String(rawValue) }
    /// Binds as an integer.
    public var databaseValue: DatabaseValue { .integer(rawValue) }
    /// Reads an integer column.
    public init(databaseValue: DatabaseValue) throws { rawValue = try Int64(databaseValue: databaseValue) }
    /// A JSON number.
    public init(from decoder: Decoder) throws { rawValue = try decoder.singleValueContainer().decode(Int64.self) }
    /// A JSON number.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    /// By number.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
