import Foundation
import NetworkLayer

/// How ``MovieService`` answers `429 Too Many Requests`: wait as long as the server asks, then
/// send again, a bounded number of times.
///
/// TMDB limits bursts and says when to come back with `Retry-After`; honouring it turns a
/// transient 429 into a short pause instead of an error. The bounds keep a misbehaving server
/// (or a `Retry-After: 86400`) from stalling the caller.
public struct RateLimitPolicy: Sendable, Equatable {
    /// How many times to send again after a 429; 2 in ``standard``.
    public var maxRetries: Int
    /// The longest wait before a retry, in seconds; 10 in ``standard``.
    public var maxDelay: TimeInterval
    /// The wait when the 429 has no readable `Retry-After`, in seconds; 1 in ``standard``.
    public var defaultDelay: TimeInterval

    /// Creates a policy.
    public init(maxRetries: Int, maxDelay: TimeInterval, defaultDelay: TimeInterval) {
        self.maxRetries = maxRetries
        self.maxDelay = maxDelay
        self.defaultDelay = defaultDelay
    }

    /// Two retries, waiting `Retry-After` (1 s if absent), at most 10 s each.
    public static let standard = RateLimitPolicy(maxRetries: 2, maxDelay: 10, defaultDelay: 1)

    /// Never retries: a 429 is returned at once.
    public static let disabled = RateLimitPolicy(maxRetries: 0, maxDelay: 0, defaultDelay: 0)

    /// Seconds to wait before retrying after `failure`.
    public func delay(after failure: HTTPFailure) -> TimeInterval {
        let requested = failure.retryAfter?.delay() ?? defaultDelay
        return max(0, min(requested, maxDelay))
    }

    /// Runs `operation`, running it again after each ``APIError/rateLimited(_:)`` until it
    /// succeeds, fails otherwise, or ``maxRetries`` retries are spent; then the last error is
    /// thrown.
    ///
    /// - Throws: The operation's last `APIError`; ``APIError/failed(_:)`` with `.cancelled` when the calling task
    ///   is cancelled during a wait.
    public func run<T>(_ operation: () async throws(APIError) -> T) async throws(APIError) -> T {
        var retries = 0
        while true {
            do {
                return try await operation()
            } catch {
                guard case .rateLimited(let failure) = error, retries < maxRetries else { throw error }
                retries += 1
                do {
                    try await Task.sleep(nanoseconds: UInt64(delay(after: failure) * 1_000_000_000))
                } catch {
                    throw .failed(.cancelled)
                }
            }
        }
    }
}
