import Foundation
import NetworkLayer
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import NetworkLayerCurl

/// A streamed body's back-pressure: the pause that a full buffer asks for must take effect before
/// the reader can ask to resume. Sent to the engine as a command, it could arrive after the
/// reader's resumption, which the engine then ignored, and the transfer stayed paused for ever
/// (a paused transfer has no idle timeout): a 3 MB download hung a ThreadSanitizer run of
/// `CurlTransferTests` for 13 minutes (2026-11-26).
@Suite("Curl stream pause", .serialized)
struct CurlStreamPauseTests {
    /// The chunk that fills the buffer past its high-water mark is taken and pauses the transfer
    /// there and then; the ones before it go on.
    @Test func theChunkThatFillsTheBufferPausesAtOnce() {
        let call = CurlStreamCall(url: URL(string: "http://127.0.0.1/x")!)
        let chunk = [UInt8](repeating: 7, count: 64 * 1024)
        var dispositions: [CurlDisposition] = []
        var written = 0
        while written <= BodyStream.highWaterMark {
            dispositions.append(chunk.withUnsafeBytes { call.transferDidReceive(body: $0) })
            written += chunk.count
        }
        #expect(dispositions.dropLast().allSatisfy { $0 == .proceed })
        #expect(dispositions.last == .takeAndPause)
    }

    /// A transfer paused by ``CurlDisposition/takeAndPause`` delivers nothing more until it is
    /// resumed, then the rest, and the chunk it took is not delivered again.
    @Test(.needsFixtureServer) func takeAndPauseHoldsTheRestUntilResumed() async throws {
        let transport = CurlTransport()
        let engine = try transport.engine
        let delegate = ResumingWhilePausing(resumesWhilePausing: false)
        let transfer = try engine.prepare(CurlRequest(fixtureRequest("/bytes/300000")), delegate: delegate)
        let handle = engine.start(transfer)
        delegate.handle.withLock { $0 = handle }
        #expect(await eventually { delegate.bodyBytes.withLock { $0 } > 0 })
        let taken = delegate.bodyBytes.withLock { $0 }
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(delegate.bodyBytes.withLock { $0 } == taken)
        #expect(!delegate.outcome.withLock { $0.isComplete })
        handle.resumeReceiving()
        #expect(await eventually { delegate.outcome.withLock { $0.isComplete } })
        #expect(delegate.bodyBytes.withLock { $0 } == 300_000)
        withExtendedLifetime(transport) {}
    }

    /// The race itself, forced: the reader's resumption is sent while the body callback that
    /// paused is still running. The transfer must still deliver every byte.
    @Test(.needsFixtureServer) func aResumptionSentDuringThePausingCallbackStillResumes() async throws {
        let transport = CurlTransport()
        let engine = try transport.engine
        let delegate = ResumingWhilePausing(resumesWhilePausing: true)
        let transfer = try engine.prepare(CurlRequest(fixtureRequest("/bytes/300000")), delegate: delegate)
        delegate.handle.withLock { $0 = engine.start(transfer) }
        #expect(await eventually { delegate.outcome.withLock { $0.isComplete } })
        #expect(delegate.outcome.withLock { $0.error } == nil)
        #expect(delegate.bodyBytes.withLock { $0 } == 300_000)
        withExtendedLifetime(transport) {}
    }
}

/// Pauses at the first chunk with ``CurlDisposition/takeAndPause``; when `resumesWhilePausing`,
/// before returning it has another thread send the resumption, as a reader that drained the
/// buffer at that moment would.
private final class ResumingWhilePausing: CurlTransferDelegate, Sendable {
    let resumesWhilePausing: Bool
    let handle = Locked<CurlTransferHandle?>(nil)
    let bodyBytes = Locked(0)
    let outcome = Locked<(isComplete: Bool, error: URLError?)>((false, nil))
    private let paused = Locked(false)

    init(resumesWhilePausing: Bool) {
        self.resumesWhilePausing = resumesWhilePausing
    }

    func transferDidReceive(head: ResponseHead) -> CurlDisposition { .proceed }

    func transferDidReceive(body: UnsafeRawBufferPointer) -> CurlDisposition {
        bodyBytes.withLock { $0 += body.count }
        guard !paused.withLock({ $0 }) else { return .proceed }
        paused.withLock { $0 = true }
        guard resumesWhilePausing else { return .takeAndPause }
        let sent = DispatchSemaphore(value: 0)
        let handle = handle
        Thread.detachNewThread {
            // The handle is set just after the transfer starts; the first chunk cannot come sooner
            // than a round trip, but wait for it rather than assume.
            while handle.withLock({ $0 }) == nil { usleep(1_000) }
            handle.withLock { $0 }?.resumeReceiving()
            sent.signal()
        }
        sent.wait()
        return .takeAndPause
    }

    func transferDidSend(_ sent: Int64, of total: Int64) {}

    func transferDidComplete(error: URLError?) {
        outcome.withLock { $0 = (true, error) }
    }
}
