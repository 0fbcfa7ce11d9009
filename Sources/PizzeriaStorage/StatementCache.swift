/// A connection's prepared statements, by SQL text.
///
/// Every call looks its statement up here, so the key hashes the text's length and a few of its
/// bytes instead of all of it: hashing a whole statement (hundreds of bytes through SipHash) was
/// a visible share of a one-row read. Equality still compares the whole text — and a string
/// literal, the usual key, compares by identity before any byte.
///
/// Statements named by a ``StatementKey`` are also kept by the key's number, in an array.
struct StatementCache {
    private var statements: [Key: Statement] = [:]
    private var numbered: [Statement?] = []

    subscript(key: StatementKey) -> Statement? {
        get { key.number < numbered.count ? numbered[key.number] : nil }
        set {
            if key.number >= numbered.count {
                numbered.append(contentsOf: repeatElement(nil, count: key.number + 1 - numbered.count))
            }
            numbered[key.number] = newValue
        }
    }

    subscript(sql: String) -> Statement? {
        get { statements[Key(sql: sql)] }
        set { statements[Key(sql: sql)] = newValue }
    }

    mutating func removeAll() {
        statements.removeAll()
        numbered.removeAll()
    }

    private struct Key: Hashable {
        let sql: String

        static func == (lhs: Key, rhs: Key) -> Bool { lhs.sql == rhs.sql }

        /// The length and up to 16 bytes from the middle and 16 from the end: statements of one
        /// length differ there (column lists, `WHERE` clauses, `LIMIT`s) far more than at the
        /// start, which is `SELECT` or `INSERT` for most of them. Equal texts hash equally.
        func hash(into hasher: inout Hasher) {
            let utf8 = sql.utf8
            hasher.combine(utf8.count)
            let sampled: Void? = utf8.withContiguousStorageIfAvailable { bytes in
                let raw = UnsafeRawBufferPointer(bytes)
                guard raw.count >= 16 else {
                    hasher.combine(bytes: raw)
                    return
                }
                let middle = raw.count / 2 - 8
                hasher.combine(raw.loadUnaligned(fromByteOffset: middle, as: UInt64.self))
                hasher.combine(raw.loadUnaligned(fromByteOffset: middle + 8, as: UInt64.self))
                hasher.combine(raw.loadUnaligned(fromByteOffset: raw.count - 16, as: UInt64.self))
                hasher.combine(raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self))
            }
            // A bridged or otherwise non-contiguous string: hash it whole.
            if sampled == nil { hasher.combine(sql) }
        }
    }
}
