import Foundation

/// One page of a long list, and where the next one starts.
///
/// Lists are read by keyset: the cursor holds the sort key of the last item, so the next page is
/// one index seek however deep it is, and items added meanwhile are neither skipped nor repeated.
///
/// ```swift
/// var page = try pizzeria.orders.page(limit: 100)
/// while let next = page.next { page = try pizzeria.orders.page(limit: 100, after: next) }
/// ```
public struct Page<Element: Sendable>: Sendable {
    /// The items of this page, in list order.
    public let items: [Element]
    /// Where the next page starts; `nil` on the last page.
    public let next: PageCursor?

    /// A page.
    public init(items: [Element], next: PageCursor?) {
        self.items = items
        self.next = next
    }
}

extension Page {
    /// Calls `body` with every item of every page, fetching the next page with the previous
    /// one's cursor: memory stays that of one page however long the list. Each page is read in
    /// its own transaction, so an item added meanwhile may or may not be seen, but none twice.
    static func forEach(_ fetch: (PageCursor?) throws -> Page, _ body: (Element) throws -> Void) throws {
        var cursor: PageCursor?
        repeat {
            let page = try fetch(cursor)
            for item in page.items { try body(item) }
            cursor = page.next
        } while cursor != nil
    }
}

/// An opaque position in a list: printable, safe on a command line (`--after CURSOR`).
public struct PageCursor: Sendable, Hashable, TextCodable {
    /// What its JSON text must be (``TextCodable``).
    public static var textForm: String { "a page cursor" }

    /// The sort key of the last item seen.
    let key: [String]

    init(_ key: [String]) { self.key = key }

    /// Base64url text of the key.
    public var description: String {
        Data(key.joined(separator: "\u{1F}").utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Reads a cursor's text; `nil` for anything a cursor cannot be.
    public init?(_ description: String) {
        guard description.count <= 4096 else { return nil }
        var base64 = description.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else { return nil }
        key = text.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
    }

    /// The key's parts, or a ``ValidationError`` for a cursor of another list.
    func parts(_ count: Int, field: String = "after") throws -> [String] {
        guard key.count == count else {
            throw ValidationError([FieldError(field: field, message: "is not a cursor of this list")])
        }
        return key
    }
}
