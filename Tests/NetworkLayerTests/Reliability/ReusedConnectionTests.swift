import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Reliability {
    /// When a kept-alive connection turns out closed, libcurl sends the request again on a new
    /// one and rewinds the body. A file upload is a stream that URLSessionTransport's session
    /// delegate opens anew and CurlTransport reads again from its start, so the body goes again
    /// and the outcome comes at once over either transport; it no longer waits for the deadline.
    @Suite("Reused connections", .needsFixtureServer)
    struct ReusedConnectionTests {
        @Test(arguments: TestTransport.all)
        func aFileUploadOnAReusedConnectionThatTheServerClosesFailsAtOnce(_ transport: TestTransport) async throws {
            let folder = try scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("body.bin")
            try Data(repeating: 1, count: 50_000).write(to: file)
            let router = transport.router()
            #expect(try await router.request(.fixture("fast")).statusCode == 200)

            var endpoint = TestEndpoint.fixture("close-before-response", .post, timeout: 10)
            endpoint.task = .uploadFile(file)
            let started = Date()
            await #expect {
                try await router.request(endpoint)
            } throws: { error in
                guard case NetworkError.transport(let urlError) = error else { return false }
                return urlError.code == .badServerResponse
            }
            #expect(Date().timeIntervalSince(started) < 2, "waited for the deadline")
        }
    }
}
