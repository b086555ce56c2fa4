import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The body's framing is the transport's to write. Found from outside (2026-11-26): a
/// `Content-Length: 0` of the endpoint's on a `POST` whose body was itself a request went out as
/// it was over `URLSessionTransport`, so the server read the body as a second request, and the
/// caller's next request on that connection was answered with the smuggled one's response.
/// libcurl replaced the value on `CurlTransport`; both now refuse it, from wherever it comes.
@Suite("Request smuggling", .needsFixtureServer)
struct RequestSmugglingTests {
    static let smuggled = Data("GET /echo?smuggled=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)

    @Test(arguments: TestTransport.allCases, ["Content-Length", "content-length", "Transfer-Encoding"])
    func anEndpointsFramingHeaderIsRefused(_ kind: TestTransport, name: String) async throws {
        var endpoint = TestEndpoint.fixture("echo", .post)
        endpoint.task = .requestData(Self.smuggled, contentType: "text/plain")
        endpoint.headers = [name: name.lowercased() == "content-length" ? "0" : "chunked"]
        let router = Router<TestEndpoint>(transport: kind.make(), callbackQueue: DispatchQueue(label: "tests"))
        let refused = await #expect(throws: NetworkError.self) { try await router.request(endpoint) }
        guard case .invalidRequest(.framingHeader(let named)) = refused else {
            Issue.record("\(String(describing: refused))")
            return
        }
        #expect(named == name)
    }

    @Test(arguments: TestTransport.allCases)
    func aPluginsFramingHeaderIsRefused(_ kind: TestTransport) async throws {
        struct Framing: PluginType {
            func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                var request = request
                request.setValue("0", forHTTPHeaderField: "Content-Length")
                return request
            }
        }
        var endpoint = TestEndpoint.fixture("echo", .post)
        endpoint.task = .requestData(Self.smuggled, contentType: "text/plain")
        let router = Router<TestEndpoint>(transport: kind.make(), callbackQueue: DispatchQueue(label: "tests"), plugins: [Framing()])
        let refused = await #expect(throws: NetworkError.self) { try await router.request(endpoint) }
        guard case .invalidRequest(.framingHeader) = refused else {
            Issue.record("\(String(describing: refused))")
            return
        }
    }

    @Test(arguments: TestTransport.allCases)
    func aTransportRefusesAFramingHeader(_ kind: TestTransport) async throws {
        let url = try #require(TestServers.fixture?.appendingPathComponent("echo"))
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Self.smuggled
        request.setValue("0", forHTTPHeaderField: "Content-Length")
        let transport = kind.make()
        await #expect(throws: RequestBuildingError.framingHeader("Content-Length")) { _ = try await transport.send(request) }
        await #expect(throws: RequestBuildingError.framingHeader("Content-Length")) {
            _ = try await transport.execute(request, body: nil, progress: { _, _ in })
        }
        request.httpBody = nil
        await #expect(throws: RequestBuildingError.framingHeader("Content-Length")) {
            _ = try await transport.upload(request, body: .data(Self.smuggled), progress: { _, _ in })
        }
    }
}
