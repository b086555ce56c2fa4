// Code of the DocC article "Caching, Shared Transfers and Metrics"; see GettingStartedSnippets.swift.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkLayer

// snippet.start latency-plugin
struct LatencyPlugin: PluginType {
    /// Whatever your metrics system offers: a StatsD client, swift-metrics, a log line.
    let record: @Sendable (_ name: String, _ milliseconds: Double, _ tags: [String: String]) -> Void

    func didReceive(_ result: Result<Response, NetworkError>, context: RequestContext) {
        guard let metrics = context.metrics else { return }
        let status = (try? result.get()).map { String($0.statusCode) } ?? "failed"
        let tags = [
            "endpoint": "\(type(of: context.target))",
            "status": status,
            "cache": metrics.cacheOutcome?.rawValue ?? "none",
            "attempts": String(metrics.attempts),
        ]
        record("http.request", metrics.duration * 1_000, tags)
    }
}
// snippet.end

enum CachingAndMetricsSnippets {
    static func cache() async throws {
        // snippet.start router-cache
        let caches = FileManager.default.temporaryDirectory.appendingPathComponent("lists-cache")
        let cache = try HTTPCache(configuration: .init(memoryCapacity: 4 << 20, directory: caches, diskCapacity: 64 << 20))
        let router = Router<ListApi>(cache: cache)

        let response = try await router.request(.lists(page: 1))
        switch response.cacheOutcome {
        case .hit, .staleHit: print("from the cache, nothing sent")
        case .revalidated: print("a 304 confirmed the stored copy")
        case .network: print("from the server")
        }
        // snippet.end
    }

    static func sharing() async throws {
        // snippet.start shared-transfers
        let router = Router<ListApi>(deduplicatesRequests: true)
        async let first = router.request(.lists(page: 1))
        async let second = router.request(.lists(page: 1))
        let pages = try await [first, second]
        print(pages.filter { $0.metrics?.sharedTransfer == true }.count)  // 1: one joined the other
        // snippet.end
    }
}
