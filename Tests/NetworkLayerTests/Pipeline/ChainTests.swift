import Foundation
import Testing
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which stages a router's chain holds, and that a plain request skips the task.
@Suite("Chain")
struct ChainTests {
    /// Records the Swift task, if any, that each request reached the transport from.
    final class TaskProbe: CallbackTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var sawTask: [Bool] = []

        var observations: [Bool] { lock.lock(); defer { lock.unlock() }; return sawTask }

        func start(_ request: URLRequest, completion: @escaping Completion) -> @Sendable () -> Void {
            let inTask = withUnsafeCurrentTask { $0 != nil }
            lock.lock(); sawTask.append(inTask); lock.unlock()
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
            completion(.success((Data(), .made(response))))
            return {}
        }

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            try await sendThroughCallback(request)
        }
    }

    /// Sends one request from a dispatch queue, outside any Swift task, and waits for it.
    private func sendOutsideATask(_ router: Router<TestEndpoint>) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                router.request(.offline()) { _ in continuation.resume() }
            }
        }
    }

    @Test func aPlainRequestReachesTheTransportWithoutATask() async {
        let probe = TaskProbe()
        let router = Router<TestEndpoint>(transport: probe, callbackQueue: DispatchQueue(label: "tests"))
        await sendOutsideATask(router)
        #expect(probe.observations == [false])
    }

    @Test func aRequestWithAPluginGoesThroughTheChainsTask() async {
        struct Nothing: PluginType {}
        let probe = TaskProbe()
        let router = Router<TestEndpoint>(transport: probe, callbackQueue: DispatchQueue(label: "tests"), plugins: [Nothing()])
        await sendOutsideATask(router)
        #expect(probe.observations == [true])
    }

    @Test func onlyConfiguredStagesMakeTheChainNotPlain() {
        struct Nothing: PluginType {}
        #expect(Chain(plugins: [], retryPolicy: .none, redirects: .follow).isPlain)
        #expect(Chain(plugins: [], retryPolicy: .none, redirects: .doNotFollow).isPlain)
        #expect(!Chain(plugins: [Nothing()], retryPolicy: .none, redirects: .follow).isPlain)
        #expect(!Chain(plugins: [], retryPolicy: RetryPolicy(), redirects: .follow).isPlain)
    }
}
