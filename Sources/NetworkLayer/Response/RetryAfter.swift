import Foundation

/// A parsed `Retry-After` header (RFC 9110 §10.2.3): a number of seconds or an HTTP-date.
///
/// ```swift
/// if let retryAfter = response.retryAfter {
///     try await Task.sleep(for: .seconds(retryAfter.delay()))
/// }
/// ```
public enum RetryAfter: Sendable, Equatable {
    /// `Retry-After: 120`.
    case seconds(TimeInterval)
    /// `Retry-After: Wed, 21 Oct 2026 07:28:00 GMT`.
    case date(Date)

    /// Parses a header value; `nil` when it is neither a non-negative integer nor an HTTP-date.
    ///
    /// All three date formats of RFC 9110 §5.6.7 are accepted: IMF-fixdate, RFC 850 and asctime.
    public init?(headerValue: String) {
        let value = headerValue.trimmingCharacters(in: .whitespaces)
        if let seconds = UInt64(value) {
            // Capped at about 31 years: the server controls the number, and callers convert it.
            self = .seconds(min(TimeInterval(seconds), 1_000_000_000))
            return
        }
        // The shortest HTTP-date (asctime) has 24 characters; skip the formatters for anything
        // shorter. A formatter is made per call because DateFormatter is not Sendable.
        guard value.utf8.count >= 24 else { return nil }
        for format in Self.dateFormats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: value) {
                self = .date(date)
                return
            }
        }
        return nil
    }

    private static let dateFormats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
        "EEEE, dd-MMM-yy HH:mm:ss zzz",  // RFC 850:     Sunday, 06-Nov-94 08:49:37 GMT
        "EEE MMM d HH:mm:ss yyyy",  // asctime:     Sun Nov  6 08:49:37 1994
    ]

    /// Seconds to wait from `now`; never negative (a date in the past means "now").
    public func delay(from now: Date = Date()) -> TimeInterval {
        switch self {
        case .seconds(let seconds): return seconds
        case .date(let date): return max(0, date.timeIntervalSince(now))
        }
    }
}

extension Response {
    /// The response's `Retry-After` header, parsed; `nil` when absent or unreadable.
    public var retryAfter: RetryAfter? {
        header("Retry-After").flatMap(RetryAfter.init(headerValue:))
    }
}
