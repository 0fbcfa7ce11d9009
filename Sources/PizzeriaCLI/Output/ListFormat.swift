import PizzeriaServices

/// The output options every list command shares, as sqlite-utils gives every listing one set:
/// a table for people (the default), `--json`, `--nl`, `--csv`, `--tsv`, and `--no-headers`.
enum ListOptions {
    static let lines = Flag("nl", help: "Print newline-delimited JSON: one compact object per line, streamed.")
    static let csv = Flag("csv", help: "Print CSV (RFC 4180, a header row) for spreadsheets instead of a table.")
    static let tsv = Flag("tsv", help: "Print tab-separated values (a header row) instead of a table.")
    static let noHeaders = Flag("no-headers", help: "Leave out the header row of the table, CSV or TSV.")
    static let csvDialect = Option(
        "csv-dialect", "dialect",
        help: "rfc4180 (default: `,` and decimal points) or excel-eu (`;`, decimal commas, a UTF-8 BOM: "
            + "what a spreadsheet set up for Italy opens as columns).",
        completion: .choices(["rfc4180", "excel-eu"]))

    /// What a list command adds to its own options.
    static let all: [any OptionDeclaration] = [lines, csv, tsv, noHeaders, csvDialect]
}

/// How a list is printed.
enum ListFormat: Equatable {
    /// Columns padded for people.
    case table
    /// One pretty-printed JSON array (or the command's documented object).
    case json
    /// Newline-delimited JSON: one compact object per line.
    case lines
    /// RFC 4180 CSV.
    case csv
    /// Tab-separated values.
    case tsv
}

extension Invocation {
    /// The list format the command line asks for, and whether headers are printed.
    /// - Throws: a usage error when two formats are asked for at once, or `--no-headers` with JSON.
    func listFormat() throws -> (format: ListFormat, headers: Bool) {
        let chosen = try [
            ("--csv", self[ListOptions.csv], ListFormat.csv), ("--json", context.json, .json),
            ("--nl", self[ListOptions.lines], .lines), ("--tsv", self[ListOptions.tsv], .tsv),
        ].filter(\.1)
        if chosen.count > 1 { throw usage("\(chosen[0].0) and \(chosen[1].0) cannot be combined") }
        let format = chosen.first?.2 ?? .table
        let headers = try !self[ListOptions.noHeaders]
        if !headers, format == .json || format == .lines {
            throw usage("--no-headers applies to tables, CSV and TSV, not to JSON")
        }
        if try self[ListOptions.csvDialect] != nil, format != .csv { throw usage("--csv-dialect applies to --csv") }
        return (format, headers)
    }

    /// The CSV dialect `--csv-dialect` names (RFC 4180 by default).
    func csvDialect() throws -> CSV.Dialect {
        switch try self[ListOptions.csvDialect] {
        case nil, "rfc4180": .comma
        case "excel-eu": .excelEU
        case let other?:
            throw ValidationError([
                FieldError(field: "csv-dialect", message: "must be rfc4180 or excel-eu, not '\(other)'")
            ])
        }
    }
}
