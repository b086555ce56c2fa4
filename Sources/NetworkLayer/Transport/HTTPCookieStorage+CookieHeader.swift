import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPCookieStorage {
    /// The `Cookie` header a transport sends to `url` from this storage: its cookies for the URL
    /// (``cookies(sentTo:)``) joined as `HTTPCookie.requestHeaderFields(with:)` does; `nil` when
    /// there is none.
    ///
    /// The one rule both transports use, to send the header and to report it to the cache.
    package func cookieHeader(for url: URL) -> String? {
        let cookies = cookies(sentTo: url)
        guard !cookies.isEmpty, let header = HTTPCookie.requestHeaderFields(with: cookies)["Cookie"], !header.isEmpty
        else { return nil }
        return header
    }

    /// The cookies RFC 6265 §5.4 sends to `url`: `cookies(for:)`, which on Linux matches the host
    /// alone, less a `Secure` cookie for any URL but https, a cookie whose `Path` does not match
    /// the URL's, and an expired one. FoundationNetworking's answer sent a session cookie set
    /// `Secure` over https in clear text to http on the same host (found from outside by
    /// helper-26, 2026-11-26).
    package func cookies(sentTo url: URL) -> [HTTPCookie] {
        guard let cookies = cookies(for: url), !cookies.isEmpty else { return [] }
        let isSecure = url.scheme?.lowercased() == "https"
        let path = url.path.isEmpty ? "/" : url.path
        let now = Date()
        return cookies.filter { cookie in
            (isSecure || !cookie.isSecure) && Self.path(path, matches: cookie.path) && (cookie.expiresDate.map { $0 > now } ?? true)
        }
    }

    /// RFC 6265 §5.1.4: the cookie path is the request path, or a prefix of it that ends with
    /// `/` or is followed by `/`.
    private static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        let cookiePath = cookiePath.isEmpty ? "/" : cookiePath
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
            || requestPath[requestPath.index(requestPath.startIndex, offsetBy: cookiePath.count)] == "/"
    }
}
