import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StreamedResponse {
    /// An answer with `status` and `body` to `request`, for the transports tests write.
    static func answering(_ request: URLRequest, status: Int, body: Data = Data()) throws -> StreamedResponse {
        guard let url = request.url, let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: nil)
        else { throw URLError(.badURL) }
        return StreamedResponse(response: response, body: BodyStream(body))
    }
}
