/// "Did you mean" for mistyped commands and options.
enum Suggestion {
    /// The candidate closest to `typed`, if it is close enough to be a likely typo.
    static func closest(to typed: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(typed.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        let tolerance = max(1, min(3, best.0.count / 3))
        return best.1 <= tolerance || best.0.hasPrefix(typed) && typed.count >= 2 ? best.0 : nil
    }

    /// Edit distance where a swap of two neighbouring letters counts as one typo
    /// (optimal string alignment: `lsit` is one step from `list`).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
