import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When and how soon a failed request is sent again.
///
/// The defaults retry idempotent requests twice on the statuses and transport errors that are
/// usually passing, with exponential backoff and jitter, and honour `Retry-After`:
///
/// | setting | default |
/// |---|---|
/// | ``retryLimit`` | 2 retries (3 attempts) |
/// | backoff | ``backoffScale`` 0.5 s × ``backoffBase`` 2 ^ (retry − 1): 0.5 s, 1 s, 2 s … |
/// | ``jitter`` | ±20 % of the backoff |
/// | ``maximumDelay`` | 30 s, also the cap on `Retry-After` |
/// | ``retryableMethods`` | GET, HEAD, PUT, DELETE, OPTIONS, TRACE (never POST or PATCH) |
/// | ``retryableStatusCodes`` | 408, 429, 500, 502, 503, 504 |
/// | ``retryableURLErrorCodes`` | timed out, connection lost, cannot connect, DNS failure, not connected … |
///
/// A retry never starts after cancellation, and never when its delay would end past the
/// request's deadline (``EndPointType/timeout``).
///
/// ```swift
/// let router = Router<MovieApi>(retryPolicy: RetryPolicy())            // the defaults
/// let patient = RetryPolicy(retryLimit: 5, maximumDelay: 10)
/// let custom = RetryPolicy { attempt in                               // decide per error
///     attempt.response?.statusCode == 409 ? .retry(after: 0.2) : nil  // nil: use the rules above
/// }
/// ```
public struct RetryPolicy: Sendable {
    /// What a custom rule decides.
    public enum Decision: Sendable, Equatable {
        /// Do not retry.
        case doNotRetry
        /// Retry after this many seconds.
        case retry(after: TimeInterval)
    }

    /// A failed attempt, as a custom rule sees it.
    public struct FailedAttempt: Sendable {
        /// The request that a retry sends again: the endpoint's, as the router built it. Its
        /// method decides ``retryableMethods``, whatever a redirect changed on the way (a `POST`
        /// answered with `303` and then `503` is not retried); ``response`` holds the request the
        /// server last answered.
        public let request: URLRequest
        /// Why it failed.
        public let error: NetworkError
        /// How many retries were made before this failure (0 after the first attempt).
        public let retryCount: Int
        /// The response, when the server answered.
        public var response: Response? { error.response }

        /// A failed attempt, as the router describes it to the policy; tests of a policy make
        /// their own: `policy.delay(for: FailedAttempt(request: request, error: .timedOut(after: 1), retryCount: 0))`.
        public init(request: URLRequest, error: NetworkError, retryCount: Int) {
            self.request = request
            self.error = error
            self.retryCount = retryCount
        }
    }

    /// No retries at all: the router's default.
    public static let none = RetryPolicy(retryLimit: 0)

    /// Retries after the first attempt; 2 by default.
    public var retryLimit: Int
    /// Base of the exponential backoff; 2 by default.
    public var backoffBase: Double
    /// Delay of the first retry before jitter, in seconds; 0.5 by default.
    public var backoffScale: TimeInterval
    /// Random spread of each backoff delay, as a fraction (0.2 = ±20 %); 0.2 by default.
    public var jitter: Double
    /// The longest wait before a retry, `Retry-After` included, in seconds; 30 by default.
    public var maximumDelay: TimeInterval
    /// Methods that may be retried; the idempotent ones by default.
    public var retryableMethods: Set<HTTPMethod>
    /// Statuses that may be retried; 408, 429, 500, 502, 503, 504 by default.
    public var retryableStatusCodes: Set<Int>
    /// Transport errors that may be retried.
    public var retryableURLErrorCodes: Set<URLError.Code>
    /// A rule that decides first; returning `nil` falls back to the settings above.
    public var rule: (@Sendable (FailedAttempt) -> Decision?)?

    /// Creates a policy; every argument has the default described above.
    public init(
        retryLimit: Int = 2,
        backoffBase: Double = 2,
        backoffScale: TimeInterval = 0.5,
        jitter: Double = 0.2,
        maximumDelay: TimeInterval = 30,
        retryableMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, .trace],
        retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableURLErrorCodes: Set<URLError.Code> = [
            .timedOut, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost,
            .dnsLookupFailed, .notConnectedToInternet, .resourceUnavailable, .badServerResponse,
        ],
        rule: (@Sendable (FailedAttempt) -> Decision?)? = nil
    ) {
        self.retryLimit = retryLimit
        self.backoffBase = backoffBase
        self.backoffScale = backoffScale
        self.jitter = jitter
        self.maximumDelay = maximumDelay
        self.retryableMethods = retryableMethods
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableURLErrorCodes = retryableURLErrorCodes
        self.rule = rule
    }

    /// The delay before retrying `attempt`, or `nil` for no retry.
    ///
    /// `Retry-After` on the response replaces the backoff; both are capped at ``maximumDelay``.
    public func delay(for attempt: FailedAttempt, now: Date = Date()) -> TimeInterval? {
        guard attempt.retryCount < retryLimit else { return nil }
        if let rule, let decision = rule(attempt) {
            switch decision {
            case .doNotRetry: return nil
            case .retry(let delay): return clamp(delay)
            }
        }
        let method = HTTPMethod(rawValue: attempt.request.httpMethod ?? "GET")
        guard retryableMethods.contains(method), isRetryable(attempt.error) else { return nil }
        if let retryAfter = attempt.response?.retryAfter {
            return clamp(retryAfter.delay(from: now))
        }
        let backoff = Backoff.exponential(scale: backoffScale, base: backoffBase, exponent: attempt.retryCount)
        let spread = Backoff.spread(jitter)
        return clamp(backoff * (1 + (spread > 0 ? Double.random(in: -spread...spread) : 0)))
    }

    private func isRetryable(_ error: NetworkError) -> Bool {
        switch error {
        case .unacceptableStatusCode(let response): return retryableStatusCodes.contains(response.statusCode)
        case .transport(let error): return retryableURLErrorCodes.contains(error.code)
        case .invalidRequest, .timedOut, .cancelled, .decoding, .download, .stream, .cache, .responseTooLarge, .underlying: return false
        }
    }

    /// `delay` within `0...maximumDelay`, whatever either is (NaN, negative, infinite).
    private func clamp(_ delay: TimeInterval) -> TimeInterval {
        let ceiling = maximumDelay.isFinite ? min(max(0, maximumDelay), Seconds.longest) : Seconds.longest
        guard delay.isFinite else { return ceiling }
        return min(max(0, delay), ceiling)
    }
}
