/// "Did you mean": the one rule for likely typos, used for commands and options at the CLI and
/// for pizza names in lookups.
public enum Spelling {
    /// The candidate closest to `typed` (ignoring case), if it is close enough to be a likely typo:
    /// within a third of its length in edits (at least 1, at most 3), or one that `typed` starts.
    public static func closest(to typed: String, among candidates: some Sequence<String>) -> String? {
        let lowered = typed.lowercased()
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = distance(lowered, candidate.lowercased())
            if best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let tolerance = max(1, min(3, best.candidate.count / 3))
        return best.distance <= tolerance || best.candidate.lowercased().hasPrefix(lowered) && typed.count >= 2
            ? best.candidate : nil
    }

    /// Edit distance where a swap of two neighbouring letters counts as one typo
    /// (optimal string alignment: `lsit` is one step from `list`).
    public static func distance(_ a: String, _ b: String) -> Int {
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
