import PizzeriaServices

// The parsers of this program's own value types, for the typed declarations: each refusal names
// the field and the rule (exit 65).

extension ValueParser where Value == Money {
    /// A price as people type it: `6`, `6.5`, `6,50`, `€6.50`, `6.50 EUR`.
    static let money = ValueParser { text, field in
        switch Money.parse(text) {
        case .success(let money): return money
        case .failure(let error): throw ValidationError([FieldError(field: field, message: error.message)])
        }
    }
}

extension ValueParser where Value == OrderStatus {
    /// An order status, in any case.
    static let orderStatus = ValueParser { text, field in
        guard let status = OrderStatus(rawValue: text.lowercased()) else {
            throw ValidationError([
                FieldError(
                    field: field,
                    message: "must be one of "
                        + OrderStatus.allCases.map(\.rawValue).joined(separator: ", ") + ", not '\(text)'")
            ])
        }
        return status
    }
}

extension ValueParser where Value == PageCursor {
    /// A page cursor printed by a list command (its `next`).
    static let cursor = ValueParser { text, field in
        guard let cursor = PageCursor(text) else {
            throw ValidationError([
                FieldError(field: field, message: "is not a cursor printed by this command ('next')")
            ])
        }
        return cursor
    }
}

extension Completion {
    /// The order statuses.
    static let orderStatuses = Completion.choices(OrderStatus.allCases.map(\.rawValue))
}

extension ValueParser where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the type's cases, by its name in any case (`--kind choice`).
    static var oneOf: ValueParser {
        ValueParser { text, field in
            guard let value = Value(rawValue: text.lowercased()) else {
                throw ValidationError([
                    FieldError(
                        field: field,
                        message: "must be one of " + Value.allCases.map(\.rawValue).joined(separator: ", ")
                            + ", not '\(text)'")
                ])
            }
            return value
        }
    }
}
