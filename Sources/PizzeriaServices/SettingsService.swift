import Foundation
import PizzeriaStorage

/// Reading and changing the pizzeria's settings, each change validated.
public final class SettingsService: Sendable {
    let database: Database

    init(database: Database) { self.database = database }

    /// The current settings.
    public func current() throws -> Settings {
        try database.read { try Self.current(in: $0) }
    }

    static func current(in db: Connection) throws -> Settings {
        let settings = try db.fetchOne(
            "SELECT slot_minutes, slot_capacity, opens_at, closes_at, time_zone FROM settings WHERE id = 1") { row in
            Settings(slotMinutes: try row.int(0), slotCapacity: try row.int(1),
                     opensAt: Settings.minutes(try row.string(2)) ?? 0, closesAt: Settings.minutes(try row.string(3)) ?? 0,
                     storedTimeZone: try row.optionalString(4))
        }
        guard let settings else { throw DatabaseError.missingRow("settings") }
        return settings
    }

    /// Changes one setting.
    /// - Throws: ``ValidationError`` naming the key and the rule when `value` is not valid.
    @discardableResult
    public func set(_ key: SettingKey, to value: String) throws -> Settings {
        let text = value.trimmingWhitespace()
        let invalid = ValidationError([FieldError(field: key.rawValue, message: "must be \(key.rule)")])
        try database.write { db in
            switch key {
            case .slotMinutes:
                guard let minutes = Int(text), (1...60).contains(minutes), 60 % minutes == 0 else { throw invalid }
                try db.run("UPDATE settings SET slot_minutes = ?, updated_at = ? WHERE id = 1", [minutes, Timestamp.now()])
            case .slotCapacity:
                guard let capacity = Int(text), (1...10_000).contains(capacity) else { throw invalid }
                try db.run("UPDATE settings SET slot_capacity = ?, updated_at = ? WHERE id = 1", [capacity, Timestamp.now()])
            case .openingHours:
                let parts = text.split(separator: "-").map { String($0).trimmingWhitespace() }
                guard parts.count == 2, let opens = Settings.minutes(parts[0]), let closes = Settings.minutes(parts[1]),
                      opens < closes, opens < 24 * 60 else { throw invalid }
                try db.run("UPDATE settings SET opens_at = ?, closes_at = ?, updated_at = ? WHERE id = 1",
                           [Settings.clock(opens), Settings.clock(closes), Timestamp.now()])
            case .timeZone:
                let stored: String?
                if text.lowercased() == "system" {
                    stored = nil
                } else {
                    guard !text.isEmpty, TimeZone(identifier: text) != nil else { throw invalid }
                    stored = text
                }
                try db.run("UPDATE settings SET time_zone = ?, updated_at = ? WHERE id = 1", [stored, Timestamp.now()])
            }
        }
        return try current()
    }
}
