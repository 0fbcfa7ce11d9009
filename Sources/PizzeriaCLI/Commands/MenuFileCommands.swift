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
        "format", "format", help: "json (default: every part of the menu) or csv (one row per variant).",
        completion: .choices(["json", "csv"]))
    static let importFormat = Option(
        "format", "format",
        help:
            "json or csv; by default told from the content (JSON starts with '{'). CSV may use ';' and a decimal comma.",
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
                context.console.outFormatted(file.csv())
            case let other:
                throw ValidationError([FieldError(field: "format", message: "must be json or csv, not '\(other)'")])
            }
            return .ok
        })

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
        arguments: [file], options: [importFormat, dryRun, OrderCommands.by],
        examples: [
            "pizzeria menu import menu.json --dry-run", "pizzeria menu import menu.json",
            "pizzeria menu import prezzi.csv --dry-run",
        ],
        run: { invocation in
            let context = invocation.context
            let data = try StandardInput.read(try invocation[file] ?? "-", limit: MenuFile.maximumBytes)
            let isJSON: Bool
            switch try invocation[importFormat]?.lowercased() {
            case nil: isJSON = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{")
            case "json": isJSON = true
            case "csv": isJSON = false
            case let other?:
                throw ValidationError([FieldError(field: "format", message: "must be json or csv, not '\(other)'")])
            }
            let dry = try invocation[dryRun]
            let menu = try context.open(.requireCurrent).menu
            let changes: [MenuImportChange]
            if isJSON {
                changes = try menu.importMenu(try MenuFile.decode(data), dryRun: dry)
            } else {
                let (menuFile, lines) = try MenuFile.decodeCSV(data)
                do { changes = try menu.importMenu(menuFile, dryRun: dry) } catch let error as ValidationError {
                    throw MenuFile.csvPlaces(error, lines: lines)
                }
            }
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
