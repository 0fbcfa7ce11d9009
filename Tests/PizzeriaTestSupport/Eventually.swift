import Foundation

/// Waits until `condition` holds or `timeout` passes, yielding between looks (no fixed sleep: a
/// quiet machine returns at once, a loaded one gets the whole timeout).
/// - Returns: whether the condition held.
///
/// The default deadline is long on purpose: Swift Testing runs synchronous tests on the same
/// cooperative pool as async ones, one thread per core, so on two cores the tasks an async test
/// waits for may not start until long synchronous tests (processes, files) give a thread back.
public func eventually(timeout: Duration = .seconds(300), _ condition: () throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock(), deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if try condition() { return true }
        // A millisecond's pause between looks, not a yield: on two cores a yield gives the thread
        // straight back to this loop, and the tasks it waits for (on the same cooperative pool)
        // could starve while the whole suite runs.
        try? await Task.sleep(for: .milliseconds(1))
    }
    return try condition()
}
