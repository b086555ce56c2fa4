import Foundation

/// How long a stored response stays fresh and how old it was when it arrived (RFC 9111 §4.2).
///
/// Computed once when a response is stored or read from disk, so that a lookup only adds the
/// time it has spent in the cache.
struct Freshness: Equatable, Sendable {
    /// Seconds for which the response is fresh after it was generated (§4.2.1).
    var lifetime: TimeInterval
    /// `corrected_initial_age` of §4.2.3: the response's age when it was received.
    var initialAge: TimeInterval
    /// When the response was received (`response_time`).
    var responseTime: Date

    /// `current_age` of §4.2.3 at `now`; infinite when `now` is more than a second before the
    /// response was received. The clock was then set back (or a disk entry's time is forged),
    /// and how long the response has been stored cannot be known: counted as none, a
    /// `max-age=60` stored a year ahead was served for that whole year (found from outside,
    /// 2026-11-26). An infinite age sends the request on, or revalidates it.
    func age(at now: Date) -> TimeInterval {
        let resident = now.timeIntervalSince(responseTime)
        guard resident > -1 else { return .infinity }
        return initialAge + max(0, resident)
    }

    /// Statuses that may be given heuristic freshness (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    init(
        statusCode: Int, headers: StoredHeaders, directives: CacheControl, requestTime: Date, responseTime: Date,
        heuristic: HTTPCache.HeuristicFreshness
    ) {
        self.responseTime = responseTime
        // A missing or unreadable Date: the response was generated when it arrived (RFC 9110 §6.6.1).
        let date = headers["Date"].flatMap(HTTPDate.parse) ?? responseTime

        // §4.2.3. A response delay below zero would mean the clock went backwards: count none.
        let apparentAge = max(0, responseTime.timeIntervalSince(date))
        let ageValue = headers["Age"].flatMap(Self.ageValue) ?? 0
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        initialAge = max(apparentAge, ageValue + responseDelay)

        // §4.2.1, for a private cache: max-age, else Expires - Date, else a heuristic.
        if let maxAge = directives.maxAge {
            lifetime = TimeInterval(maxAge)
        } else if let expires = headers["Expires"] {
            // An unreadable Expires, "0" above all, means "already expired" (§5.3).
            lifetime = HTTPDate.parse(expires).map { max(0, $0.timeIntervalSince(date)) } ?? 0
        } else if Self.heuristicallyCacheable.contains(statusCode) || directives.isPublic,
            case .fractionOfLastModifiedAge(let fraction, let maximum) = heuristic,
            let lastModified = headers["Last-Modified"].flatMap(HTTPDate.parse)
        {
            let sinceModified = max(0, date.timeIntervalSince(lastModified))
            lifetime = min(max(0, sinceModified * fraction), max(0, maximum))
        } else {
            lifetime = 0
        }
    }

    /// The first member of an `Age` value when it is a non-negative integer (RFC 9111 §5.1);
    /// otherwise `nil`, and the field is ignored.
    private static func ageValue(_ text: String) -> TimeInterval? {
        let first = text.split(separator: ",", omittingEmptySubsequences: false).first ?? ""
        let trimmed = Substring(first.trimmingCharacters(in: .whitespaces))
        return CacheControl.deltaSeconds(trimmed).map(TimeInterval.init)
    }
}

extension HTTPCache {
    /// Freshness for a response that gives none explicitly (no `max-age`, no `Expires`),
    /// as RFC 9111 §4.2.2 allows.
    ///
    /// The default, ``fractionOfLastModifiedAge(_:maximum:)`` with 10 % and one day, is the
    /// rule browsers and Apple's `URLCache` apply: a response whose `Last-Modified` is 10 days
    /// before its `Date` stays fresh for one day. Without `Last-Modified` there is no heuristic
    /// freshness: such a response is stored, but revalidated or fetched again at every use.
    ///
    /// ```swift
    /// var configuration = HTTPCache.Configuration()
    /// configuration.heuristicFreshness = .none   // only what the server states
    /// ```
    public enum HeuristicFreshness: Sendable, Equatable {
        /// No heuristic: a response without `max-age` or `Expires` is stale at once.
        case none
        /// `fraction` of the time between `Last-Modified` and `Date`, at most `maximum` seconds,
        /// for statuses that RFC 9110 §15.1 calls heuristically cacheable.
        case fractionOfLastModifiedAge(Double, maximum: TimeInterval)

        /// 10 % of the time since `Last-Modified`, at most one day.
        public static let `default` = HeuristicFreshness.fractionOfLastModifiedAge(0.1, maximum: 86_400)
    }
}
