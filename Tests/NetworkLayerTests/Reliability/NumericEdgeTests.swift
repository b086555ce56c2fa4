import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Numbers at their edges, given by a caller, a plugin or a test helper, end no process.
///
/// Found from outside (2026-11-26): each workload below trapped (an arithmetic overflow, or an
/// `Int` made from an infinite or huge `Double`). Each runs in a child process of its own, so
/// that a trap fails its case instead of the run, and one trap hides no other.
@Suite("Numeric edges")
struct NumericEdgeTests {
    @Test(arguments: [
        "timed-out-description", "stub-chunk-lengths", "disk-cache-no-entry-limit", "reconnection-failures",
        "logger-elapsed", "metrics-saturate",
    ])
    func endsNoProcess(workload: String) async throws {
        try await Self.expectCleanRun(workload)
    }

    @Test(.needsFixtureServer) func anUnboundedTimeoutIntervalEndsNoProcess() async throws {
        try await Self.expectCleanRun("timeout-interval")
    }

    private static func expectCleanRun(_ workload: String) async throws {
        let name = workload.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        try await ChildProcess.expectCleanRun(
            workload: workload, filter: "NumericEdgeTests/workload\(name)", timeout: 60, proof: "EDGE: \(workload) done")
    }

    /// `NetworkError.timedOut(after:)` is public: a plugin or a transport may make it with any value.
    @Test(.childWorkload("timed-out-description"))
    func workloadTimedOutDescription() {
        #expect(NetworkError.timedOut(after: .infinity).localizedDescription.contains("inf"))
        #expect(NetworkError.timedOut(after: 1e300).localizedDescription.contains("1e+300"))
        #expect(NetworkError.timedOut(after: 5).localizedDescription.contains("5 s"))
        #expect(NetworkError.timedOut(after: 0.25).localizedDescription.contains("0.25"))
        print("EDGE: timed-out-description done")
    }

    /// `Int.max` as a chunk's length means the rest of the body.
    @Test(.childWorkload("stub-chunk-lengths"))
    func workloadStubChunkLengths() async throws {
        var stub = StubResponse(data: Data("hello".utf8))
        stub.chunkLengths = [1, Int.max]
        let request = URLRequest(url: try #require(URL(string: "https://example.invalid/x")))
        let streamed = try await StubTransport(stub).execute(request, body: nil, progress: { _, _ in })
        var chunks: [Data] = []
        for try await chunk in streamed.body { chunks.append(chunk) }
        #expect(chunks == [Data("h".utf8), Data("ello".utf8)])
        print("EDGE: stub-chunk-lengths done")
    }

    /// `maximumEntrySize: .max` is "no limit".
    @Test(.childWorkload("disk-cache-no-entry-limit"))
    func workloadDiskCacheNoEntryLimit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("numeric-edge-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try HTTPCache(configuration: .init(directory: folder, maximumEntrySize: .max))
        #expect(cache.diskUsage == 0)
        print("EDGE: disk-cache-no-entry-limit done")
    }

    @Test(.childWorkload("reconnection-failures"))
    func workloadReconnectionFailures() {
        for failures in [Int.min, -1, 0, 1, Int.max] {
            let delay = ReconnectionPolicy().reconnectionDelay(retry: nil, consecutiveFailures: failures)
            #expect(delay.isFinite && delay >= 0, "\(failures): \(delay)")
        }
        print("EDGE: reconnection-failures done")
    }

    /// `RequestContext(target:startedAt:)` is the public initialiser for tests: any date.
    @Test(.childWorkload("logger-elapsed"))
    func workloadLoggerElapsed() {
        let lines = Locked<[String]>([])
        let logger = NetworkLoggerPlugin(sink: { line in lines.withLock { $0.append(line) } })
        for date in [Date(timeIntervalSince1970: -1e300), .distantPast, Date()] {
            logger.didReceive(.failure(.cancelled), context: RequestContext(target: TestEndpoint.offline("x"), startedAt: date))
        }
        #expect(lines.withLock { $0.count } == 3)
        print("EDGE: logger-elapsed done")
    }

    /// An upload of a sparse file of 2⁶³ − 1 bytes (tmpfs stores none of them), sent twice: a
    /// retry of the server's early 503. The bytes sent stop at `Int64.max`.
    @Test(.childWorkload("metrics-saturate"))
    func workloadMetricsSaturate() async throws {
        #if os(Linux)
        let file = URL(fileURLWithPath: "/dev/shm/networklayer-sparse-\(UUID().uuidString)")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(Int64.max))
        try handle.close()
        let router = Router<TestEndpoint>(
            transport: EarlyAnswer(), callbackQueue: DispatchQueue(label: "tests"),
            retryPolicy: RetryPolicy(retryLimit: 1, backoffScale: 0, jitter: 0))
        let refused = await #expect(throws: NetworkError.self) {
            try await router.request(TestEndpoint.offline("up", .put, task: .uploadFile(file)))
        }
        guard case .unacceptableStatusCode(let response) = refused else {
            Issue.record("\(String(describing: refused))")
            return
        }
        #expect(response.metrics?.attempts == 2)
        #expect(response.metrics?.bytesSent == .max)
        #endif
        print("EDGE: metrics-saturate done")
    }

    /// A plugin's "no idle timeout" (`timeoutInterval = .infinity`) and a caller's own request
    /// with NaN or ±1e300 reach the server: FoundationNetworking trapped on each (the negative
    /// ones were found after the first fix, which bounded only from above).
    @Test(.childWorkload("timeout-interval"))
    func workloadTimeoutInterval() async throws {
        struct NoIdleTimeout: PluginType {
            func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                var request = request
                request.timeoutInterval = .infinity
                return request
            }
        }
        let router = Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "tests"), plugins: [NoIdleTimeout()])
        #expect(try await router.request(.fixture("status/200")).statusCode == 200)
        let url = try #require(TestServers.fixture?.appendingPathComponent("status/200"))
        for interval in [TimeInterval.infinity, .nan, 1e300, -.infinity, -1e300, -1e17] {
            var request = URLRequest(url: url)
            request.timeoutInterval = interval
            #expect(try await URLSessionTransport().send(request).1.statusCode == 200)
            #expect(try await URLSessionTransport().execute(request, body: nil, progress: { _, _ in }).response.statusCode == 200)
        }
        print("EDGE: timeout-interval done")
    }
}

/// A server that answers 503 at once, without reading the body.
private struct EarlyAnswer: HTTPTransport {
    func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws -> StreamedResponse {
        let url = request.url ?? URL(fileURLWithPath: "/")
        guard let response = HTTPURLResponse(url: url, statusCode: 503, httpVersion: "HTTP/1.1", headerFields: [:]) else {
            throw URLError(.badServerResponse)
        }
        return StreamedResponse(response: response, body: BodyStream(Data()))
    }
}
