/// Short forms of ids for people: the shortest prefix (8 characters at least) that tells each id
/// of a list apart from the others.
enum IDPrefix {
    /// Each id's prefix, in order; all of one length, long enough that no two are equal.
    static func distinguishing(_ ids: [String]) -> [String] {
        var length = 8
        while length < (ids.map(\.count).max() ?? 0), Set(ids.map { $0.prefix(length) }).count < ids.count {
            length += 1
        }
        return ids.map { String($0.prefix(length)) }
    }
}
