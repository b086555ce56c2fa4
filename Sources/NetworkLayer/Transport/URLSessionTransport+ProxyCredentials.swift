import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// The error for an `https` request with a `Proxy-Authorization` header on Linux, or `nil`.
    ///
    /// FoundationNetworking gives libcurl every request header as one for the origin server (it
    /// has no proxy headers), so the proxy's credentials went through the tunnel to the server
    /// the URL names, whether a proxy was used or not. Such a request is refused, nothing sent.
    /// Give the proxy's credentials in its URL (`https_proxy=http://user:password@proxy:3128`),
    /// or use `CurlTransport`, which sends the header to the proxy alone. Over plain `http`
    /// the header goes with the request to whichever server receives it: the proxy when one is
    /// set, else the origin.
    static func proxyCredentialRefusal(for request: URLRequest) -> URLError? {
        #if canImport(FoundationNetworking)
        guard let scheme = request.url?.scheme, scheme.lowercased() == "https",
            request.headerValue(named: "Proxy-Authorization") != nil
        else { return nil }
        let message =
            "The request has a Proxy-Authorization header, which URLSessionTransport on Linux would send to the origin"
            + " server through the HTTPS tunnel: give the proxy's credentials in its URL"
            + " (https_proxy=http://user:password@host:port), or send the request with CurlTransport."
        return URLError(.userAuthenticationRequired, userInfo: [NSLocalizedDescriptionKey: message])
        #else
        return nil
        #endif
    }
}
