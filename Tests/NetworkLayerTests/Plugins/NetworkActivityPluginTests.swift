import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Records each request's changes in order, by request id.
final class ActivityLog: Sendable {
    private let changes = Locked<[UInt64: [NetworkActivityPlugin.Change]]>([:])
    func record(_ change: NetworkActivityPlugin.Change, _ context: RequestContext) {
        changes.withLock { $0[context.id, default: []].append(change) }
    }
    var byRequest: [UInt64: [NetworkActivityPlugin.Change]] { changes.withLock { $0 } }
}

/// Began and ended exactly once per request, whatever its outcome, so that a spinner's count
/// of requests in flight always comes back to zero.
@Suite("Network activity plugin")
struct NetworkActivityPluginTests {
    private func makeRouter(
        _ log: ActivityLog, retryPolicy: RetryPolicy = .none, transport: any HTTPTransport = URLSessionTransport()
    ) -> (Router<TestEndpoint>, NetworkActivityPlugin) {
        let plugin = NetworkActivityPlugin { change, context in log.record(change, context) }
        let router = Router<TestEndpoint>(
            transport: transport, callbackQueue: DispatchQueue(label: "activity-tests"), plugins: [plugin], retryPolicy: retryPolicy)
        return (router, plugin)
    }

    @Test(.needsHTTPBin) func aSuccessfulRequestBeginsAndEndsOnce() async throws {
        let log = ActivityLog()
        let (router, plugin) = makeRouter(log)
        _ = try await router.request(.httpbin("get"))
        #expect(Array(log.byRequest.values) == [[.began, .ended]])
        #expect(plugin.requestsInFlight == 0)
    }

    @Test(.needsFixtureServer) func retriesBeginAndEndOnceInAll() async throws {
        let log = ActivityLog()
        let (router, plugin) = makeRouter(log, retryPolicy: RetryPolicy(backoffScale: 0.01, jitter: 0))
        let response = try await router.request(.fixture("sequence/activity-\(UUID().uuidString)?statuses=503,503,200"))
        #expect(response.statusCode == 200)
        #expect(Array(log.byRequest.values) == [[.began, .ended]])
        #expect(plugin.requestsInFlight == 0)
    }

    @Test func aRequestThatCannotBeBuiltBeginsAndEndsAtOnce() async throws {
        let log = ActivityLog()
        let (router, plugin) = makeRouter(log, transport: StubTransport(StubResponse()))
        await #expect(throws: NetworkError.self) { try await router.request(.offline(headers: ["Bad\r\nName": "x"])) }
        #expect(Array(log.byRequest.values) == [[.began, .ended]])
        #expect(plugin.requestsInFlight == 0)
    }

    @Test(.needsFixtureServer) func aCancelledRequestEnds() async throws {
        let log = ActivityLog()
        let (router, plugin) = makeRouter(log)
        let started = Locked(false)
        let handle = router.request(.fixture("hang"), completion: { _ in started.withLock { $0 = true } })
        #expect(await eventually { plugin.requestsInFlight == 1 })
        handle.cancel()
        #expect(await eventually { started.withLock { $0 } })
        #expect(Array(log.byRequest.values) == [[.began, .ended]])
        #expect(plugin.requestsInFlight == 0)
    }

    @Test(.needsFixtureServer) func aRequestPastItsDeadlineEnds() async throws {
        let log = ActivityLog()
        let (router, plugin) = makeRouter(log)
        await #expect(throws: NetworkError.self) { try await router.request(.fixture("hang", timeout: 0.2)) }
        #expect(Array(log.byRequest.values) == [[.began, .ended]])
        #expect(plugin.requestsInFlight == 0)
    }

    @Test func oneActivityPluginCountsTheRequestsOfSeveralRouters() async throws {
        let log = ActivityLog()
        let plugin = NetworkActivityPlugin { change, context in log.record(change, context) }
        // Held until the test has seen both in flight: a fixed delay let one request end before
        // the other began on a loaded machine (CI, stop 42), and the count never reached 2.
        let released = Locked(false)
        let held = StubTransport { _ in
            while !released.withLock({ $0 }) { try await Task.sleep(nanoseconds: 2_000_000) }
            return StubResponse()
        }
        let first = Router<TestEndpoint>(transport: held, callbackQueue: DispatchQueue(label: "a"), plugins: [plugin])
        let second = Router<TestEndpoint>(transport: held, callbackQueue: DispatchQueue(label: "b"), plugins: [plugin])
        async let one = first.request(.offline())
        async let two = second.request(.offline())
        #expect(await eventually(within: 30) { plugin.requestsInFlight == 2 })
        released.withLock { $0 = true }
        _ = try await (one, two)
        #expect(plugin.requestsInFlight == 0)
    }
}

/// Thousands of requests cancelled at random moments: a bulk suite, which Scripts/test runs on
/// its own (and again under ThreadSanitizer).
@Suite("Network activity under random cancellations")
struct NetworkActivityRaceTests {
    /// Cancellations at random moments, while plugins may be preparing or telling `willSend`:
    /// without the handle holding a cancellation back until `willSend` returns, `ended` could
    /// come before `began` and the count would stay above zero.
    @Test func randomCancellationsNeverEndBeforeTheyBeginOrLeaveACount() async throws {
        struct Slow: PluginType {
            func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                if Bool.random() { await Task.yield() }
                return request
            }
            func willSend(_ request: URLRequest, context: RequestContext) {
                if context.id % 3 == 0 { usleep(50) }
            }
        }
        let log = ActivityLog()
        let plugin = NetworkActivityPlugin { change, context in log.record(change, context) }
        let router = Router<TestEndpoint>(
            transport: StubTransport(StubResponse(), delay: 0.001), callbackQueue: DispatchQueue(label: "activity-stress"),
            plugins: [Slow(), plugin])
        let finished = CompletionCounter()
        let total = 2_000
        for index in 0..<total {
            let handle = router.request(.offline(), completion: { finished.record($0) })
            if index % 2 == 0 {
                if index % 4 == 0 { await Task.yield() }
                handle.cancel()
            }
        }
        #expect(await eventually(within: 30) { finished.count == total })
        let changes = log.byRequest
        #expect(changes.count == total)
        #expect(changes.values.allSatisfy { $0 == [.began, .ended] })
        #expect(plugin.requestsInFlight == 0)
    }
}
