import Foundation
import PizzeriaServices

/// How pizzas look on a terminal, and how flag values become a draft.
enum PizzaText {
    static func table(showStatus: Bool) -> Table {
        showStatus
            ? Table("ID", "NAME", "PRICE", "STATUS", rightAligned: [2])
            : Table("ID", "NAME", "PRICE", rightAligned: [2])
    }

    static func table(_ pizzas: [Pizza], showStatus: Bool) -> String {
        guard !pizzas.isEmpty else { return "The menu is empty.\n" }
        var table = table(showStatus: showStatus)
        for pizza in pizzas { table.rows.append(cells(pizza, showStatus: showStatus)) }
        return table.rendered
    }

    /// A row of the menu; an item sold out (or limited) for a pickup now is marked after its name.
    static func cells(_ pizza: Pizza, showStatus: Bool, now: Date = Date()) -> [String] {
        let stock = pizza.left(for: now).map { $0 == 0 ? " (sold out)" : " (\($0) left)" } ?? ""
        let cells = [pizza.id.short, pizza.name + stock, pizza.price.formatted]
        return showStatus ? cells + [pizza.isArchived ? "archived" : "on menu"] : cells
    }

    static func detail(
        _ item: MenuItem, category: Category?, history: [PizzaChange], zone: TimeZone
    ) -> String {
        let pizza = item.pizza
        let section = category.map { "\($0.name)" + ($0.usesOven ? "" : " (no oven)") } ?? "\(pizza.categoryID)"
        var text = """
            \(pizza.name)
              id        \(pizza.id)
              price     \(pizza.price.formatted)
              category  \(section)
              stock     \(stockText(pizza.stockLeft, until: pizza.stockUntil, zone: zone))
              allergens \(pizza.allergens.isEmpty ? "none declared" : Allergen.codes(pizza.allergens).joined(separator: ", "))
              status    \(pizza.isArchived ? "archived \(pizza.archivedAt?.local(zone) ?? "")" : "on the menu")
              version   \(pizza.version)
              created   \(pizza.createdAt.local(zone))
              updated   \(pizza.updatedAt.local(zone))


            """
        if item.variants.count > 1 {
            var variants = Table("VARIANT", "PRICE", "DEFAULT", rightAligned: [1])
            for variant in item.variants {
                variants.add(variant.name, variant.price.formatted, variant.isDefault ? "yes" : "")
            }
            text += "Variants:\n\n" + variants.rendered + "\n"
        }
        for group in item.modifierGroups {
            var modifiers = Table("MODIFIER", "PRICE", "ALLERGENS", "", rightAligned: [1])
            for modifier in group.modifiers {
                let prices =
                    ([modifier.price.formatted] + modifier.variantPrices.map { "\($0.variant) \($0.price.formatted)" })
                modifiers.add(
                    modifier.name, prices.joined(separator: ", "),
                    Allergen.codes(modifier.allergens).joined(separator: ", "),
                    modifier.isArchived
                        ? "archived"
                        : modifier.stockLeft == nil
                            ? "" : stockText(modifier.stockLeft, until: modifier.stockUntil, zone: zone))
            }
            text += "\(group.name) (\(group.ruleText)):\n\n" + modifiers.rendered + "\n"
        }
        text += "History:\n\n"
        var table = Table("WHEN", "CHANGE", "NAME", "PRICE", "VERSION")
        for change in history {
            let name = change.oldName.map { $0 == change.newName ? $0 : "\($0) → \(change.newName)" } ?? change.newName
            let price =
                change.oldPrice.map {
                    $0 == change.newPrice ? $0.formatted : "\($0.formatted) → \(change.newPrice.formatted)"
                }
                ?? change.newPrice.formatted
            table.add(change.changedAt.local(zone), change.change.rawValue, name, price, "\(change.version)")
        }
        text += table.rendered
        return text
    }

    /// "no limit", "sold out until 2026-12-01 23:30", "12 left until …".
    static func stockText(_ left: Int?, until: Date?, zone: TimeZone) -> String {
        guard let left else { return "no limit" }
        return (left == 0 ? "sold out" : "\(left) left")
            + (until.map { " until \($0.local(zone))" } ?? " until made available")
    }

    /// `draft` with the fields given on the command line; a price that does not parse becomes
    /// a field error reported together with the draft's other errors.
    static func draft(from draft: PizzaDraft, name: String?, price: String?) throws -> PizzaDraft {
        var draft = draft
        var priceErrors: [FieldError] = []
        if let name { draft.name = name }
        if let price {
            switch Money.parse(price) {
            case .success(let money): draft.price = money
            case .failure(let error): priceErrors.append(FieldError(field: "price", message: error.message))
            }
        }
        let problems = draft.validate().filter { $0.field != "price" || priceErrors.isEmpty } + priceErrors
        guard problems.isEmpty else { throw ValidationError(problems) }
        return draft
    }
}
