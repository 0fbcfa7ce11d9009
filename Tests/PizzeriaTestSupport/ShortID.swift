/// The short id people see for the id text `id` — the rule stated again, independently of the
/// library's `Identifier.short`, so that tests check the library against it: a time-ordered
/// (version 7) id's last 8 characters, any other id's first 8.
public func shortID<Text: StringProtocol>(_ id: Text) -> String {
    let characters = Array(id)
    guard characters.count == 36 else { return String(id.prefix(8)) }
    return characters[14] == "7" ? String(characters[28...]) : String(characters[..<8])
}
