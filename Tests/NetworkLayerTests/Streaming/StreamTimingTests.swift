import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A stream's idle timeout and deadline, and how fast each way of stopping it stops the
/// transfer. Measures time: runs on its own (Scripts/test).
@Suite("Streaming timing", .needsStreamServer, .serialized)
struct StreamTimingTests {
    private func failure(of stream: ResponseStream) async -> (error: NetworkError?, seconds: TimeInterval) {
        let started = Date()
        do {
            for try await _ in stream {}
            return (nil, Date().timeIntervalSince(started))
        } catch {
            return (error, Date().timeIntervalSince(started))
        }
    }

    @Test(arguments: TestTransport.all)
    func aStreamThatGoesQuietTimesOutAfterItsIdleTimeout(_ transport: TestTransport) async throws {
        let stream = RouterStreamTests.router(transport).stream(
            RouterStreamTests.endpoint("sse/stall"), options: StreamOptions(idleTimeout: 0.5))
        let (error, seconds) = await failure(of: stream)
        guard case .timedOut(let after)? = error else {
            Issue.record("expected timedOut, got \(String(describing: error))")
            return
        }
        #expect(after == 0.5)
        #expect(seconds >= 0.45 && seconds < TestTiming.bound(1.5), "took \(seconds) s")
    }

    @Test(arguments: TestTransport.all)
    func aBusyStreamStopsAtItsDeadline(_ transport: TestTransport) async throws {
        let stream = RouterStreamTests.router(transport).stream(
            RouterStreamTests.endpoint("sse/sample?chunk=1&delay_ms=50"), options: StreamOptions(idleTimeout: 5, deadline: 0.5))
        let (error, seconds) = await failure(of: stream)
        guard case .timedOut(let after)? = error else {
            Issue.record("expected timedOut, got \(String(describing: error))")
            return
        }
        #expect(after == 0.5)
        #expect(seconds >= 0.45 && seconds < TestTiming.bound(1.5), "took \(seconds) s")
    }

    /// A task waiting for a stream's head, from a server that never answers, is cancelled as a
    /// reader of its body is: the wait ended only at the idle timeout, with `.timedOut`, and
    /// without one only by `router.cancel()` (found from outside, 2026-11-26). Both ways in: the
    /// stream's `response()` and an event stream.
    @Test(arguments: TestTransport.all, [false, true])
    func cancellingATaskThatWaitsForTheHeadStopsTheStream(_ transport: TestTransport, events: Bool) async throws {
        let router = RouterStreamTests.router(transport)
        let silent = TestEndpoint(baseURL: try #require(TestServers.fixture), path: "hang")
        let options = StreamOptions(idleTimeout: 8)
        let waiting = Task { () -> (any Error)? in
            do {
                if events {
                    for try await _ in router.events(silent, options: options) {}
                } else {
                    _ = try await router.stream(silent, options: options).response()
                }
                return nil
            } catch {
                return error
            }
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        let cancelled = Date()
        waiting.cancel()
        let error = await waiting.value
        let took = Date().timeIntervalSince(cancelled)
        guard case .cancelled? = error as? NetworkError else {
            Issue.record("expected cancelled, got \(String(describing: error))")
            return
        }
        #expect(took < TestTiming.bound(0.5), "took \(took) s")
        #expect(await eventually(within: 2) { router.inFlightCount == 0 })
    }

    enum Stop: String, CaseIterable, Sendable {
        case handle, router, task, breakingTheLoop
    }

    /// On a stream that has gone quiet (`/sse/stall`): a stream arriving at full speed keeps
    /// FoundationNetworking's work queue so busy that its `cancel()` can wait seconds
    /// (``URLSessionTransport/stream(_:)``); the reader is freed at once either way.
    @Test(arguments: TestTransport.all, Stop.allCases)
    func everyWayOfStoppingStopsTheStreamWithin100ms(_ transport: TestTransport, _ stop: Stop) async throws {
        let router = RouterStreamTests.router(transport)
        let stream = router.stream(RouterStreamTests.endpoint("sse/stall"))
        _ = try await stream.response()
        let stopped = Locked<Date?>(nil)
        let reader = Task { () -> NetworkError? in
            do {
                for try await _ in stream where stop == .breakingTheLoop {
                    stopped.withLock { $0 = Date() }
                    break
                }
                return nil
            } catch {
                return error as? NetworkError
            }
        }
        try await Task.sleep(nanoseconds: 100_000_000)
        if stop != .breakingTheLoop { stopped.withLock { $0 = Date() } }
        switch stop {
        case .handle: stream.cancel()
        case .router: router.cancel()
        case .task: reader.cancel()
        case .breakingTheLoop: break
        }
        let error = await reader.value
        if stop != .breakingTheLoop {
            guard case .cancelled? = error else {
                Issue.record("expected cancelled, got \(String(describing: error))")
                return
            }
        }
        #expect(await eventually(within: 2) { router.inFlightCount == 0 })
        let took = Date().timeIntervalSince(try #require(stopped.withLock { $0 }))
        #expect(took < TestTiming.bound(0.1) + 0.05, "took \(took) s")
    }
}
