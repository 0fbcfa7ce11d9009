import Foundation

/// The menu as a spreadsheet: one row per variant (docs/MENU.md, "CSV"). `menu export --format
/// csv` writes it; `menu import` reads it back — as written, or after a spreadsheet saved it
/// with `;` between fields, a decimal comma and a byte-order mark (an Italian Excel).
///
/// Columns: `category,item,variant,price,price_cents,default,allergens,modifier_groups`. The rows
/// of one item (its name ignoring case) make one item, its variants in row order; `category`,
/// `allergens` and `modifier_groups` are the item's and are read from its first row (later rows
/// may leave them empty or repeat them; a different value is refused). Categories and groups must
/// exist already (the CSV holds no group's modifiers: use the JSON file for those).
extension MenuFile {
    /// The CSV header, in column order.
    public static let csvColumns = [
        "category", "item", "variant", "price", "price_cents", "default", "allergens", "modifier_groups",
    ]

    /// The most rows a CSV file holds (one per variant).
    public static let maximumCSVRows = 200_000

    /// The file as CSV (RFC 4180: `,`, CRLF, fields quoted when needed; a field starting with
    /// `=`, `+`, `-` or `@` gets a leading `'` so a spreadsheet shows text, not a formula).
    public func csv() -> String {
        var text = Self.csvColumns.joined(separator: ",") + "\r\n"
        for item in items {
            for variant in item.variants {
                let cents = (try? Money.parse(variant.price).get().cents).map(String.init) ?? ""
                let fields = [
                    item.category ?? "", item.name, variant.name, variant.price, cents,
                    variant.isDefault == true ? "1" : "0", (item.allergens ?? []).joined(separator: ","),
                    (item.modifierGroups ?? []).joined(separator: ","),
                ]
                text += fields.map(Self.csvField).joined(separator: ",") + "\r\n"
            }
        }
        return text
    }

    static func csvField(_ text: String) -> String {
        var text = text
        if let first = text.first, "=+-@".contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Where each item and variant of a file read from CSV came from: `lines[item][variant]` is
    /// the variant's line (the header is line 1).
    public typealias CSVLines = [[Int]]

    /// Reads the CSV form. A refusal names the line and the column (`line 4: price: …`).
    /// - Throws: ``ValidationError``.
    public static func decodeCSV(_ data: Data) throws -> (file: MenuFile, lines: CSVLines) {
        guard data.count <= maximumBytes else {
            throw ValidationError([FieldError(field: "file", message: "must be at most \(maximumBytes >> 20) MiB")])
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw ValidationError([FieldError(field: "file", message: "must be UTF-8 text (CSV)")])
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let records = try CSVRecords.parse(text)
        guard let header = records.first else {
            throw ValidationError([FieldError(field: "file", message: "is empty; the first line names the columns")])
        }
        guard records.count - 1 <= maximumCSVRows else {
            throw ValidationError([FieldError(field: "file", message: "must have at most \(maximumCSVRows) rows")])
        }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func column(_ name: String) -> Int? { names.firstIndex(of: name) }
        guard let item = column("item"), let variant = column("variant"),
            column("price") != nil || column("price_cents") != nil
        else {
            throw ValidationError([
                FieldError(
                    field: "line 1",
                    message: "must name the columns item, variant and price (the header of menu export --format csv)")
            ])
        }
        var file = MenuFile()
        var lines: CSVLines = []
        var byKey: [String: Int] = [:]
        for record in records.dropFirst() where !record.fields.allSatisfy({ $0.isEmpty }) {
            func field(_ name: String) -> String {
                guard let index = column(name), index < record.fields.count else { return "" }
                var value = record.fields[index].trimmingCharacters(in: .whitespaces)
                // The export's guard against spreadsheet formulas, taken off again.
                if value.hasPrefix("'"), let second = value.dropFirst().first, "=+-@".contains(second) {
                    value.removeFirst()
                }
                return value
            }
            let line = record.line
            func refuse(_ name: String, _ message: String) -> ValidationError {
                ValidationError([FieldError(field: "line \(line): \(name)", message: message)])
            }
            let itemName = item < record.fields.count ? field("item") : ""
            guard !itemName.isEmpty else { throw refuse("item", "must name the item") }
            guard variant < record.fields.count, !field("variant").isEmpty else {
                throw refuse("variant", "must name the variant (Normale when the item has one)")
            }
            var price = field("price")
            if price.isEmpty, !field("price_cents").isEmpty {
                guard let cents = Int64(field("price_cents")), cents > 0 else {
                    throw refuse(
                        "price_cents", "must be a whole number of cents above 0, not '\(field("price_cents"))'")
                }
                price = Money(cents: cents).plain
            }
            guard !price.isEmpty else { throw refuse("price", "must be the variant's price (6.50 or 6,50)") }
            let isDefault: Bool?
            switch field("default").lowercased() {
            case "", "0", "false", "no", "n": isDefault = nil
            case "1", "true", "yes", "y", "*": isDefault = true
            case let other: throw refuse("default", "must be 1 or 0 (or empty), not '\(other)'")
            }
            func list(_ name: String) -> [String]? {
                let value = field(name)
                return value.isEmpty
                    ? nil
                    : value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            let entry = VariantEntry(name: field("variant"), price: price, isDefault: isDefault)
            let key = PizzaName.foldKey(itemName)
            let category = field("category").isEmpty ? nil : field("category")
            if let index = byKey[key] {
                var existing = file.items[index]
                for (name, mine, theirs) in [
                    ("category", category.map { [$0] }, existing.category.map { [$0] }),
                    ("allergens", list("allergens"), existing.allergens),
                    ("modifier_groups", list("modifier_groups"), existing.modifierGroups),
                ] {
                    if let mine, mine.map(PizzaName.foldKey) != (theirs ?? []).map(PizzaName.foldKey) {
                        throw refuse(
                            name,
                            "'\(mine.joined(separator: ","))' differs from the item's first row (line \(lines[index][0])); "
                                + "leave it empty or repeat it")
                    }
                }
                guard existing.variants.count < Variant.maximumPerItem else {
                    throw refuse("variant", "\(itemName) has more than \(Variant.maximumPerItem) variants")
                }
                existing.variants.append(entry)
                file.items[index] = existing
                lines[index].append(line)
            } else {
                guard file.items.count < maximumItems else {
                    throw refuse("item", "the file has more than \(maximumItems) items")
                }
                byKey[key] = file.items.count
                file.items.append(
                    ItemEntry(
                        name: itemName, category: category, allergens: list("allergens"), variants: [entry],
                        modifierGroups: list("modifier_groups")))
                lines.append([line])
            }
        }
        return (file, lines)
    }

    /// A refusal of a file read from CSV, its places (`items[3].variants[1].price`) given as lines
    /// (`line 9: price`).
    public static func csvPlaces(_ error: ValidationError, lines: CSVLines) -> ValidationError {
        ValidationError(
            error.errors.map { error in
                var field = Substring(error.field)
                guard field.hasPrefix("items["), let close = field.firstIndex(of: "]"),
                    let item = Int(field[field.index(field.startIndex, offsetBy: 6)..<close]), item < lines.count
                else { return error }
                field = field[field.index(after: close)...]
                var line = lines[item][0]
                if field.hasPrefix(".variants["), let end = field.firstIndex(of: "]"),
                    let variant = Int(field[field.index(field.startIndex, offsetBy: 10)..<end]),
                    variant < lines[item].count
                {
                    line = lines[item][variant]
                    field = field[field.index(after: end)...]
                }
                let rest = field.drop(while: { $0 == "." })
                return FieldError(field: "line \(line)" + (rest.isEmpty ? "" : ": " + rest), message: error.message)
            })
    }
}

/// RFC 4180 records: fields separated by `,` — or by `;` when the header has `;` and no `,` (a
/// spreadsheet set to a decimal comma) — quoted with `"` (`""` inside), lines ending in CRLF or
/// LF, line breaks allowed inside quotes.
struct CSVRecords {
    struct Record {
        /// The line the record starts on (1 for the header).
        let line: Int
        let fields: [String]
    }

    static func parse(_ text: String) throws -> [Record] {
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r\n" }
        let separator: Character = firstLine.contains(";") && !firstLine.contains(",") ? ";" : ","
        var records: [Record] = []
        var fields: [String] = [], field = "", quoted = false, wasQuoted = false
        var line = 1, start = 1
        func endRecord() {
            fields.append(field)
            records.append(Record(line: start, fields: fields))
            (fields, field, wasQuoted) = ([], "", false)
        }
        var characters = text.makeIterator()
        var pending: Character?
        while let character = pending ?? characters.next() {
            pending = nil
            if quoted {
                if character == "\"" {
                    let next = characters.next()
                    if next == "\"" {
                        field.append("\"")
                    } else {
                        quoted = false
                        pending = next
                    }
                } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"" where field.isEmpty && !wasQuoted:
                (quoted, wasQuoted) = (true, true)
            case "\"":
                throw ValidationError([
                    FieldError(
                        field: "line \(line)", message: "has a quote inside an unquoted field; quote the field (\"…\")")
                ])
            case separator:
                fields.append(field)
                (field, wasQuoted) = ("", false)
            case "\n", "\r\n", "\r":
                endRecord()
                line += 1
                start = line
            default:
                field.append(character)
            }
        }
        guard !quoted else {
            throw ValidationError([FieldError(field: "line \(start)", message: "has a quoted field that never ends")])
        }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return records
    }
}
