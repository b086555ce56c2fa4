import Foundation

/// Time bounds for assertions, scaled by `NETWORKLAYER_TIMING_FACTOR` (1 unless set).
///
/// Scripts/test sets it to 5 for the ThreadSanitizer run, which slows everything several times
/// over and is there to find races, not to measure latency; every other run checks the real
/// bounds (a cancellation within 100 ms, for instance).
public enum TestTiming {
    public static let factor: Double = {
        guard let value = ProcessInfo.processInfo.environment["NETWORKLAYER_TIMING_FACTOR"],
            let factor = Double(value), factor >= 1
        else { return 1 }
        return factor
    }()

    /// The deadline of a request that a test expects to be answered, not to time out.
    ///
    /// Long, because it only bounds a failure: a loopback request is answered in milliseconds,
    /// but the parallel phase on a loaded 2-core machine shared with another CI run has held
    /// requests past a 10 s deadline (2026-11-27), which failed tests that measure no time.
    public static let requestTimeout: TimeInterval = 30

    /// `seconds`, scaled.
    public static func bound(_ seconds: Double) -> Double {
        seconds * factor
    }
}
