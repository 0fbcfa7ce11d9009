import Foundation
import PizzeriaServices

extension Identifier {
    /// The first 8 characters: enough for people to tell ids apart at a glance.
    var short: String { withText { String(decoding: UnsafeBufferPointer(rebasing: $0[0..<8]), as: UTF8.self) } }
}

extension Date {
    /// `2026-11-30T12:42:19.610Z`, as the database and the JSON shapes write times.
    var timestamp: String { Timestamp.string(from: self) }
}
