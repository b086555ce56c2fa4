import Foundation
import Testing
import TestSupport

@testable import NetworkLayer

#if canImport(FoundationNetworking)
import FoundationNetworking

/// FoundationNetworking gives libcurl a request's `Proxy-Authorization` as a header for the
/// origin server, so over https the proxy's credentials went through the tunnel to the server
/// the URL names. `URLSessionTransport` refuses such a request before anything is sent, on every
/// way in; over plain http the header still goes, as documented.
@Suite("Proxy credentials over URLSessionTransport", .needsFixtureServer)
struct ProxyCredentialTests {
    /// The fixture's port with `https`: a request sent there would fail in the TLS handshake,
    /// not with the refusal.
    static func httpsFixture(_ path: String) throws -> URL {
        let fixture = try #require(TestServers.fixture)
        var components = try #require(URLComponents(url: fixture, resolvingAgainstBaseURL: false))
        components.scheme = "https"
        components.path = "/" + path
        return try #require(components.url)
    }

    static func expectRefusal(_ error: (any Error)?, sourceLocation: SourceLocation = #_sourceLocation) {
        let urlError: URLError?
        switch error {
        case let error as URLError: urlError = error
        case NetworkError.transport(let error)?: urlError = error
        default: urlError = nil
        }
        #expect(urlError?.code == .userAuthenticationRequired, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(urlError?.localizedDescription.contains("Proxy-Authorization") == true, sourceLocation: sourceLocation)
    }

    @Test func aRoutersHTTPSRequestWithProxyCredentialsIsRefused() async throws {
        var endpoint = TestEndpoint.fixture("echo")
        endpoint.baseURL = try Self.httpsFixture("")
        endpoint.headers = ["Proxy-Authorization": "Basic cHJveHk6c2VjcmV0"]
        let router = Router<TestEndpoint>(transport: URLSessionTransport(), callbackQueue: DispatchQueue(label: "proxy"))
        var failure: (any Error)?
        do {
            _ = try await router.request(endpoint)
        } catch {
            failure = error
        }
        Self.expectRefusal(failure)
    }

    @Test(arguments: ["send", "execute", "upload", "download"])
    func everyWayIntoTheTransportRefusesIt(_ way: String) async throws {
        var request = URLRequest(url: try Self.httpsFixture("echo"))
        request.setValue("Basic cHJveHk6c2VjcmV0", forHTTPHeaderField: "proxy-authorization")
        let transport = URLSessionTransport()
        var failure: (any Error)?
        do {
            switch way {
            case "send": _ = try await transport.send(request)
            case "execute": _ = try await transport.execute(request, body: nil, progress: { _, _ in })
            case "upload":
                request.httpMethod = "POST"
                _ = try await transport.upload(request, body: .data(Data("x".utf8)), progress: { _, _ in })
            default:
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: file) }
                _ = try await transport.download(request, to: file, progress: { _, _ in })
            }
        } catch {
            failure = error
        }
        Self.expectRefusal(failure)
    }

    /// Over http the header goes with the request: to the proxy when one is set, here to the
    /// origin, which shows that the refusal is about https alone.
    @Test func overPlainHTTPTheHeaderStillGoes() async throws {
        var endpoint = TestEndpoint.fixture("echo")
        endpoint.headers = ["Proxy-Authorization": "Basic cHJveHk6c2VjcmV0"]
        let router = Router<TestEndpoint>(transport: URLSessionTransport(), callbackQueue: DispatchQueue(label: "proxy"))
        let response = try await router.request(endpoint)
        let headers = try #require(try JSONSerialization.jsonObject(with: response.data) as? [String: Any])["headers"] as? [String: Any]
        #expect(headers?["proxy-authorization"] as? String == "Basic cHJveHk6c2VjcmV0")
    }
}
#endif
