import Foundation
import PizzeriaStorage

/// The SQL of the shop row.
enum ShopStore {
    static func details(in db: Connection) throws -> ShopDetails {
        let details = try db.fetchOne(
            "SELECT name, address, vat_number, vat_rate_bp, phone_region, language FROM shop WHERE id = 1"
        ) { row in
            ShopDetails(
                name: try row.optionalString("name"), address: try row.optionalString("address"),
                vatNumber: try row.optionalString("vat_number"),
                vatRate: VATRate(basisPoints: try row.int("vat_rate_bp")) ?? .standardFood,
                phoneRegion: try row.optionalString("phone_region").flatMap(PhoneRegion.named),
                language: ShopLanguage(rawValue: try row.string("language")) ?? .italian)
        }
        guard let details else { throw DataError.damagedRow(table: "shop", id: "1", problem: "the row is missing") }
        return details
    }

    static func apply(_ change: ShopChange, in db: Connection) throws {
        switch change {
        case .name(let text): try db.run("UPDATE shop SET name = ? WHERE id = 1", [text])
        case .address(let text): try db.run("UPDATE shop SET address = ? WHERE id = 1", [text])
        case .vatNumber(let text): try db.run("UPDATE shop SET vat_number = ? WHERE id = 1", [text])
        case .vatRate(let rate): try db.run("UPDATE shop SET vat_rate_bp = ? WHERE id = 1", [rate.basisPoints])
        case .phoneRegion(let region): try db.run("UPDATE shop SET phone_region = ? WHERE id = 1", [region?.code])
        case .language(let language): try db.run("UPDATE shop SET language = ? WHERE id = 1", [language.rawValue])
        }
    }

    /// The country national phone numbers are read in, if set.
    static func phoneRegion(in db: Connection) throws -> PhoneRegion? {
        try db.fetchOne("SELECT phone_region FROM shop WHERE id = 1") { try $0.optionalString("phone_region") }?
            .flatMap(PhoneRegion.named)
    }

    static func setVATRate(_ rate: VATRate?, of category: Category.ID, in db: Connection) throws -> Bool {
        try db.run("UPDATE categories SET vat_rate_bp = ? WHERE id = ?", [rate?.basisPoints, category]) == 1
    }
}
