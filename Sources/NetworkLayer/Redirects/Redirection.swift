import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request that follows a redirect response, by RFC 9110 §15.4 and the credential rule of
/// ``RedirectPolicy``. Pure: nothing is sent.
struct Redirection {
    /// The request to send next.
    let request: URLRequest
    /// Whether the body goes along (307, 308); otherwise the next request has none.
    let keepsBody: Bool

    private static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
    private static let bodyHeaders = ["content-type", "content-length", "content-encoding", "transfer-encoding"]

    /// The redirection `response` asks for after `request`, or `nil` when it is not a redirect
    /// to follow (another status, or no `Location`).
    ///
    /// - Parameter redaction: Names the headers removed when the redirect leaves the origin,
    ///   besides those removed always (``Redaction/isCredentialHeader(_:)``).
    /// - Throws: `URLError(.unsupportedURL)` for a `Location` that is not http or https, and
    ///   `URLError(.badURL)` for one that is no URL or has no host, each saying which.
    static func following(
        _ response: Response, to request: URLRequest, redaction: Redaction
    ) throws(URLError) -> Redirection? {
        guard redirectStatuses.contains(response.statusCode),
            let location = response.header("Location"), !location.isEmpty,
            let current = request.url ?? response.httpResponse.url
        else { return nil }
        // Three messages, not one: "not http or https" for `//a b/x` sent the reader after the
        // scheme, where the host was at fault (helper-36).
        guard let target = URL(string: location, relativeTo: current)?.absoluteURL else {
            throw URLError(.badURL, userInfo: [NSLocalizedDescriptionKey: "The server redirected to a Location that is not a valid URL."])
        }
        guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw URLError(
                .unsupportedURL,
                userInfo: [NSLocalizedDescriptionKey: "The server redirected to a URL that is not http or https."])
        }
        guard target.host != nil else {
            throw URLError(.badURL, userInfo: [NSLocalizedDescriptionKey: "The server redirected to a URL without a host."])
        }

        var next = request
        // Schemes are case-insensitive (RFC 3986 §3.1), and FoundationNetworking refuses `HTTP://`
        // as an unsupported URL where libcurl follows it: sent in lower case, as URLJoining does.
        next.url = target
        if target.scheme != scheme, var components = URLComponents(url: target, resolvingAgainstBaseURL: false) {
            components.scheme = scheme
            next.url = components.url ?? target
        }
        let method = (request.httpMethod ?? "GET").uppercased()
        let becomesGET = response.statusCode == 303 ? method != "HEAD" : (response.statusCode <= 302 && method == "POST")
        if becomesGET {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.httpBodyStream = nil
            for name in (next.allHTTPHeaderFields ?? [:]).keys where bodyHeaders.contains(name.lowercased()) {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        if !Origin(current).contains(target) {
            for name in (next.allHTTPHeaderFields ?? [:]).keys where redaction.isCredentialHeader(name) {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        return Redirection(request: next, keepsBody: !becomesGET)
    }
}
