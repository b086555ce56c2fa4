import Foundation
import NetworkLayer
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import NetworkLayerCurl

/// The engine reuses the easy handles of finished transfers (libcurl's advice; a new one cost
/// 4 allocations and about 5.5 KB a request), keeps a bounded number of them, and a reused handle
/// carries nothing of its last transfer into the next.
@Suite("CurlTransport reuses its easy handles", .needsFixtureServer, .serialized)
struct CurlHandleReuseTests {
    @Test func requestsOneAfterAnotherShareOneHandle() async throws {
        let transport = CurlTransport()
        let engine = try transport.engine
        for _ in 0..<5 {
            let (_, response) = try await transport.send(fixtureRequest("/fast"))
            #expect(response.statusCode == 200)
        }
        #expect(engine.idleHandleCount == 1)
    }

    @Test func manyAtOnceKeepAtMostTheLimit() async throws {
        let transport = CurlTransport()
        let engine = try transport.engine
        // None answered until all have arrived: they are in flight at once, each on a handle.
        let count = CurlEngine.idleHandleLimit + 8
        let barrier = UUID().uuidString
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask { try await transport.send(fixtureRequest("/connection?barrier=\(barrier)&count=\(count)")).1.statusCode }
            }
            for try await status in group { #expect(status == 200) }
        }
        #expect(engine.idleHandleCount > 1)
        #expect(engine.idleHandleCount <= CurlEngine.idleHandleLimit)
    }

    @Test func aReusedHandleCarriesNothingOfItsLastTransfer() async throws {
        let transport = CurlTransport()
        var first = fixtureRequest("/echo", method: "PUT", body: Data("first body".utf8))
        first.setValue("only-the-first", forHTTPHeaderField: "X-First")
        first.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        _ = try await transport.send(first)
        #expect(try transport.engine.idleHandleCount == 1)

        let (data, _) = try await transport.send(fixtureRequest("/echo"))
        let echo = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let headers = try #require(echo["headers"] as? [String: String])
        #expect(echo["method"] as? String == "GET")
        #expect(echo["body_size"] as? Int == 0)
        #expect(headers["x-first"] == nil)
        #expect(headers["content-type"] == nil)
    }
}
