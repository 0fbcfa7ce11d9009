import Foundation
import PizzeriaServices

extension Identifier {
    /// The first 8 characters: enough for people to tell ids apart at a glance.
    var short: String { withText { String(decoding: UnsafeBufferPointer(rebasing: $0[0..<8]), as: UTF8.self) } }
}

extension Date {
    /// `2026-11-30T12:42:19.610Z`, as the database and the JSON shapes write times.
    var timestamp: String { Timestamp.string(from: self) }

    /// `2026-12-01 11:03:12 +01:00`: how people read a time, in the pizzeria's zone with its offset.
    func local(_ zone: TimeZone) -> String { Timestamp.local(self, in: zone) }
}
