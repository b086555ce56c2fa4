import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPCookieStorage {
    /// The `Cookie` header a transport sends to `url` from this storage: its cookies for the URL
    /// joined as `HTTPCookie.requestHeaderFields(with:)` does; `nil` when there is none.
    ///
    /// The one rule both transports use, to send the header and to report it to the cache.
    package func cookieHeader(for url: URL) -> String? {
        guard let cookies = cookies(for: url), !cookies.isEmpty,
            let header = HTTPCookie.requestHeaderFields(with: cookies)["Cookie"], !header.isEmpty
        else { return nil }
        return header
    }
}
