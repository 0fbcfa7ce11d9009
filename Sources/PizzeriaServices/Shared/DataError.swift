/// A row that the schema let in but Pizzeria cannot read: typed by hand into `sqlite3`, or left
/// by a damaged file. Reported with its table and id — never read as a default value, never a
/// crash.
public enum DataError: PizzeriaFailure, Equatable {
    /// The row's `problem`, in `table`, identified by `id`.
    case damagedRow(table: String, id: String, problem: String)

    /// The database file holds something unusable.
    public var category: FailureCategory { .unusableDatabase }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .damagedRow(let table, let id, let problem): "damaged row in \(table) (\(id)): \(problem)"
        }
    }
}
