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
/// 50 ms after it started, by when the request was cancelled.
@Suite("No progress event after the completion")
struct ProgressAfterCompletionTests {
    private struct LateReportingTransport: HTTPTransport {
        func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws
            -> StreamedResponse
        {
            progress(1, 4)
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { progress(2, 4) }
            try await Task.sleep(nanoseconds: 10_000_000_000)
            return try .answering(request, status: 200)
        }
    }

    @Test func anEventThatArrivesAfterACancellationsCompletionIsNotHandedOver() async throws {
        let router = Router<TestEndpoint>(transport: LateReportingTransport(), callbackQueue: DispatchQueue(label: "tests"))
        let completed = Locked(false)
        let events = Locked<[TransferProgress]>([])
        let late = Locked(0)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let handle = router.request(.offline("upload", .post, task: .uploadData(Data(count: 4)))) { event in
                events.withLock { $0.append(event) }
                if completed.withLock({ $0 }) { late.withLock { $0 += 1 } }
            } completion: { _ in
                completed.withLock { $0 = true }
                done.resume()
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { handle.cancel() }
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(events.withLock { $0.first?.completedBytes } == 1, "the transport's first event: the test ran nothing")
        #expect(late.withLock { $0 } == 0, "events after the completion: \(events.withLock { $0 })")
    }
}
