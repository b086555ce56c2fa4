import Foundation

/// Waits until `condition` holds or `seconds` pass, checking every 2 ms; returns whether it held.
///
/// The default is long because the call returns as soon as the condition holds: it only bounds a
/// failure, and the parallel phase on a loaded 2-core machine has held a task back for over 7 s.
public func eventually(within seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return condition()
}
