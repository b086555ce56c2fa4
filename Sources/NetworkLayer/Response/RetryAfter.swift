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

    /// Parses a header value; `nil` when it is malformed, and a malformed `Retry-After` counts
    /// as absent.
    ///
    /// `delay-seconds` is one or more ASCII digits (capped at about 31 years, since the server
    /// controls the number); an HTTP-date is any of the three forms of RFC 9110 §5.6.7
    /// (IMF-fixdate, RFC 850 and asctime), read strictly by the package's one date parser: an
    /// extra space, a sign or a fraction make the value invalid. Spaces and tabs around the value
    /// are not part of it.
    public init?(headerValue: String) {
        let value = headerValue.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        if !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Too many digits for UInt64 is still a number of seconds: the cap.
            self = .seconds(min(UInt64(value).map { TimeInterval($0) } ?? .infinity, 1_000_000_000))
            return
        }
        guard let date = HTTPDate.parse(value) else { return nil }
        self = .date(date)
    }

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
