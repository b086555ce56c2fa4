import Foundation
import NetworkLayer
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import NetworkLayerCurl

/// The engine under the async adapters: event order, exactly-once completion, back-pressure, and
/// the end of its thread with the transport.
@Suite("Curl engine", .needsFixtureServer, .serialized)
struct CurlEngineTests {
    private func start(_ request: URLRequest, on engine: CurlEngine, delegate: RecordingDelegate, body: UploadBody? = nil) throws -> CurlTransferHandle {
        let transfer = try engine.prepare(CurlRequest(request, body: body), delegate: delegate)
        return engine.start(transfer)
    }

    @Test func eventsArriveInOrderAndCompletionOnceAndLast() async throws {
        let transport = CurlTransport()
        let engine = try transport.engine
        let delegate = RecordingDelegate()
        _ = try start(fixtureRequest("/upload", method: "POST"), on: engine, delegate: delegate, body: .data(Data(count: 200_000)))
        #expect(await eventually { delegate.completions == 1 })
        try await Task.sleep(nanoseconds: 200_000_000)
        let events = delegate.all
        #expect(events.last == .complete(nil))
        #expect(delegate.completions == 1)
        let headIndex = try #require(events.firstIndex(of: .head(200)))
        #expect(
            events[..<headIndex].allSatisfy {
                if case .sent = $0 { return true }; return false
            })
        #expect(events.contains(.sent(200_000)))
        withExtendedLifetime(transport) {}
    }

    @Test func aPausedTransferResumesWithEveryByteAndIsNotIdleMeanwhile() async throws {
        let transport = CurlTransport()
        let engine = try transport.engine
        let delegate = RecordingDelegate(pauseFirstChunk: true)
        let handle = try start(fixtureRequest("/bytes/300000", timeout: 0.1), on: engine, delegate: delegate)
        try await Task.sleep(nanoseconds: 400_000_000)
        #expect(delegate.bodyBytes == 0)
        #expect(delegate.completions == 0)
        handle.resumeReceiving()
        #expect(await eventually { delegate.completions == 1 })
        #expect(delegate.all.last == .complete(nil))
        #expect(delegate.bodyBytes == 300_000)
        withExtendedLifetime(transport) {}
    }

    @Test func aCancelledTransferCompletesOnceWithCancelledAndNothingAfter() async throws {
        let transport = CurlTransport()
        let engine = try transport.engine
        let delegate = RecordingDelegate()
        let handle = try start(fixtureRequest("/drip?bytes=3"), on: engine, delegate: delegate)
        #expect(await eventually { delegate.all.contains(.head(200)) })
        handle.cancel()
        handle.cancel()
        #expect(await eventually { delegate.completions == 1 })
        let events = delegate.all
        try await Task.sleep(nanoseconds: 1_500_000_000)
        #expect(delegate.all == events)
        #expect(events.last == .complete(.cancelled))
        withExtendedLifetime(transport) {}
    }

    @Test func releasingTheTransportEndsItsThreadAndCancelsWhatRuns() async throws {
        var transport: CurlTransport? = CurlTransport()
        let engine = try #require(try transport?.engine)
        let delegate = RecordingDelegate()
        _ = try start(fixtureRequest("/hang"), on: engine, delegate: delegate)
        #expect(await eventually { engine.activeTransferCount == 1 })
        transport = nil
        #expect(await eventually(within: TestTiming.bound(0.5)) { engine.hasEnded })
        #expect(delegate.all == [.complete(.cancelled)])
    }

    /// `shutdown()` ends the transport for every copy, cancels what runs and returns only after
    /// the thread has freed everything.
    @Test func shutdownEndsEveryCopyAndReturnsAfterTheThreadHasEnded() async throws {
        let transport = CurlTransport()
        let copy = transport
        let engine = try transport.engine
        let hanging = Task { await urlError { try await copy.send(fixtureRequest("/hang")) } }
        #expect(await eventually { engine.activeTransferCount == 1 })
        await transport.shutdown()
        #expect(engine.hasThreadEnded)
        let cancelled = await hanging.value
        #expect(cancelled?.code == .cancelled)
        #expect(cancelled?.localizedDescription.contains("shut down") == true, "\(String(describing: cancelled))")
        let afterwards = await urlError { try await copy.send(fixtureRequest("/fast")) }
        #expect(afterwards?.code == .cancelled)
        await copy.shutdown()
    }

    @Test func aTransferStartedAfterTheEngineEndedCompletesAtOnceWithCancelled() async throws {
        var transport: CurlTransport? = CurlTransport()
        let engine = try #require(try transport?.engine)
        transport = nil
        #expect(await eventually { engine.hasEnded })
        let delegate = RecordingDelegate()
        _ = try start(fixtureRequest("/fast"), on: engine, delegate: delegate)
        #expect(delegate.all == [.complete(.cancelled)])
    }

    @Test func manyTransportsCreatedAndReleasedLeaveNoThreadOrDescriptor() async throws {
        // One round first: libcurl's global state and the allocator reach their working size.
        for _ in 0..<5 { _ = try await CurlTransport().send(fixtureRequest("/fast")) }
        try await Task.sleep(nanoseconds: 300_000_000)
        let before = try #require(ProcessResources.Snapshot.now())
        for _ in 0..<100 {
            let transport = CurlTransport()
            _ = try await transport.send(fixtureRequest("/fast"))
        }
        #expect(await eventually(within: 5) { (ProcessResources.Snapshot.now()?.threads ?? .max) <= before.threads })
        let after = try #require(ProcessResources.Snapshot.now())
        #expect(after.fileDescriptors <= before.fileDescriptors, "\(before) → \(after)")
        #expect(after.threads <= before.threads, "\(before) → \(after)")
    }
}
