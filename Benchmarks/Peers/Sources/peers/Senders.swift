import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `GET /fast` of the fixture server, as the router sends it: the same request as the raw
/// clients build by hand.
struct FastEndpoint: EndPointType {
    var baseURL: URL
    var path: String { "fast" }
    var httpMethod: HTTPMethod { .get }
    var task: HTTPTask { .request }
    var headers: HTTPHeaders? { ["Accept": "application/json"] }
}

/// Why a request of the benchmark failed: the fixture server answered something else.
struct UnexpectedAnswer: Error, CustomStringConvertible {
    let description: String
}

/// The four clients, each sending `GET /fast` once per call, checking the status and reading
/// the body whole.
struct Senders: Sendable {
    let fast: URL
    /// The settings of `Router<EP>()`'s own session, which the raw session copies.
    let sessionConfiguration: URLSessionConfiguration
    /// A: URLSession with a completion handler, what any completion-handler client can do.
    let rawCompletion: @Sendable () async throws -> Void
    /// A': URLSession's `data(for:)`, which completes inline inside FoundationNetworking.
    let rawData: @Sendable () async throws -> Void
    /// B: the library's default router, `Router<EP>()`, over its own URLSessionTransport.
    let routerURLSession: @Sendable () async throws -> Void
    /// C: AsyncHTTPClient's async API on the NIO singleton event loop group.
    let asyncHTTPClient: @Sendable () async throws -> Void
    /// D: the router over CurlTransport.
    let routerCurl: @Sendable () async throws -> Void
    /// C and D together, and AsyncHTTPClient's connections to stop.
    let curlPeers: CurlPeers

    init(server: URL) throws {
        let fast = server.appendingPathComponent("fast")
        self.fast = fast
        let endpoint = FastEndpoint(baseURL: server)

        // The raw session is set up as URLSessionTransport() sets up its own (no URLCache, no
        // credential store, its cookies where the transport keeps them, `.default` otherwise, so
        // the same connection limit per host): the ratio is then the router's cost, not a
        // difference of configuration.
        let configuration = URLSessionConfiguration.default
        configuration.httpCookieStorage = URLSessionTransport.defaultCookieStorage
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCredentialStorage = nil
        sessionConfiguration = configuration
        let session = URLSession(configuration: configuration)
        var request = URLRequest(url: fast)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let urlRequest = request
        rawCompletion = {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                session.dataTask(with: urlRequest) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if (response as? HTTPURLResponse)?.statusCode != 200 || data == nil {
                        continuation.resume(throwing: UnexpectedAnswer(description: "raw URLSession: not 200 with a body"))
                    } else {
                        continuation.resume()
                    }
                }.resume()
            }
        }
        rawData = {
            let (_, response) = try await session.data(for: urlRequest)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else {
                throw UnexpectedAnswer(description: "raw URLSession data(for:): not 200")
            }
        }

        let router = Router<FastEndpoint>()
        routerURLSession = {
            let response = try await router.request(endpoint)
            guard response.statusCode == 200 else { throw UnexpectedAnswer(description: "Router + URLSession: \(response.statusCode)") }
        }

        let curlPeers = try CurlPeers(server: server)
        self.curlPeers = curlPeers
        asyncHTTPClient = curlPeers.asyncHTTPClient
        routerCurl = curlPeers.routerCurl
    }

    /// Stops AsyncHTTPClient's connections; the other clients need nothing.
    func shutdown() async throws {
        try await curlPeers.shutdown()
    }
}
