import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension CurlTransport {
    /// The `Cookie` header this transport adds to `request` from its
    /// ``Configuration/cookieStorage``: `nil` without a storage, when the request has a `Cookie`
    /// header of its own, or when the storage has no cookie for its URL.
    func cookieAdded(to request: URLRequest) -> String? {
        guard let storage = configuration.cookieStorage, let url = request.url,
            request.value(forHTTPHeaderField: "Cookie") == nil
        else { return nil }
        return storage.cookieHeader(for: url)
    }

    /// `request` as this transport sends it, with its cookies, and with the storage that keeps
    /// the cookies of its responses.
    ///
    /// - Throws: As `CurlRequest.init(_:body:cookieStorage:)`.
    func prepare(_ request: URLRequest, body: UploadBody? = nil) throws -> CurlRequest {
        var request = request
        if let cookie = cookieAdded(to: request) {
            request.setValue(cookie, forHTTPHeaderField: "Cookie")
        }
        return try CurlRequest(request, body: body, cookieStorage: configuration.cookieStorage)
    }
}
