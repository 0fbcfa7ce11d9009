import Foundation
import PizzeriaServices

extension Date {
    /// `2026-11-30T12:42:19.610Z`, as the database and the JSON shapes write times.
    var timestamp: String { Timestamp.string(from: self) }

    /// `2026-12-01 11:03:12 +01:00`: how people read a time, in the pizzeria's zone with its offset.
    func local(_ zone: TimeZone) -> String { Timestamp.local(self, in: zone) }
}
