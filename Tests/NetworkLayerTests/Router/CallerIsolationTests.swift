import Foundation
import Testing
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `async` entry points run on the caller's actor (issue 26): from the main actor, a
/// request is started on the main queue and an answer that is ready at once needs no other
/// thread. (On Linux a test process's main queue is drained by a worker thread, so the probe
/// asks Dispatch for the current queue rather than for the main thread.) Before, `request` was a nonisolated `async` function: it left the main actor for the
/// global executor and came back, two thread switches and about 50 µs per stubbed request
/// (`Scripts/bench main-actor`).
@Suite("Caller's isolation")
struct CallerIsolationTests {
    /// Marks the main queue, so that code can tell whether it runs on it.
    static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Records whether each request reached it on the main queue, and answers at once.
    final class ThreadProbe: CallbackTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var onMain: [Bool] = []

        var observations: [Bool] { lock.withLock { onMain } }

        func start(_ request: URLRequest, completion: @escaping Completion) -> @Sendable () -> Void {
            let isMain = DispatchQueue.getSpecific(key: CallerIsolationTests.mainQueueKey) == true
            lock.withLock { onMain.append(isMain) }
            guard let url = request.url, let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)
            else {
                completion(.failure(URLError(.badURL)))
                return {}
            }
            completion(.success((Data(#"{"id":7}"#.utf8), .made(response))))
            return {}
        }

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            try await sendThroughCallback(request)
        }
    }

    struct Model: Decodable, Sendable { let id: Int }

    @MainActor
    @Test func aRequestFromTheMainActorStartsOnTheMainQueue() async throws {
        let key = Self.mainQueueKey
        #expect(DispatchQueue.getSpecific(key: key) == true, "the test itself runs on the main queue")
        let probe = ThreadProbe()
        let router = Router<TestEndpoint>(transport: probe, callbackQueue: DispatchQueue(label: "tests"))
        let model = try await router.request(.offline(), as: Model.self)
        #expect(model.id == 7)
        let manager = NetworkManager(router: router)
        let managed = await manager.request(.offline(), as: Model.self)
        #expect((try? managed.get())?.id == 7)
        #expect(probe.observations == [true, true])
    }

    @MainActor
    @Test func cancellingAMainActorCallerStillEndsItsRequest() async {
        // A transport that never answers until cancelled: the caller's cancellation must reach
        // it although the request was started on the main actor.
        let router = Router<TestEndpoint>(transport: StubTransport(StubResponse(), delay: 3600), callbackQueue: DispatchQueue(label: "tests"))
        let task = Task { @MainActor () -> Result<Response, NetworkError> in
            do throws(NetworkError) {
                return .success(try await router.request(.offline()))
            } catch {
                return .failure(error)
            }
        }
        try? await Task.sleep(nanoseconds: 50_000_000)
        let cancelled = Date()
        task.cancel()
        let result = await task.value
        // Far below the stub's hour, and wide: the main actor may be held back for seconds
        // beside the other suites.
        #expect(Date().timeIntervalSince(cancelled) < 30)
        guard case .failure(.cancelled) = result else {
            Issue.record("expected NetworkError.cancelled, got \(result)")
            return
        }
    }
}
