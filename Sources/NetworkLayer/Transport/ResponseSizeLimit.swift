import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPTransport {
    /// The largest response body that ``URLSessionTransport`` and `CurlTransport` keep in memory
    /// unless given another `maximumResponseSize`: 32 MiB.
    ///
    /// The limit applies to every body a transport holds whole, whatever its status (an error's
    /// body too), and counts the bytes after `Content-Encoding` is decoded, so a small gzip body
    /// that inflates past it is stopped too. The transfer ends as soon as the limit is passed,
    /// with ``NetworkError/responseTooLarge(limit:)``, so a request grows the process by about
    /// the limit at most. 32 MiB is far above any API's JSON and small enough for a phone; larger
    /// bodies belong in a download (``HTTPTask/download(_:urlParameters:)``), written to its file
    /// as it arrives, or a stream (``Router/stream(_:options:)``), which are not limited.
    ///
    /// ```swift
    /// let router = Router<MovieApi>(transport: URLSessionTransport(maximumResponseSize: 128 * 1_048_576))
    /// ```
    public static var defaultMaximumResponseSize: Int { 32 * 1_048_576 }
}

/// The one check of a transport's limit on the body it keeps in memory, and its error.
package enum ResponseSizeLimit {
    /// Whether `count` more bytes take a body of `held` bytes past `limit` (a negative limit is
    /// 0). `held` never passes the limit, since a body that would is dropped.
    package static func isExceeded(holding held: Int, adding count: Int, limit: Int) -> Bool {
        count > max(0, limit) - held
    }

    /// What a transport throws when a body passes `limit`; the router turns it into
    /// ``NetworkError/responseTooLarge(limit:)``.
    package static func error(limit: Int) -> URLError {
        URLError(
            .dataLengthExceedsMaximum,
            userInfo: [
                NSLocalizedDescriptionKey: "The response body is larger than the transport's maximumResponseSize"
                    + " (\(limit) bytes). Raise it, or download the body to a file or read it as a stream.",
                limitKey: limit,
            ])
    }

    /// The limit that `error` reports, when it is the transport's error of a body too large.
    package static func limit(of error: URLError) -> Int? {
        error.code == .dataLengthExceedsMaximum ? error.userInfo[limitKey] as? Int : nil
    }

    private static let limitKey = "NetworkLayerMaximumResponseSize"
}
