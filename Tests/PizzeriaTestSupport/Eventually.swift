import Foundation

/// Waits until `condition` holds or `timeout` passes, yielding between looks (no fixed sleep: a
/// quiet machine returns at once, a loaded one gets the whole timeout).
/// - Returns: whether the condition held.
public func eventually(timeout: Duration = .seconds(30), _ condition: () throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock(), deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if try condition() { return true }
        await Task.yield()
    }
    return try condition()
}
