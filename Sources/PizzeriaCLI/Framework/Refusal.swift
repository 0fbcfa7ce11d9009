import PizzeriaServices

/// A refusal decided by the CLI itself (not by a service), such as a backup target that exists.
struct Refusal: PizzeriaFailure {
    let message: String
    let hint: String?
    let category: FailureCategory

    init(_ message: String, hint: String? = nil, category: FailureCategory = .refused) {
        self.message = message
        self.hint = hint
        self.category = category
    }

    var description: String { message }
}
