import AsyncHTTPClient
import Foundation
import NIOSSL
import NetworkLayer
import NetworkLayerCurl

/// AsyncHTTPClient (C) and Router + CurlTransport (D), each sending `GET /fast` to one server
/// once per call, checking the status and reading the body whole. Set up alike: 16 connections
/// per host at most, and over https the same certificate authority and nothing else trusted.
struct CurlPeers: Sendable {
    /// The largest `GET /fast` body AsyncHTTPClient may collect: the answers are about 100 bytes.
    static let bodyLimit = 64 * 1024

    /// C: AsyncHTTPClient's async API on the NIO singleton event loop group.
    let asyncHTTPClient: @Sendable () async throws -> Void
    /// D: the router over CurlTransport.
    let routerCurl: @Sendable () async throws -> Void
    let client: HTTPClient

    /// - Parameters:
    ///   - server: the base URL; `fast` is appended.
    ///   - certificateAuthorityFile: a PEM file that both clients trust instead of the system's
    ///     store, for the throwaway CA of Scripts/tls-server; `nil` for the defaults.
    init(server: URL, certificateAuthorityFile: String? = nil) throws {
        let endpoint = FastEndpoint(baseURL: server)

        // 16 connections to the host, as many as requests in flight at most; Configuration has
        // no `maximumConnectionsPerHost` in 1.37: the pool's soft limit is that setting.
        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 16)
        if let certificateAuthorityFile {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(certificateAuthorityFile)
            clientConfiguration.tlsConfiguration = tls
        }
        // The default, spelled out because the HTTP/2 rows rest on it: h2 when the server
        // offers it by ALPN, HTTP/1.1 otherwise (and always over plain http).
        clientConfiguration.httpVersion = .automatic
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
        self.client = client
        var clientRequest = HTTPClientRequest(url: server.appendingPathComponent("fast").absoluteString)
        clientRequest.headers.add(name: "Accept", value: "application/json")
        let asyncRequest = clientRequest
        asyncHTTPClient = {
            let response = try await client.execute(asyncRequest, timeout: .seconds(30))
            // Read whole, as the others do: the body is part of the request's cost.
            _ = try await response.body.collect(upTo: Self.bodyLimit)
            guard response.status == .ok else { throw UnexpectedAnswer(description: "AsyncHTTPClient: \(response.status)") }
        }

        // The same connection limit as AsyncHTTPClient's. libcurl offers h2 over https and
        // waits for a connection's ALPN before opening another (CurlTransport's own settings).
        let configuration = CurlTransport.Configuration(
            certificateAuthority: certificateAuthorityFile.map { .file(URL(fileURLWithPath: $0)) },
            maximumConnectionsPerHost: 16)
        let curlRouter = Router<FastEndpoint>(transport: CurlTransport(configuration: configuration))
        routerCurl = {
            let response = try await curlRouter.request(endpoint)
            guard response.statusCode == 200 else { throw UnexpectedAnswer(description: "Router + CurlTransport: \(response.statusCode)") }
        }
    }

    /// Stops AsyncHTTPClient's connections; CurlTransport closes its own when the last copy of
    /// the router goes away.
    func shutdown() async throws {
        try await client.shutdown()
    }
}
