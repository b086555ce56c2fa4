import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A stream's answer is the final response with its status, over either transport: a `401` with
/// `WWW-Authenticate: Basic` (whose challenge URLSessionTransport cancels) and a `103 Early Hints`
/// before the `200`. Over URLSession the `103` was read as the head; the `401`'s body read through
/// the transport's one call failed with `URLError(.cancelled)` (CurlTimeoutTests).
@Suite("A stream's status is the final response's", .needsFixtureServer)
struct StreamStatusTests {
    @Test(arguments: TestTransport.all)
    func aChallenged401IsAnUnacceptableStatusWithItsBody(_ kind: TestTransport) async throws {
        do {
            for try await _ in kind.router().stream(TestEndpoint.fixture("basic-auth")) {}
            Issue.record("a 401 was read as a body")
        } catch NetworkError.unacceptableStatusCode(let response) {
            #expect(response.statusCode == 401)
        } catch {
            Issue.record("expected unacceptableStatusCode(401), got \(error)")
        }
    }

    @Test(arguments: TestTransport.all)
    func anInterimResponseIsNotTheHead(_ kind: TestTransport) async throws {
        var body = Data()
        for try await chunk in kind.router().stream(TestEndpoint.fixture("early-hints")) { body.append(chunk) }
        #expect(String(decoding: body, as: UTF8.self) == "{\"ok\":true}")
    }
}
