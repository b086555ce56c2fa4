import Foundation

/// Scheme, host and port of a URL (RFC 6454), the default port made explicit: the one rule for
/// "the same origin" in the package. Redirects keep credentials within it, the cache invalidates
/// a `Location` only within it, and ``AccessTokenPlugin`` sends its token only to the origins it
/// is allowed.
struct Origin: Hashable, Sendable {
    let scheme: String?
    let host: String?
    let port: Int?

    init(_ url: URL) {
        scheme = url.scheme?.lowercased()
        host = url.host?.lowercased()
        port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
    }

    /// Whether `url` has this origin. A URL without a scheme or host has no origin, and is in
    /// none.
    func contains(_ url: URL) -> Bool {
        scheme != nil && host != nil && self == Origin(url)
    }
}
