import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension CurlTransport {
    /// The `Cookie` header made from ``Configuration/cookieStorage`` for the request's URL, when
    /// there is a storage, it has cookies for the URL and the request has no `Cookie` of its
    /// own; `[:]` otherwise. libcurl sends the request's own headers and no credential of its
    /// own (no cookie engine of libcurl's is enabled, and a URL's `user:password@` is never
    /// sent), so the cache's key, made from the request's headers and these, is the whole of
    /// what reaches the wire.
    public func headersAdded(to request: URLRequest) -> HTTPHeaders? {
        guard let cookie = cookieAdded(to: request) else { return [:] }
        return ["Cookie": cookie]
    }
}
