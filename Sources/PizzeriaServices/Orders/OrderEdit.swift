import Foundation

/// What to change in a placed order's lines and note.
///
/// ```swift
/// var change = OrderEdit()
/// change.add = [.init(pizza: diavola.id, quantity: 1)]
/// change.setQuantity = [.init(pizza: margherita.id, quantity: 3)]
/// change.note = .set("no basil")
/// try pizzeria.orders.edit(id: order.id, change, expectedVersion: order.version, by: "giulia")
/// ```
public struct OrderEdit: Sendable, Hashable {
    /// A note to set or clear.
    public enum NoteChange: Sendable, Hashable {
        /// This note (1–200 characters, no control characters).
        case set(String)
        /// No note.
        case clear
    }

    /// Items to add (a choice already in the order gets more). An item without a variant is the
    /// item's default variant.
    public var add: [OrderRequest.Item] = []
    /// Items to remove entirely: every line of each. Removals apply to the order's lines as they
    /// were, before ``add`` and ``setQuantity``.
    public var remove: [Pizza.ID] = []
    /// Lines to remove, each named by its choice (item, variant — `nil` for the default — and
    /// modifiers; the quantity is not read).
    public var removeChoices: [OrderRequest.Item] = []
    /// Choices whose quantity becomes exactly this (1–20; added when not yet in the order).
    public var setQuantity: [OrderRequest.Item] = []
    /// The note, when it changes.
    public var note: NoteChange?
    /// Changes to the annotations of the order's lines (``LineAnnotations``), by their position as
    /// the order lists them (1 for its first line); an added item carries its own
    /// (``OrderRequest/Item/annotations``).
    public var lineAnnotations: [Int: LineAnnotations.Change] = [:]

    /// The notes of the order's lines, set or cleared, by position: the notes of
    /// ``lineAnnotations``.
    public var lineNotes: [Int: NoteChange] {
        get { lineAnnotations.compactMapValues(\.note) }
        set {
            for position in Set(lineAnnotations.keys).union(newValue.keys) {
                var change = lineAnnotations[position] ?? LineAnnotations.Change()
                change.note = newValue[position]
                lineAnnotations[position] = change.isEmpty ? nil : change
            }
        }
    }

    /// An edit; with no arguments, one that changes nothing.
    public init(
        add: [OrderRequest.Item] = [], remove: [Pizza.ID] = [], setQuantity: [OrderRequest.Item] = [],
        note: NoteChange? = nil
    ) {
        self.add = add
        self.remove = remove
        self.setQuantity = setQuantity
        self.note = note
    }

    /// The longest note, in Unicode scalars (as SQLite's `length()` counts them).
    public static let maximumNoteLength = 200

    /// The modifiers of the first item asked for that is `choice`, in the order asked.
    func modifiersInRequestOrder(of choice: LineChoice) -> [Modifier.ID] {
        (add + setQuantity).first { $0.pizza == choice.pizza && Set($0.modifiers) == choice.modifiers }?.modifiers
            ?? choice.modifiers.sorted()
    }

    /// Whether it changes anything.
    public var isEmpty: Bool {
        add.isEmpty && remove.isEmpty && removeChoices.isEmpty && setQuantity.isEmpty && note == nil
            && lineAnnotations.isEmpty
    }

    /// Shape problems found without the database.
    func problems() -> [FieldError] {
        var errors: [FieldError] = []
        if isEmpty {
            errors.append(FieldError(field: "edit", message: "must change something: --add, --remove, --set or --note"))
        }
        errors += (add + setQuantity).compactMap { OrderRequest.quantityProblem($0.quantity) }
        for (index, item) in (add + setQuantity).enumerated() {
            errors += OrderRequest.modifierProblems(item.modifiers, of: "item \(index + 1)")
        }
        if case .set(let text) = note {
            errors += TextLimit.problems(text, field: "note", maximum: Self.maximumNoteLength)
        }
        for (position, change) in lineAnnotations.sorted(by: { $0.key < $1.key }) {
            if position < 1 {
                errors.append(FieldError(field: "line-note", message: "names a line from 1, not \(position)"))
            }
            errors += change.applied(to: LineAnnotations()).normalized.problems(of: "line \(position)")
        }
        for (index, item) in (add + setQuantity).enumerated() {
            errors += item.annotations.normalized.problems(of: "item \(index + 1)")
        }
        return errors
    }
}
