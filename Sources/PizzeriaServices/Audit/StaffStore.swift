import Foundation
import PizzeriaStorage

/// The SQL of the staff list.
enum StaffStore {
    struct Decoder: RowDecoder {
        let name, role, addedAt: Column

        init(columns: ColumnResolver) throws {
            (name, role, addedAt) = (try columns("name"), try columns("role"), try columns("added_at"))
        }

        func decode(_ row: Row) throws -> StaffMember {
            let name = try row.string(name), roleText = try row.string(role), added = try row.string(addedAt)
            guard let role = StaffRole(rawValue: roleText), let date = Timestamp.date(from: added) else {
                throw DataError.damagedRow(
                    table: "staff", id: name, problem: "role '\(roleText)' or added_at '\(added)' cannot be read")
            }
            return StaffMember(name: name, role: role, addedAt: date)
        }
    }

    static func all(in db: Connection) throws -> [StaffMember] {
        try db.fetchAll("SELECT name, role, added_at FROM staff ORDER BY name", [], Decoder.self)
    }

    static func member(_ name: String, in db: Connection) throws -> StaffMember? {
        try db.fetchOne("SELECT name, role, added_at FROM staff WHERE name = ?", [name], Decoder.self)
    }

    static func insert(_ name: String, role: StaffRole, at now: Date, in db: Connection) throws {
        try db.run(
            "INSERT INTO staff (name, role, added_at) VALUES (?, ?, ?)",
            [name, role.rawValue, Timestamp.string(from: now)])
    }

    static func delete(_ name: String, in db: Connection) throws {
        try db.run("DELETE FROM staff WHERE name = ?", [name])
    }

    static func owners(in db: Connection) throws -> Int {
        try db.fetchOne("SELECT count(*) AS n FROM staff WHERE role = 'owner'") { try $0.int("n") } ?? 0
    }

    static func requiresStaff(in db: Connection) throws -> Bool {
        try db.fetchOne("SELECT require_staff FROM settings WHERE id = 1") { try $0.int("require_staff") == 1 } ?? false
    }

    static func setRequired(_ required: Bool, in db: Connection) throws {
        try db.run("UPDATE settings SET require_staff = ? WHERE id = 1", [required ? 1 : 0])
    }
}
