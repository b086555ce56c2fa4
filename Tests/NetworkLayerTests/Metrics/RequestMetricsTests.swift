import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Timing, attempts and bytes, measured by the router for every outcome, over each transport.
@Suite("Request metrics", .needsFixtureServer)
struct RequestMetricsTests {
    /// Keeps the metrics each outcome reached plugins with.
    final class MetricsLog: PluginType, @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [RequestMetrics?] = []
        func didReceive(_ result: Result<Response, NetworkError>, context: RequestContext) {
            lock.withLock { entries.append(context.metrics) }
        }
        var last: RequestMetrics?? { lock.withLock { entries.last } }
    }

    private func router(_ transport: TestTransport, plugins: [any PluginType] = [], retry: RetryPolicy = .none) -> Router<TestEndpoint> {
        Router(transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"), plugins: plugins, retryPolicy: retry)
    }

    @Test(arguments: TestTransport.all)
    func aPlainRequestCarriesItsTimingAndBytes(_ transport: TestTransport) async throws {
        var endpoint = TestEndpoint.fixture("echo", .post)
        endpoint.task = .requestData(Data(repeating: 7, count: 1000), contentType: "application/octet-stream")
        let response = try await router(transport).request(endpoint)
        let metrics = try #require(response.metrics)
        #expect(metrics.attempts == 1)
        #expect(metrics.bytesSent == 1000)
        #expect(metrics.bytesReceived == Int64(response.data.count))
        let firstByte = try #require(metrics.timeToFirstByte)
        #expect(firstByte > 0 && firstByte <= metrics.duration)
        #expect(metrics.redirects == 0)
        #expect(metrics.retryWait == 0)
        #expect(metrics.cacheOutcome == nil)
        // A real time of this run, not 1970 or the distant future; the bound leaves room for
        // the parallel phase, which held a test for 5.7 s on 2 cores (fresh-clone runs, 2026-11-26).
        #expect(abs(metrics.startedAt.timeIntervalSinceNow) < 60)
    }

    @Test(arguments: TestTransport.all)
    func retriesAndTheirWaitAreCounted(_ transport: TestTransport) async throws {
        let response = try await router(transport, retry: RetryPolicy(backoffScale: 0.05, jitter: 0))
            .request(.fixture("sequence/metrics-\(UUID().uuidString)?statuses=503,200"))
        let metrics = try #require(response.metrics)
        #expect(metrics.attempts == 2)
        #expect(metrics.retryWait >= 0.049 && metrics.retryWait < 0.2)
        #expect(metrics.duration >= metrics.retryWait)
    }

    @Test(arguments: TestTransport.all)
    func redirectsAreCountedApart(_ transport: TestTransport) async throws {
        var endpoint = TestEndpoint.fixture("redirect-to")
        endpoint.task = .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["url": "/fast"])
        let metrics = try #require(try await router(transport).request(endpoint).metrics)
        #expect(metrics.redirects == 1)
        #expect(metrics.attempts == 2)
    }

    @Test(arguments: TestTransport.all)
    func aFailureReachesPluginsWithItsMetrics(_ transport: TestTransport) async throws {
        let log = MetricsLog()
        let endpoint = TestEndpoint(baseURL: try #require(URL(string: "http://127.0.0.1:9")), path: "x")
        _ = try? await router(transport, plugins: [log]).request(endpoint)
        let metrics = try #require(log.last ?? nil)
        #expect(metrics.attempts == 1)
        #expect(metrics.timeToFirstByte == nil)
        #expect(metrics.bytesReceived == 0)
    }

    @Test(arguments: TestTransport.all)
    func anUnacceptableStatusKeepsTheMetricsOnItsResponse(_ transport: TestTransport) async throws {
        do {
            _ = try await router(transport).request(.fixture("status/404"))
            Issue.record("expected a 404")
        } catch {
            guard case .unacceptableStatusCode(let response) = error else {
                Issue.record("expected unacceptableStatusCode, got \(error)")
                return
            }
            #expect(response.metrics?.attempts == 1)
        }
    }

    @Test(arguments: TestTransport.all)
    func aDownloadCountsTheBytesWrittenAndItsFirstByte(_ transport: TestTransport) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var endpoint = TestEndpoint.fixture("bytes/300000?seed=metrics", timeout: 30)
        endpoint.task = .download(DownloadDestination(folder.appendingPathComponent("m.bin")))
        let metrics = try #require(try await router(transport).request(endpoint).metrics)
        #expect(metrics.bytesReceived == 300_000)
        let firstByte = try #require(metrics.timeToFirstByte)
        #expect(firstByte < metrics.duration)
    }

    @Test(arguments: TestTransport.all)
    func anUploadCountsTheFileSent(_ transport: TestTransport) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("up.bin")
        try Data(repeating: 1, count: 123_456).write(to: file)
        var endpoint = TestEndpoint.fixture("upload", .post, timeout: 30)
        endpoint.task = .uploadFile(file)
        let metrics = try #require(try await router(transport).request(endpoint).metrics)
        #expect(metrics.bytesSent == 123_456)
    }
}
