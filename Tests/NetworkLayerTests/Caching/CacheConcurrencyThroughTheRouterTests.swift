import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// 1,000 concurrent requests to one cached URL, a random third cancelled: no crash, every
/// completion exactly once, and the cache consistent afterwards; over each transport.
@Suite("Cache under concurrency, through the router", .needsFixtureServer, .serialized, .timeLimit(.minutes(1)))
struct CacheConcurrencyThroughTheRouterTests {
    @Test(arguments: TestTransport.all)
    func aThousandConcurrentRequestsWithRandomCancellations(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let cache = try HTTPCache()
        let router = Router<TestEndpoint>(
            transport: transport.make(), callbackQueue: DispatchQueue(label: "tests", attributes: .concurrent), cache: cache)
        let endpoint = TestEndpoint.fixture("cache/etag/\(key)?max_age=1")
        let counters = (0..<1_000).map { _ in CompletionCounter() }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<1_000 {
                let handle = router.request(endpoint) { counters[index].record($0) }
                if Int.random(in: 0..<3) == 0 {
                    group.addTask {
                        try? await Task.sleep(nanoseconds: UInt64.random(in: 0...5_000_000))
                        handle.cancel()
                    }
                }
            }
        }
        #expect(await eventually(within: 30) { counters.allSatisfy { $0.count >= 1 } })
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(counters.allSatisfy { $0.count == 1 })
        #expect(router.inFlightCount == 0)
        let outcomes = counters.compactMap { $0.first }
        let failures = outcomes.filter {
            if case .failure(let error) = $0, case .cancelled = error { return false }
            return (try? $0.get()) == nil
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        // Consistent: one entry for the URL, and it answers with the resource's current body.
        let fresh = try await router.request(endpoint)
        #expect(fresh.statusCode == 200)
        #expect(try jsonObject(fresh.data)["key"] as? String == key)
        #expect(cache.memoryUsage > 0)
    }
}
