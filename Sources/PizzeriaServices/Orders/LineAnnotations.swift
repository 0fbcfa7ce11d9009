import Foundation
import PizzeriaStorage

/// What an order line carries in words beyond its item, variant, modifiers and quantity — today
/// the kitchen's note (`ben cotta`).
///
/// The one home of a line's words: how they are normalised and limited on a booking and on an
/// edit, how a request's fingerprint tells them apart, how a change to them is applied and told in
/// the order's history, how every view shows them (``remarks``), what a customer's copy leaves out,
/// and the `order_lines` columns they are stored in. A booking, an edit, the store and the views
/// pass the value along without naming what is in it, so something new a line says is added here
/// (and as the line's member, and its column), not in each of them.
///
/// ```swift
/// let item = OrderRequest.Item(pizza: margherita.id, quantity: 2, annotations: .init(note: "ben cotta"))
/// ```
public struct LineAnnotations: Sendable, Hashable {
    /// The kitchen's note: 1 to ``OrderEdit/maximumNoteLength`` characters (Unicode scalars)
    /// without control characters, trimmed and NFC-normalised like an order's note; or `nil`.
    public var note: String?

    /// Annotations; with no arguments, none.
    public init(note: String? = nil) {
        self.note = note
    }

    /// Whether the line says nothing beyond its item.
    public var isEmpty: Bool { note == nil }

    /// As stored: each text trimmed and NFC-normalised (so `"  "` is empty and é is one é).
    var normalized: LineAnnotations {
        LineAnnotations(note: note.map(Self.normalize))
    }

    /// The limits each text breaks, read after ``normalized``; `which` names the item or line in
    /// the refusal (`item 2`, `line 1`).
    func problems(of which: String) -> [FieldError] {
        guard let note else { return [] }
        return TextLimit.problems(note, field: "line-note", maximum: OrderEdit.maximumNoteLength)
            .map { FieldError(field: $0.field, message: $0.message + " (\(which))") }
    }

    /// What they add to an item in a request's fingerprint: `#NOTE`, nothing when empty (so old
    /// keys keep matching their retries).
    var fingerprint: String { note.map { "#" + $0 } ?? "" }

    /// How every view shows them, in order (``OrderLine/remarks``).
    var remarks: [LineRemark] {
        guard let note else { return [] }
        return [LineRemark(label: "note", text: note, isStaffText: true)]
    }

    /// What a customer may read of them: the staff's words left out.
    var forCustomer: LineAnnotations { LineAnnotations(note: nil) }

    /// A change to a booked line's annotations (``OrderEdit/lineAnnotations``): each text set,
    /// cleared, or left as it is (`nil`).
    public struct Change: Sendable, Hashable {
        /// The note, when it changes.
        public var note: OrderEdit.NoteChange?

        /// A change; with no arguments, one that changes nothing.
        public init(note: OrderEdit.NoteChange? = nil) {
            self.note = note
        }

        /// Whether it changes nothing.
        public var isEmpty: Bool { note == nil }

        /// The annotations it sets, applied to `old` (not yet normalised).
        func applied(to old: LineAnnotations) -> LineAnnotations {
            var new = old
            switch note {
            case .set(let text)?: new.note = text
            case .clear?: new.note = nil
            case nil: break
            }
            return new
        }
    }

    /// The history's words for a line's annotations changed from `old` to `self`, each with the
    /// line's `label`: `Margherita note: ben cotta`, `Margherita note removed`.
    func changes(from old: LineAnnotations, label: String) -> [String] {
        guard note != old.note else { return [] }
        return [note.map { "\(label) note: \($0)" } ?? "\(label) note removed"]
    }

    /// The `order_lines` columns they are stored in, each the key of the line's member that reads
    /// it (``OrderLine/members(_:)``): constants, in the order of ``values``.
    static let columns: [StaticString] = ["note"]

    /// Their stored values, in the order of ``columns``.
    var values: [any DatabaseValueConvertible] { [note] }

    private static func normalize(_ text: String) -> String {
        text.trimmingWhitespace().precomposedStringWithCanonicalMapping
    }
}
