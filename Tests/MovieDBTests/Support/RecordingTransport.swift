import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkLayer

/// A transport that keeps every request it is given and answers each with `answer`: the
/// request exactly as the router built it (mapping and plugins applied), without a server.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `sent` is read and written only under `lock`.
    private let lock = NSLock()
    private var sent: [URLRequest] = []
    private let answer: @Sendable (URLRequest, Int) throws -> StubResponse

    /// `answer(request, n)` answers the n-th request (from 1); an empty TMDB page by default.
    init(answer: @escaping @Sendable (URLRequest, Int) throws -> StubResponse = { _, _ in RecordingTransport.emptyPage }) {
        self.answer = answer
    }

    /// An empty page, which every list endpoint decodes.
    static let emptyPage = StubResponse(data: Data(#"{"page": 1, "results": [], "total_pages": 1, "total_results": 0}"#.utf8))

    var requests: [URLRequest] { lock.withLock { sent } }

    func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws -> StreamedResponse {
        let count = lock.withLock {
            sent.append(request)
            return sent.count
        }
        let stub = try answer(request, count)
        guard let url = request.url,
            let response = HTTPURLResponse(url: url, statusCode: stub.statusCode, httpVersion: "HTTP/1.1", headerFields: stub.headers)
        else { throw URLError(.badURL) }
        return StreamedResponse(response: response, body: BodyStream(stub.data))
    }

    /// `[:]`: nothing is added on a wire, so the cache keys its requests by their own headers.
    func headersAdded(to request: URLRequest) -> HTTPHeaders? { [:] }
}
