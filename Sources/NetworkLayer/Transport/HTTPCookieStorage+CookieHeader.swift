import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPCookieStorage {
    /// The `Cookie` header a transport of the package sends to `url` from this storage: its
    /// cookies for the URL (``cookies(sentTo:)``) joined as `HTTPCookie.requestHeaderFields(with:)`
    /// does; `nil` when there is none.
    ///
    /// The one rule both transports use, to send the header and to report it to the cache.
    package func cookieHeader(for url: URL) -> String? {
        Self.header(joining: cookies(sentTo: url))
    }

    /// The `Cookie` header FoundationNetworking itself puts on a request to `url` when a
    /// session's configuration sets cookies: every cookie `cookies(for:)` gives, which on Linux
    /// matches the host alone. What a session of the caller's sends (``URLSessionTransport``
    /// reports it to the cache and to deduplication); `nil` when there is none.
    package func cookieHeaderFoundationSends(for url: URL) -> String? {
        Self.header(joining: cookies(for: url) ?? [])
    }

    /// The cookies RFC 6265 §5.4 sends to `url`: `cookies(for:)`, which on Linux matches the host
    /// alone, less a `Secure` cookie for any URL but https, a cookie whose `Path` does not match
    /// the URL's, and an expired one; longer paths first (§5.4 step 2), and no more than
    /// ``CookieLimits`` allow in one header. FoundationNetworking's answer sent a session cookie
    /// set `Secure` over https in clear text to http on the same host (found from outside by
    /// helper-26, 2026-11-26).
    package func cookies(sentTo url: URL) -> [HTTPCookie] {
        guard let cookies = cookies(for: url), !cookies.isEmpty else { return [] }
        let isSecure = url.scheme?.lowercased() == "https"
        let path = url.path.isEmpty ? "/" : url.path
        let now = Date()
        let matching = cookies.filter { cookie in
            (isSecure || !cookie.isSecure) && Self.path(path, matches: cookie.path) && (cookie.expiresDate.map { $0 > now } ?? true)
        }
        return Self.withinHeaderLimits(matching)
    }

    /// The first of `cookies` that fit ``CookieLimits/sentPerRequest`` and
    /// ``CookieLimits/headerBytes`` once joined as `name=value; name=value`, in RFC 6265's order:
    /// longer paths first, then by name (the storage keeps no creation time to order by).
    private static func withinHeaderLimits(_ cookies: [HTTPCookie]) -> [HTTPCookie] {
        let ordered = cookies.sorted { first, second in
            let (firstPath, secondPath) = (first.path.utf8.count, second.path.utf8.count)
            return firstPath != secondPath ? firstPath > secondPath : first.name < second.name
        }
        var sent: [HTTPCookie] = []
        var bytes = 0
        for cookie in ordered where sent.count < CookieLimits.sentPerRequest {
            let length = cookie.name.utf8.count + 1 + cookie.value.utf8.count + (sent.isEmpty ? 0 : 2)
            guard bytes + length <= CookieLimits.headerBytes else { continue }
            bytes += length
            sent.append(cookie)
        }
        return sent
    }

    private static func header(joining cookies: [HTTPCookie]) -> String? {
        guard !cookies.isEmpty, let header = HTTPCookie.requestHeaderFields(with: cookies)["Cookie"], !header.isEmpty
        else { return nil }
        return header
    }

    /// RFC 6265 §5.1.4: the cookie path is the request path, or a prefix of it that ends with
    /// `/` or is followed by `/`. Compared byte by byte: both come from a server.
    private static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        let request = Array(requestPath.utf8)
        let cookie = cookiePath.isEmpty ? Array("/".utf8) : Array(cookiePath.utf8)
        guard request.starts(with: cookie) else { return false }
        return request.count == cookie.count || cookie.last == UInt8(ascii: "/") || request[cookie.count] == UInt8(ascii: "/")
    }
}
