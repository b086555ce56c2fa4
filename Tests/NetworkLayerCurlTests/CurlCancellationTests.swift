import Foundation
import NetworkLayer
import Testing
import TestSupport
import TransportTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import NetworkLayerCurl

/// Cancelling the awaiting task stops the transfer within milliseconds; nothing is reported or
/// written after it. Scripts/test runs this suite on its own, since it measures time.
@Suite("CurlTransport cancellation", .needsFixtureServer, .serialized)
struct CurlCancellationTests {
    private func isCancellation(_ error: any Error) -> Bool {
        (error as? URLError)?.code == .cancelled || error is CancellationError
    }

    @Test(arguments: TestTransport.all)
    func cancellingTheTaskStopsAHangingRequestWithinMilliseconds(_ kind: TestTransport) async throws {
        let transport = kind.make()
        let task = Task { try await transport.send(fixtureRequest("/hang")) }
        try await Task.sleep(nanoseconds: 200_000_000)
        let start = DispatchTime.now()
        task.cancel()
        let result = await task.result
        let elapsed = seconds(since: start)
        guard case .failure(let error) = result else {
            Issue.record("a hanging request returned a response")
            return
        }
        #expect(isCancellation(error), "\(error)")
        #expect(elapsed < TestTiming.bound(0.1), "took \(elapsed) s")
    }

    @Test func theEngineLetsGoOfACancelledTransferAtOnce() async throws {
        let transport = CurlTransport()
        let task = Task { try await transport.send(fixtureRequest("/hang")) }
        let engine = try transport.engine
        #expect(await eventually { engine.activeTransferCount == 1 })
        task.cancel()
        _ = await task.result
        #expect(await eventually(within: TestTiming.bound(0.05)) { engine.activeTransferCount == 0 })
    }

    /// Starting the transfer and stopping it at once is not enough: libcurl's thread had sent
    /// the request by then (seen under AddressSanitizer).
    @Test(arguments: TestTransport.all, ["send", "upload", "download"])
    func aTaskCancelledBeforeSendingSendsNothing(_ kind: TestTransport, _ method: String) async throws {
        let key = "cancelled-first-\(UUID().uuidString)"
        let transport = kind.make()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("never-\(key)")
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            let request = fixtureRequest("/sequence/\(key)", method: method == "upload" ? "POST" : "GET")
            switch method {
            case "upload": return try await transport.upload(request, body: .data(Data("body".utf8)), progress: { _, _ in })
            case "download": return try await transport.download(request, to: file, progress: { _, _ in })
            default: return try await transport.send(request)
            }
        }
        task.cancel()
        guard case .failure(let error) = await task.result else {
            Issue.record("a cancelled task's request was sent")
            return
        }
        #expect(isCancellation(error))
        let (log, _) = try await transport.send(fixtureRequest("/sequence/\(key)/log"))
        #expect((try jsonObject(log)["attempts"] as? [Any])?.isEmpty == true)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func aCancelledDownloadWritesAndReportsNothingAfterTheCancellation() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("drip.bin")
        let progress = ProgressLog()
        let transport = CurlTransport()
        let task = Task { try await transport.download(fixtureRequest("/drip?bytes=4"), to: file, progress: progress.handler) }
        #expect(await eventually(within: 5) { progress.count >= 1 })
        task.cancel()
        _ = await task.result
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
        let events = progress.count
        try await Task.sleep(nanoseconds: 1_500_000_000)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int == size)
        #expect(progress.count == events)
    }

    @Test func cancellingAnUploadMidwayStopsItWithinMilliseconds() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.bin")
        try Data(count: 64 * 1_048_576).write(to: file)
        let progress = ProgressLog()
        let transport = CurlTransport()
        let engine = try transport.engine
        let task = Task { try await transport.upload(fixtureRequest("/upload", method: "PUT"), body: .file(file), progress: progress.handler) }
        #expect(await eventually(within: 5) { progress.count >= 1 })
        let start = DispatchTime.now()
        task.cancel()
        let result = await task.result
        #expect(seconds(since: start) < TestTiming.bound(0.05))
        if case .failure(let error) = result {
            #expect(isCancellation(error))
        }
        #expect(await eventually(within: TestTiming.bound(0.05)) { engine.activeTransferCount == 0 })
        let events = progress.count
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(progress.count == events)
    }
}
