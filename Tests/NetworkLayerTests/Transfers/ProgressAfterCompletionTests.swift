import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The completion of `request(_:progress:completion:)` is its last callback. A transport's
/// progress event decided just before a cancellation stopped it reached the callback queue
/// after the completion: 1 of 12 cancelled downloads in the fresh-clone run at 0d0b255
/// (`CombinedFeaturesTests`). This transport makes that timing certain: it reports progress
/// once the cancelled request's completion has run.
@Suite("No progress event after the completion")
struct ProgressAfterCompletionTests {
    private struct LateReportingTransport: HTTPTransport {
        /// Set once the first event is reported: the request is cancelled then.
        let started = Locked(false)
        /// Signalled by the test's completion; the second event is reported after it.
        let completed = DispatchSemaphore(value: 0)
        /// Set once the second event was handed to the router.
        let reportedLate = Locked(false)

        func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws
            -> StreamedResponse
        {
            progress(1, 4)
            started.withLock { $0 = true }
            DispatchQueue.global().async { [completed, reportedLate] in
                completed.wait()
                progress(2, 4)
                reportedLate.withLock { $0 = true }
            }
            try await Task.sleep(nanoseconds: 3_600_000_000_000)
            return try .answering(request, status: 200)
        }
    }

    @Test func anEventThatArrivesAfterACancellationsCompletionIsNotHandedOver() async throws {
        let transport = LateReportingTransport()
        let queue = DispatchQueue(label: "tests")
        let router = Router<TestEndpoint>(transport: transport, callbackQueue: queue)
        let completed = Locked(false)
        let events = Locked<[TransferProgress]>([])
        let late = Locked(0)
        let handle = router.request(.offline("upload", .post, task: .uploadData(Data(count: 4)))) { event in
            events.withLock { $0.append(event) }
            if completed.withLock({ $0 }) { late.withLock { $0 += 1 } }
        } completion: { _ in
            completed.withLock { $0 = true }
            transport.completed.signal()
        }
        #expect(await eventually { transport.started.withLock { $0 } })
        handle.cancel()
        #expect(await eventually { transport.reportedLate.withLock { $0 } })
        // Whatever the late event put on the callback queue has run once this returns.
        queue.sync {}
        #expect(events.withLock { $0.first?.completedBytes } == 1, "the transport's first event: the test ran nothing")
        #expect(late.withLock { $0 } == 0, "events after the completion: \(events.withLock { $0 })")
    }
}
