import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request's method is a token (RFC 9110 §9.1) wherever it comes from. Both transports hand
/// it to libcurl, which writes it into the request line as it is: a CR LF in it adds headers of
/// the sender's choosing. The router checked an endpoint's method, but not a method a plugin set
/// in `prepare`, nor one on a request sent through a transport directly (found from outside,
/// 2026-11-26: the fixture's `/echo` saw `X-Injected: yes`).
@Suite("Method injection", .needsFixtureServer)
struct MethodInjectionTests {
    static let injected = "GET /echo HTTP/1.1\r\nX-Injected: yes\r\nX-Pad:"

    @Test(arguments: TestTransport.allCases)
    func aTransportRefusesAMethodThatIsNotAToken(_ kind: TestTransport) async throws {
        let url = try #require(TestServers.fixture?.appendingPathComponent("echo"))
        var request = URLRequest(url: url)
        request.httpMethod = Self.injected
        let transport = kind.make()
        do {
            let (data, _) = try await transport.send(request)
            Issue.record("sent: \(String(decoding: data, as: UTF8.self).prefix(300))")
        } catch let error as RequestBuildingError {
            #expect(error == .invalidMethod(HeaderValidation.printable(Self.injected)))
        }
        await #expect(throws: RequestBuildingError.self) {
            _ = try await transport.execute(request, body: nil, progress: { _, _ in })
        }
    }

    @Test(arguments: TestTransport.allCases)
    func aMethodAPluginSetIsCheckedToo(_ kind: TestTransport) async throws {
        struct Injecting: PluginType {
            func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                var request = request
                request.httpMethod = MethodInjectionTests.injected
                return request
            }
        }
        let router = Router<TestEndpoint>(transport: kind.make(), callbackQueue: DispatchQueue(label: "tests"), plugins: [Injecting()])
        let refused = await #expect(throws: NetworkError.self) { try await router.request(.fixture("echo")) }
        guard case .invalidRequest(.invalidMethod) = refused else {
            Issue.record("\(String(describing: refused))")
            return
        }
    }

    /// A `HEAD` with a body sent through `CurlTransport` directly went as `POST` with the method
    /// overridden, and libcurl then waited for a body that a `HEAD` response never has: the
    /// request ended at its idle timeout although the server had answered at once.
    @Test(arguments: TestTransport.allCases)
    func aHeadRequestWithABodyIsRefusedAtOnce(_ kind: TestTransport) async throws {
        let url = try #require(TestServers.fixture?.appendingPathComponent("status/200"))
        // 10 s, not 3: under the parallel phase's load the fixture took longer than 3 s to answer.
        var request = URLRequest(url: url, cachePolicy: .useProtocolCachePolicy, timeoutInterval: TestTiming.requestTimeout)
        request.httpMethod = "HEAD"
        let transport = kind.make()
        await #expect(throws: RequestBuildingError.bodyNotAllowed(.head)) {
            _ = try await transport.upload(request, body: .data(Data("x".utf8)), progress: { _, _ in })
        }
        request.httpBody = Data("x".utf8)
        await #expect(throws: RequestBuildingError.bodyNotAllowed(.head)) { _ = try await transport.send(request) }
        // An empty body is no body: such a HEAD goes as a HEAD (it was sent before the check).
        request.httpBody = Data()
        #expect(try await transport.send(request).1.statusCode == 200)
        #expect(try await transport.upload(request, body: .data(Data()), progress: { _, _ in }).1.statusCode == 200)
    }

    /// A header name with a bare CR, on a request sent through a transport directly, failed with
    /// `URLError(.unknown)` ("The transfer failed.", libcurl's error 43), which named nothing
    /// (helper-13, 2026-11-25). The head check names it.
    @Test(arguments: TestTransport.allCases)
    func aHeaderNameWithABareCRIsRefusedByName(_ kind: TestTransport) async throws {
        let url = try #require(TestServers.fixture?.appendingPathComponent("echo"))
        var request = URLRequest(url: url)
        request.setValue("1", forHTTPHeaderField: "X-Name\rX-Evil")
        let transport = kind.make()
        await #expect(throws: RequestBuildingError.invalidHeaderName("X-Name\\rX-Evil")) { _ = try await transport.send(request) }
        await #expect(throws: RequestBuildingError.invalidHeaderName("X-Name\\rX-Evil")) {
            _ = try await transport.execute(request, body: nil, progress: { _, _ in })
        }
    }
}
