import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Response {
    /// Creates a response from a status and a body, Moya's `Response(statusCode:data:)`, for
    /// calling a plugin's hooks or a mapping function in a unit test, or for a plugin's
    /// ``PluginType/process(_:context:)`` that answers on the server's behalf.
    ///
    /// ```swift
    /// let response = try Response(statusCode: 404, data: Data(#"{"error":"gone"}"#.utf8))
    /// let result = plugin.process(.success(response), context: RequestContext(target: MovieApi.popular(page: 1)))
    /// ```
    ///
    /// - Parameters:
    ///   - statusCode: The status.
    ///   - data: The body; empty by default.
    ///   - headers: The response headers; none by default.
    ///   - request: The request it answers; by default a `GET` of `url`.
    ///   - url: The response's URL; the request's URL, or `http://localhost/` when neither is given.
    ///   - fileURL: Where a download's body was put; `nil` by default.
    /// - Throws: ``NetworkError/transport(_:)`` with `URLError(.badServerResponse)` if Foundation
    ///   refuses to make an `HTTPURLResponse` of these values. It makes one for every status
    ///   tried on Linux, 0, negative and `Int.max` included.
    public init(
        statusCode: Int, data: Data = Data(), headers: HTTPHeaders = [:], request: URLRequest? = nil, url: URL? = nil,
        fileURL: URL? = nil
    ) throws(NetworkError) {
        let url = url ?? request?.url ?? URL(string: "http://localhost/") ?? URL(fileURLWithPath: "/")
        guard let httpResponse = HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headers) else {
            throw .transport(URLError(.badServerResponse))
        }
        self.init(request: request ?? URLRequest(url: url), httpResponse: httpResponse, data: data, fileURL: fileURL)
    }
}
