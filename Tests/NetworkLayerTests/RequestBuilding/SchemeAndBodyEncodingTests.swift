import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which URLs may be requested, and that a body encoding always writes the body.
@Suite("Schemes and body encodings")
struct SchemeAndBodyEncodingTests {
    private func build(_ endpoint: TestEndpoint) -> Result<URLRequest, RequestBuildingError> {
        Result { () throws(RequestBuildingError) -> URLRequest in
            do throws(NetworkError) {
                return try RequestBuilder.makeRequest(for: endpoint)
            } catch {
                guard case .invalidRequest(let reason) = error else { throw .invalidURL("not a building error: \(error)") }
                throw reason
            }
        }
    }

    // MARK: Schemes

    @Test(arguments: ["ftp://127.0.0.1:9/x", "ws://127.0.0.1:9", "mailto://a@b.c", "gopher://h/"])
    func aSchemeOtherThanHTTPOrHTTPSIsAnInvalidURL(base: String) throws {
        let endpoint = TestEndpoint(baseURL: try #require(URL(string: base)), path: "p")
        guard case .failure(.invalidURL) = build(endpoint) else {
            Issue.record("\(base) was accepted")
            return
        }
    }

    @Test(arguments: ["HTTP://example.invalid/a", "Https://example.invalid/a", "hTtP://example.invalid/a"])
    func schemesAreCaseInsensitiveAndSentLowerCase(base: String) throws {
        let endpoint = TestEndpoint(baseURL: try #require(URL(string: base)), path: "b")
        let request = try build(endpoint).get()
        let scheme = try #require(request.url?.scheme)
        #expect(scheme == scheme.lowercased())
        #expect(request.url?.path == "/a/b")
    }

    @Test(.needsFixtureServer, arguments: TestTransport.all)
    func anUpperCaseSchemeReachesTheServer(_ transport: TestTransport) async throws {
        let fixture = try #require(TestServers.fixture)
        let upper = try #require(URL(string: fixture.absoluteString.replacingOccurrences(of: "http://", with: "HTTP://")))
        let response = try await transport.router().request(TestEndpoint(baseURL: upper, path: "fast"))
        #expect(response.statusCode == 200)
    }

    @Test func anFTPBaseURLFailsAtOnceWithoutWaitingForTheDeadline() async throws {
        let router = Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "tests"))
        var endpoint = TestEndpoint(baseURL: try #require(URL(string: "ftp://127.0.0.1:9")), path: "x")
        // A deadline far past the bound below: the bound is wide because the task that hears the
        // failure may be held back for seconds beside the other suites.
        endpoint.timeout = 3600
        let started = Date()
        await #expect {
            try await router.request(endpoint)
        } throws: { error in
            guard case NetworkError.invalidRequest(.invalidURL) = error else { return false }
            return true
        }
        #expect(Date().timeIntervalSince(started) < 60, "waited for the deadline")
    }

    // MARK: Body encodings write the body

    @Test func aURLParameterEncoderAsABodyEncodingThatWouldWriteTheQueryIsAnError() throws {
        let endpoint = TestEndpoint.offline(
            "form", .post,
            task: .requestParameters(bodyParameters: ["secret": "s"], bodyEncoding: .custom(URLParameterEncoder()), urlParameters: nil))
        guard case .failure(.bodyNotWritten(let encoder)) = build(endpoint) else {
            Issue.record("the body parameters did not fail: \(build(endpoint))")
            return
        }
        #expect(encoder == "URLParameterEncoder")
        #expect(RequestBuildingError.bodyNotWritten(encoder: encoder).message.contains("destination: .httpBody"))
    }

    @Test func aURLParameterEncoderIntoTheBodyWritesTheBody() throws {
        let endpoint = TestEndpoint.offline(
            "form", .post,
            task: .requestParameters(
                bodyParameters: ["a": "1"], bodyEncoding: .custom(URLParameterEncoder(destination: .httpBody)), urlParameters: nil))
        let request = try build(endpoint).get()
        #expect(request.httpBody == Data("a=1".utf8))
        #expect(request.url?.query == nil)
    }

    @Test func aCustomEncoderThatWritesNoBodyIsAnError() {
        struct Forgetful: ParameterEncoder {
            func encode(urlRequest: inout URLRequest, with parameters: Parameters) throws {}
        }
        let endpoint = TestEndpoint.offline(
            "x", .post, task: .requestParameters(bodyParameters: ["a": 1], bodyEncoding: .custom(Forgetful()), urlParameters: nil))
        guard case .failure(.bodyNotWritten(let encoder)) = build(endpoint) else {
            Issue.record("expected bodyNotWritten")
            return
        }
        #expect(encoder == "Forgetful")
    }
}
