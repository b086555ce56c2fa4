import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport of the user's that wraps another by forwarding its one call, as
/// ``HTTPTransport``'s documentation shows, keeps everything the wrapped transport does: a
/// stream's chunks as they arrive, a download written to its file as it comes, an upload's
/// progress as it is sent. When a transport had four methods, the documented wrapper forwarded
/// `send` only: its streams waited for the whole body (an endless one for ever), its downloads
/// were held in memory, and its uploads reported progress once, at the end.
@Suite("A forwarding transport keeps what the wrapped one does", .needsFixtureServer, .serialized)
struct ForwardingTransportTests {
    /// The wrapper of the documentation: it logs, and forwards the one call.
    struct Forwarding: HTTPTransport {
        let base: any HTTPTransport
        let sent = Locked(0)

        func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws
            -> StreamedResponse
        {
            sent.withLock { $0 += 1 }
            return try await base.execute(request, body: body, progress: progress)
        }

        func headersAdded(to request: URLRequest) -> HTTPHeaders? { base.headersAdded(to: request) }
    }

    private func router(_ transport: Forwarding) -> Router<TestEndpoint> {
        Router(transport: transport, callbackQueue: DispatchQueue(label: "forwarding"))
    }

    private func endpoint(_ path: String, _ method: HTTPMethod = .get, task: HTTPTask = .request) -> TestEndpoint {
        var endpoint = TestEndpoint.fixture(path, method, timeout: 60)
        endpoint.task = task
        return endpoint
    }

    @Test(arguments: TestTransport.all)
    func aStreamsFirstChunkComesBeforeTheBodyEnds(_ kind: TestTransport) async throws {
        let transport = Forwarding(base: kind.make())
        // One byte a second, six in all. A stream that waited for the whole body hands it over
        // as one chunk, at once; a streamed one gives the last byte a while after the first.
        // Not an absolute bound: under the parallel suites FoundationNetworking once handed the
        // first byte over after 3.25 s (its one work queue was busy), though it still streamed,
        // and with four bytes it once held three of them back, leaving 0.48 s between the first
        // chunk and the last (fresh-clone run, 2026-11-26): six bytes leave room for such a stall.
        var arrivals: [Double] = []
        let start = DispatchTime.now().uptimeNanoseconds
        var received = 0
        for try await chunk in router(transport).stream(endpoint("drip?bytes=6")) {
            arrivals.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            received += chunk.count
        }
        #expect(received == 6)
        let first = try #require(arrivals.first)
        let last = try #require(arrivals.last)
        #expect(arrivals.count >= 2, "the body came as one chunk after \(first) s")
        #expect(last - first >= 0.5, "the chunks came within \(last - first) s of each other: \(arrivals)")
        #expect(transport.sent.withLock { $0 } == 1)
    }

    @Test(arguments: TestTransport.all)
    func aDownloadGoesToItsFileAsItArrives(_ kind: TestTransport) async throws {
        let transport = Forwarding(base: kind.make())
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("forwarded.bin")
        let size = 8 << 20
        let log = ProgressLog()
        let response = try await router(transport).request(
            endpoint("bytes/\(size)?seed=fw", task: .download(DownloadDestination(file)))
        ) { log.record($0) }
        #expect(response.fileURL == file)
        #expect(response.data.isEmpty)
        #expect(try sha256(ofFile: file) == (try await fixtureDigest(bytes: size, seed: "fw")))
        #expect(log.all.count > 2, "\(log.all.count) progress events")
        #expect(log.isMonotonicAndComplete)
    }

    @Test(arguments: TestTransport.all)
    func anUploadReportsProgressAsItIsSent(_ kind: TestTransport) async throws {
        let transport = Forwarding(base: kind.make())
        let size = 8 << 20
        let log = ProgressLog()
        let response = try await router(transport).request(
            endpoint("upload", .post, task: .uploadData(Data(repeating: 7, count: size), contentType: "application/octet-stream"))
        ) { log.record($0) }
        let echo = try #require(try JSONSerialization.jsonObject(with: response.data) as? [String: Any])
        #expect(echo["size"] as? Int == size)
        #expect(log.all.count > 2, "\(log.all.count) progress events")
        #expect(log.isMonotonicAndComplete)
    }

    /// A transport that keeps bodies up to `limit` bytes, over a stub: no wire.
    struct Limited: HTTPTransport {
        let base: StubTransport
        let maximumResponseSize: Int

        func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws
            -> StreamedResponse
        {
            try await base.execute(request, body: body, progress: progress)
        }
    }

    @Test func aBodyIsKeptUpToTheTransportsOwnLimit() async throws {
        let body = Data(repeating: 1, count: 33 << 20)
        let large = Limited(base: StubTransport(StubResponse(data: body)), maximumResponseSize: 40 << 20)
        let response = try await Router<TestEndpoint>(transport: large, callbackQueue: DispatchQueue(label: "limit"))
            .request(endpoint("large"))
        #expect(response.data.count == body.count)

        let small = Limited(base: StubTransport(StubResponse(data: Data(count: 2048))), maximumResponseSize: 1024)
        do {
            _ = try await Router<TestEndpoint>(transport: small, callbackQueue: DispatchQueue(label: "limit")).request(endpoint("small"))
            Issue.record("a body past the limit was kept")
        } catch NetworkError.responseTooLarge(let limit) {
            #expect(limit == 1024)
        }
    }
}
