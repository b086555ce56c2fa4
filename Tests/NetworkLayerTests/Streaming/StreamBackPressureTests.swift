import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A reader slower than the server: libcurl is paused, so memory stays flat; FoundationNetworking
/// cannot pause, so the stream fails at ``BodyStream/hardLimit`` behind instead of growing the
/// process. Each workload runs in a child process: its memory is its own, and a stream URLSession
/// could not stop keeps Foundation's work queue busy for seconds after.
@Suite("Streaming back-pressure", .needsStreamServer, .timeLimit(.minutes(2)))
struct StreamBackPressureTests {
    @Test(arguments: TestTransport.all)
    func aSlowReaderDoesNotGrowTheProcess(_ transport: TestTransport) async throws {
        try await ChildProcess.expectCleanRun(
            workload: "slow-reader-\(transport)", filter: "StreamBackPressureTests/slowReaderWorkload", timeout: 100,
            proof: "BACKPRESSURE: done")
    }

    @Test(.enabled(if: ChildProcess.requestedWorkload?.hasPrefix("slow-reader-") == true, "runs in a child process only"))
    func slowReaderWorkload() async throws {
        let transport = try #require(TestTransport(rawValue: String(ChildProcess.requestedWorkload?.dropFirst("slow-reader-".count) ?? "")))
        let router = RouterStreamTests.router(transport)
        let before = try #require(ProcessResources.Snapshot.now())
        var received = 0
        var outcome: NetworkError?
        var sincePause = 0
        do {
            // 200 MiB of events, read at most about 60 MiB/s: several times slower than the server.
            for try await chunk in router.stream(RouterStreamTests.endpoint("sse/endless?events=200000&size=1024")) {
                received += chunk.count
                sincePause += chunk.count
                if sincePause >= 64 << 10 {
                    sincePause = 0
                    try? await Task.sleep(nanoseconds: 1_000_000)
                }
            }
        } catch {
            outcome = error
        }
        let after = try #require(ProcessResources.Snapshot.now())
        let growth = Double(after.residentBytes - before.residentBytes) / 1_048_576
        print(
            "BACKPRESSURE: \(transport): \(received >> 20) MiB read, RSS +\(String(format: "%.1f", growth)) MiB, \(outcome.map { "\($0)" } ?? "read to the end")"
        )
        switch transport {
        case .curl:
            #expect(outcome == nil)
            #expect(received > 200_000 * 1024)
            #expect(growth < 32, "RSS grew \(growth) MiB")
        case .urlSession:
            guard case .stream(.consumerTooSlow(let behind))? = outcome else {
                Issue.record("expected consumerTooSlow, got \(String(describing: outcome))")
                return
            }
            #expect(behind > BodyStream.hardLimit)
            #expect(growth < Double(BodyStream.hardLimit >> 20) + 64, "RSS grew \(growth) MiB")
        }
        print("BACKPRESSURE: done")
    }
}
