import Foundation
import PizzeriaStorage

// The menu file's categories: each matched by name, its station and VAT rate applied.
extension MenuImporter {
    /// The file's categories, in its order: added or updated (position, station, VAT rate).
    /// Returns every category after the import, for the items' lookups.
    mutating func importCategories(_ entries: [MenuFile.CategoryEntry]) throws -> [Category] {
        var categories = try CategoryStore.list(in: db)
        for (index, entry) in entries.enumerated() {
            let place = "categories[\(index)]"
            let name = PizzaName.normalize(entry.name)
            let problems = Category.problems(name: name, position: nil)
            guard problems.isEmpty else { throw fail(place, problems) }
            let position = min(index + 1, Category.maximumPosition)
            // Its station: the one named, else the oven's when it uses the oven, else none.
            let named = try entry.station.map { wanted in
                do { return try MenuService.station(named: wanted, in: db) } catch let error as MenuError {
                    throw fail(place, [FieldError(field: "station", message: error.description)])
                }
            }
            let slotStation = try StationStore.slotStation(in: db)
            if let current = categories.first(where: { PizzaName.foldKey($0.name) == PizzaName.foldKey(name) }) {
                try importVATRate(entry.vatRate, of: current, place: place)
                var station = current.stationID
                if let named {
                    station = named.id
                } else if let usesOven = entry.usesOven, usesOven != current.usesOven {
                    station = usesOven ? slotStation?.id : nil
                }
                guard station != current.stationID || position != current.position else { continue }
                let usesOven = station != nil && station == slotStation?.id
                try CategoryStore.update(
                    Category(
                        id: current.id, name: current.name, position: position, usesOven: usesOven,
                        vatRate: current.vatRate, stationID: station), in: db)
                if station != current.stationID {
                    let stationName = try station.flatMap { try StationStore.station(id: $0, in: db)?.name }
                    note(
                        "category \(current.name)", stationName.map { "prepared at \($0)" } ?? "prepared at no station")
                }
            } else {
                let station = named ?? ((entry.usesOven ?? true) ? slotStation : nil)
                let added = try CategoryStore.insert(name: name, position: position, station: station, in: db)
                note("category \(name)", "added")
                try importVATRate(entry.vatRate, of: added, place: place)
                categories.append(added)
            }
        }
        return categories
    }

    /// A category's VAT rate as the file gives it (`"22"`, `"5.5"`), set when it differs.
    mutating func importVATRate(_ text: String?, of category: Category, place: String) throws {
        guard let text else { return }
        let rate: VATRate
        do { rate = try VATRate.parse(text, field: "vat_rate") } catch let error as ValidationError {
            throw fail(place, error.errors)
        }
        guard rate != category.vatRate else { return }
        _ = try ShopStore.setVATRate(rate, of: category.id, in: db)
        note("category \(category.name)", "VAT \(rate)")
    }
}
