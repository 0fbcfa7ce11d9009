import Foundation
import PizzeriaServices

/// `pizzeria menu export|import`: the whole menu as one file (docs/MENU.md).
enum MenuFileCommands {
    static let command = Command(
        name: "menu",
        abstract: "Export the menu to a file, or import one (categories, variants, modifiers, allergens).",
        discussion: """
            The file format is documented in docs/MENU.md. An import runs in one transaction: items,
            categories, groups, modifiers and variants are matched by name (ignoring case) and updated, new ones
            are added, nothing is removed; an error names its place in the file (items[3].variants[0].price) and
            nothing is written.
            """,
        subcommands: [export, importCommand])

    static let format = Option(
        "format", "format", help: "json (default, the format import reads) or csv (one row per variant).",
        completion: .choices(["json", "csv"]))
    static let file = OptionalArgument("file", help: "The menu file, or - for standard input (default).")
    static let dryRun = Flag("dry-run", help: "Show the differences the import would make; write nothing.")

    static let export = Command(
        name: "export", abstract: "Print the menu as a file import reads (or CSV for a spreadsheet).",
        options: [format],
        examples: ["pizzeria menu export > menu.json", "pizzeria menu export --format csv > menu.csv"],
        run: { invocation in
            let context = invocation.context
            let file = try context.open(.requireCurrent).menu.export()
            switch try invocation[format]?.lowercased() ?? "json" {
            case "json":
                context.console.outFormatted(String(decoding: try file.encoded(), as: UTF8.self) + "\n")
            case "csv":
                var text = "category,item,variant,price,price_cents,default,allergens,modifier_groups\r\n"
                for item in file.items {
                    for variant in item.variants {
                        let cents = (try? Money.parse(variant.price).get().cents).map(String.init) ?? ""
                        let fields = [
                            item.category ?? "", item.name, variant.name, variant.price, cents,
                            variant.isDefault == true ? "1" : "0", (item.allergens ?? []).joined(separator: ","),
                            (item.modifierGroups ?? []).joined(separator: ","),
                        ]
                        text += fields.map(csvField).joined(separator: ",") + "\r\n"
                    }
                }
                context.console.outFormatted(text)
            case let other:
                throw ValidationError([FieldError(field: "format", message: "must be json or csv, not '\(other)'")])
            }
            return .ok
        })

    /// RFC 4180, with a leading `=`, `+`, `-` or `@` defused so a spreadsheet shows text, not a formula.
    static func csvField(_ text: String) -> String {
        var text = text
        if let first = text.first, "=+-@".contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    struct Imported: Encodable {
        let dryRun: Bool
        let changes: [MenuImportChange]

        enum CodingKeys: String, CodingKey {
            case dryRun = "dry_run"
            case changes
        }
    }

    static let importCommand = Command(
        name: "import", abstract: "Import a menu file in one transaction (--dry-run to see the differences).",
        arguments: [file], options: [dryRun, OrderCommands.by],
        examples: ["pizzeria menu import menu.json --dry-run", "pizzeria menu import menu.json"],
        run: { invocation in
            let context = invocation.context
            let data = try StandardInput.read(try invocation[file] ?? "-", limit: MenuFile.maximumBytes)
            let menuFile = try MenuFile.decode(data)
            let dry = invocation[dryRun]
            let changes = try context.open(.requireCurrent).menu.importMenu(menuFile, dryRun: dry)
            try context.emit(Imported(dryRun: dry, changes: changes)) {
                let header =
                    changes.isEmpty
                    ? "No differences: the menu already is this file.\n"
                    : (dry ? "Would change (nothing written):\n" : "Imported:\n")
                return header + changes.map { "  \($0)\n" }.joined()
            }
            return .ok
        })
}
