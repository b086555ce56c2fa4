import Foundation
import NetworkLayerCurl
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests started together to an http origin the transport has not talked to yet go out
/// together. With `CURLOPT_PIPEWAIT` on every transfer, libcurl held all but the first until
/// the first one's answer told it the connection would not multiplex: a slow first request
/// held up every other, and requests the server answers only together never got an answer.
@Suite("CurlTransport starts concurrent requests to a new http origin at once", .needsFixtureServer)
struct CurlConcurrentStartTests {
    @Test func requestsToANewHTTPOriginDoNotWaitForTheFirstAnswer() async throws {
        let transport = CurlTransport()
        let count = 8
        let barrier = UUID().uuidString
        // The server answers none of them until all have arrived.
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await transport.send(fixtureRequest("/connection?barrier=\(barrier)&count=\(count)")).1.statusCode
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: count))
    }
}
