import Dispatch
import Foundation

/// The one place where seconds become nanoseconds and deadlines: every duration the package
/// takes (timeouts, retry delays, `Retry-After`, stub delays) comes from a caller or a server,
/// so each is clamped here before any conversion that could overflow or trap.
enum Seconds {
    /// Durations at or beyond this (about 31 years) mean "never": the conversion to
    /// nanoseconds cannot overflow below it.
    static let longest: TimeInterval = 1_000_000_000

    /// `seconds` within `0...longest`; NaN is 0 and infinity is ``longest``.
    static func clamped(_ seconds: TimeInterval) -> TimeInterval {
        guard !seconds.isNaN else { return 0 }
        return min(max(0, seconds), longest)
    }

    /// `seconds` as nanoseconds, clamped first.
    static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        UInt64(clamped(seconds) * 1_000_000_000)
    }

    /// Whether `seconds` is a deadline to enforce: positive and finite, and below ``longest``.
    static func isDeadline(_ seconds: TimeInterval) -> Bool {
        seconds > 0 && seconds < longest
    }

    /// The uptime `seconds` from now, in nanoseconds: a monotonic instant for comparisons.
    static func uptime(after seconds: TimeInterval) -> UInt64 {
        DispatchTime.now().uptimeNanoseconds &+ nanoseconds(seconds)
    }
}
