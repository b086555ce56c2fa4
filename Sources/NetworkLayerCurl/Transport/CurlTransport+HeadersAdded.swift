import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension CurlTransport {
    /// `[:]`: libcurl sends the request's own headers and no credential of its own. It keeps no
    /// cookies (no cookie engine is enabled) and never sends a URL's `user:password@`, so the
    /// cache's key, made from the request's headers, is the whole of what reaches the wire.
    /// A cookie storage added to this transport must report its `Cookie` here.
    public func headersAdded(to request: URLRequest) -> HTTPHeaders? { [:] }
}
