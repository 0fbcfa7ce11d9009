import PizzeriaServices

/// One page of a list in JSON: `{"items": […], "next": "CURSOR"}` (`next` is `null` on the
/// last page; pass it to `--after` for the following one).
struct PageJSON<Item: Encodable>: Encodable {
    let items: [Item]
    let next: PageCursor?
}
