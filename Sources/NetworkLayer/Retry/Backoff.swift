import Foundation

/// Exponential backoff: the one rule behind ``RetryPolicy`` (a failed request sent again) and
/// ``ReconnectionPolicy`` (an event stream connected again).
enum Backoff {
    /// `scale × base ^ exponent`; infinite or NaN when the settings make it so, for the caller's
    /// clamp to bound.
    static func exponential(scale: TimeInterval, base: Double, exponent: Int) -> TimeInterval {
        scale * pow(base, Double(max(0, exponent)))
    }

    /// A jitter setting as a usable fraction: within `0...1`, 0 for NaN. Settings are the
    /// caller's, so they are clamped, not trusted.
    static func spread(_ jitter: Double) -> Double {
        jitter.isFinite ? min(max(jitter, 0), 1) : 0
    }
}
