/// Why a change to the schedule was refused. Nothing changes when one is thrown.
public enum ScheduleError: PizzeriaFailure, Equatable {
    /// The change would leave these future booked orders outside the hours.
    case wouldOrphan([OrphanedOrder])
    /// The file would hold more exception rows than ``ScheduleException/maximumCount``.
    case tooManyExceptions(existing: Int, adding: Int)
    /// The change would make two intervals overlap across days (a night running into the next
    /// day's hours): each `date: what overlaps`.
    case overlaps([String])

    /// Refused by the current state, or invalid input.
    public var category: FailureCategory {
        switch self {
        case .wouldOrphan, .tooManyExceptions: .refused
        case .overlaps: .invalidInput
        }
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .wouldOrphan(let orders):
            let shown =
                orders.prefix(5).map(\.summary).joined(separator: ", ")
                + (orders.count > 5 ? ", and \(orders.count - 5) more" : "")
            return
                "the change would leave \(orders.count) booked order\(orders.count == 1 ? "" : "s") outside the hours: \(shown)"
        case .tooManyExceptions(let existing, let adding):
            return
                "hours: the file has \(existing) exceptions and this adds \(adding); at most \(ScheduleException.maximumCount) (clear past ones with `hours clear`)"
        case .overlaps(let problems):
            return "hours: " + problems.joined(separator: "; ")
        }
    }
}
