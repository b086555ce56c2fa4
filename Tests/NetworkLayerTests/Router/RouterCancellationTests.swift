import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The three ways to cancel, each on httpbin's /delay/5 after 200 ms: the caller gets
/// `.cancelled` at once, the completion runs exactly once, and the router forgets the request,
/// over each transport.
@Suite("Cancellation", .needsHTTPBin)
struct RouterCancellationTests {
    let slow = TestEndpoint.httpbin("delay/5")

    @Test(arguments: TestTransport.all)
    func cancellingTheHandle(_ transport: TestTransport) async throws {
        let router = transport.router()
        let counter = CompletionCounter()
        let handle = router.request(slow) { counter.record($0) }
        try await Task.sleep(nanoseconds: 200_000_000)
        let cancelled = Date()
        handle.cancel()
        #expect(await eventually { counter.count == 1 })
        #expect(Date().timeIntervalSince(cancelled) < TestTiming.bound(0.1))
        #expect(counter.first?.isCancelled == true)
        #expect(handle.isCancelled)
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(counter.count == 1)
        #expect(router.inFlightCount == 0)
    }

    @Test(arguments: TestTransport.all)
    func cancellingTheRouter(_ transport: TestTransport) async throws {
        let router = transport.router()
        let counters = (0..<3).map { _ in CompletionCounter() }
        for counter in counters {
            router.request(slow) { counter.record($0) }
        }
        try await Task.sleep(nanoseconds: 200_000_000)
        let cancelled = Date()
        router.cancel()
        #expect(await eventually { counters.allSatisfy { $0.count == 1 } })
        #expect(Date().timeIntervalSince(cancelled) < TestTiming.bound(0.1))
        #expect(counters.allSatisfy { $0.first?.isCancelled == true })
        #expect(router.inFlightCount == 0)
    }

    @Test(arguments: TestTransport.all)
    func cancellingTheAwaitingTask(_ transport: TestTransport) async throws {
        let router = transport.router()
        let slow = self.slow
        let task = Task { () -> (Result<Response, NetworkError>, Date) in
            do {
                return (.success(try await router.request(slow)), Date())
            } catch {
                return (.failure(error as? NetworkError ?? .underlying(error)), Date())
            }
        }
        try await Task.sleep(nanoseconds: 200_000_000)
        let cancelled = Date()
        task.cancel()
        let (result, finished) = await task.value
        #expect(result.isCancelled)
        #expect(finished.timeIntervalSince(cancelled) < TestTiming.bound(0.1))
        #expect(router.inFlightCount == 0)
    }

    @Test(arguments: TestTransport.all)
    func anAlreadyCancelledTaskSendsNothing(_ transport: TestTransport) async throws {
        let router = transport.router()
        let task = Task { () -> Result<Response, NetworkError> in
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                return .success(try await router.request(.httpbin("get")))
            } catch {
                return .failure(error as? NetworkError ?? .underlying(error))
            }
        }
        #expect(await task.value.isCancelled)
        #expect(router.inFlightCount == 0)
    }

    @Test(arguments: TestTransport.all)
    func cancellingAfterCompletionChangesNothing(_ transport: TestTransport) async throws {
        let router = transport.router()
        let counter = CompletionCounter()
        let handle = router.request(.httpbin("get")) { counter.record($0) }
        #expect(await eventually { counter.count == 1 })
        handle.cancel()
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(counter.count == 1)
        #expect((try? counter.first?.get())?.statusCode == 200)
    }

    @Test(arguments: TestTransport.all)
    func cancellingTwiceCompletesOnce(_ transport: TestTransport) async throws {
        let router = transport.router()
        let counter = CompletionCounter()
        let handle = router.request(slow) { counter.record($0) }
        handle.cancel()
        handle.cancel()
        router.cancel()
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(counter.count == 1)
    }
}
