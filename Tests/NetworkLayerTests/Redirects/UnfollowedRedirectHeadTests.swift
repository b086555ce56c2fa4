import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A 3xx that cannot be followed (here: no `Location`) is the response, with its status and
/// headers, as any other status the endpoint does not accept. FoundationNetworking never tells a
/// delegate-driven task the head of a 301-308, so `URLSessionTransport` reported
/// `URLError(.badServerResponse)` without the status (helper-36's corpus, 2026-11-27).
@Suite("A redirect that cannot be followed", .needsFixtureServer)
struct UnfollowedRedirectHeadTests {
    @Test(arguments: TestTransport.all, [301, 302, 303, 307, 308])
    func aRedirectWithoutALocationIsTheResponse(_ transport: TestTransport, _ status: Int) async throws {
        do {
            _ = try await transport.router().request(.fixture("status/\(status)"))
            Issue.record("\(transport): a \(status) was accepted")
        } catch NetworkError.unacceptableStatusCode(let response) {
            #expect(response.statusCode == status)
            #expect(response.header("Content-Type") == "application/json")
        } catch {
            Issue.record("\(transport): expected the \(status) itself, got \(error)")
        }
    }
}
