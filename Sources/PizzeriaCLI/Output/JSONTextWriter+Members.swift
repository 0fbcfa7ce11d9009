import Foundation
import PizzeriaServices

/// The text writer as a ``JSONMemberWriter``: a ``JSONMembers`` shape streams its members straight
/// into the text, without building a tree of values first. Lists print the shapes by the
/// thousand this way (`pizza list --json` went from 5.6× to 1.75× the time of `sqlite3 -json`
/// on the same rows), and every shape's bytes equal `JSONEncoder`'s — `JSONOutputTests` compares
/// them on real rows.
extension JSONTextWriter: JSONMemberWriter {
    mutating func member(_ key: StaticString, _ text: String?) { field(key, text) }
    mutating func member(_ key: StaticString, _ number: Int64) { field(key, number) }
    mutating func member(_ key: StaticString, _ flag: Bool) { field(key, flag) }
    mutating func member<Entity>(_ key: StaticString, id: Identifier<Entity>) { field(key, id: id) }
    mutating func member(_ key: StaticString, timestamp: Date?) { field(key, timestamp: timestamp) }
    mutating func member(_ key: StaticString, minute: Date) { field(key, pickupUTC: minute) }

    mutating func member<Value: JSONMembers>(_ key: StaticString, object: Value?) throws {
        self.key(key)
        guard let object else { return append("null") }
        try writeObject(object)
    }

    mutating func member<Element: JSONMembers>(_ key: StaticString, objects: [Element]) throws {
        self.key(key)
        beginArray()
        for element in objects {
            nextElement()
            try writeObject(element)
        }
        endArray()
    }

    mutating func member<Value: Encodable>(_ key: StaticString, encoded: Value) throws {
        self.key(key)
        try self.encoded(encoded)
    }

    /// One shape as an object at the current nesting.
    mutating func writeObject<Value: JSONMembers>(_ value: Value) throws {
        beginObject()
        try value.writeMembers(to: &self)
        endObject()
    }
}
