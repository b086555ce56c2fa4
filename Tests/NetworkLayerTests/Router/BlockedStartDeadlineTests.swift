import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The router's deadline counts from the call, even when the transport's start blocks the
/// caller. FoundationNetworking's `session.dataTask(with:)` waits for its one work queue, shared
/// by every session of the process; a response of thousands of `Set-Cookie` fields keeps that
/// queue busy for seconds (`HTTPCookieStorage.setCookie` is linear in the cookies stored:
/// 10,000 cookies into an empty storage took 5.8-6.8 s here, 6,000 took 2.2 s). A request started
/// meanwhile blocked its caller until then (5.7-6.3 s), and its deadline, armed only once the
/// start returned, came that much late (1 s deadlines ended after 5.7-6.7 s).
///
/// Runs on its own (Scripts/test's `isolated` list): the flood blocks every URLSession request
/// of the process for seconds.
@Suite("Deadline while the transport's start blocks", .needsFixtureServer, .serialized)
struct BlockedStartDeadlineTests {
    /// When a request's completion ran and when its start returned, from any thread; copies share
    /// one record.
    struct Times: Sendable {
        private let state = Locked<(marks: [String: Date], outcome: Result<Response, NetworkError>?)>(([:], nil))

        func mark(_ name: String) {
            state.withLock { $0.marks[name] = Date() }
        }

        func record(_ outcome: Result<Response, NetworkError>) {
            state.withLock {
                $0.marks["completed"] = Date()
                $0.outcome = outcome
            }
        }

        subscript(name: String) -> Date? { state.withLock { $0.marks[name] } }
        var outcome: Result<Response, NetworkError>? { state.withLock { $0.outcome } }
    }

    /// A session of the app's own, with a storage of its own, that the server floods with
    /// cookies; its times record when the flood started and completed. Not a transport of ours:
    /// it stores at most 50 cookies of a response (CookieLimits), and FoundationNetworking stores
    /// them all on its work queue.
    private static func startFlood() throws -> (times: Times, session: URLSession) {
        let fixture = try #require(TestServers.fixture)
        let flood = try #require(URL(string: fixture.appendingPathComponent("cookie-flood").absoluteString + "?count=10000"))
        let session = URLSession(configuration: .ephemeral)
        let times = Times()
        times.mark("started")
        session.dataTask(with: flood) { _, _, _ in times.mark("completed") }.resume()
        return (times, session)
    }

    private static func floodTook(_ times: Times) throws -> TimeInterval {
        try #require(times["completed"]).timeIntervalSince(try #require(times["started"]))
    }

    @Test func aDeadlineHoldsWhileFoundationsWorkQueueIsBusy() async throws {
        guard TestTransport.all.contains(.urlSession) else { return }
        let (floodTimes, floodSession) = try Self.startFlood()
        defer { floodSession.finishTasksAndInvalidate() }
        try await Task.sleep(nanoseconds: 500_000_000)

        // Another session: a request that must end at its 1 s deadline. Started from a thread of
        // its own, as an app's main thread would, not from the test's pool.
        let router = Router<TestEndpoint>(transport: URLSessionTransport(), callbackQueue: DispatchQueue(label: "deadline"))
        let times = Times()
        let thread = Thread {
            times.mark("called")
            router.request(.fixture("hang", timeout: 1)) { times.record($0) }
            times.mark("returned")
        }
        thread.start()
        #expect(await eventually(within: 120) { times["completed"] != nil && times["returned"] != nil && floodTimes["completed"] != nil })

        let called = try #require(times["called"])
        let completed = try #require(times["completed"])
        let floodTook = try Self.floodTook(floodTimes)
        let blocked = times["returned"].map { $0.timeIntervalSince(called) } ?? .nan
        let elapsed = completed.timeIntervalSince(called)
        // Without a busy queue there is nothing to measure.
        try #require(floodTook > 2.5, "the flood kept the work queue busy for only \(floodTook) s")
        #expect(
            elapsed < TestTiming.bound(1.5),
            "the 1 s deadline ended the request after \(elapsed) s; its start blocked the caller \(blocked) s, the flood took \(floodTook) s")
        // The task is made off the caller's thread: before, the start blocked it 5.7-6.3 s.
        #expect(blocked < TestTiming.bound(0.5), "the start blocked the caller \(blocked) s; the flood took \(floodTook) s")
        guard case .failure(.timedOut(after: 1)) = times.outcome else {
            Issue.record("expected timedOut(after: 1), got \(String(describing: times.outcome))")
            return
        }
    }

    /// The same for an `async` caller, which is resumed only once the start returns: before, its
    /// 1 s deadline was heard after 6.99 s.
    @Test func anAsyncCallerHearsItsDeadlineWhileFoundationsWorkQueueIsBusy() async throws {
        guard TestTransport.all.contains(.urlSession) else { return }
        let (floodTimes, floodSession) = try Self.startFlood()
        defer { floodSession.finishTasksAndInvalidate() }
        try await Task.sleep(nanoseconds: 500_000_000)

        let router = Router<TestEndpoint>(transport: URLSessionTransport(), callbackQueue: DispatchQueue(label: "deadline"))
        let called = Date()
        let outcome: NetworkError?
        do {
            _ = try await router.request(.fixture("hang", timeout: 1))
            outcome = nil
        } catch {
            outcome = error
        }
        let elapsed = Date().timeIntervalSince(called)
        #expect(await eventually(within: 120) { floodTimes["completed"] != nil })
        let floodTook = try Self.floodTook(floodTimes)
        try #require(floodTook > 2.5, "the flood kept the work queue busy for only \(floodTook) s")
        #expect(elapsed < TestTiming.bound(1.5), "the 1 s deadline was heard after \(elapsed) s; the flood took \(floodTook) s")
        guard case .timedOut(after: 1)? = outcome else {
            Issue.record("expected timedOut(after: 1), got \(String(describing: outcome))")
            return
        }
    }

    /// A stream's start made its task on the caller's thread too: `router.stream(_:)` from an
    /// app's main thread blocked it until the flood was stored.
    @Test func aStreamsStartDoesNotBlockItsCaller() async throws {
        guard TestTransport.all.contains(.urlSession) else { return }
        let (floodTimes, floodSession) = try Self.startFlood()
        defer { floodSession.finishTasksAndInvalidate() }
        try await Task.sleep(nanoseconds: 500_000_000)

        let router = Router<TestEndpoint>(transport: URLSessionTransport(), callbackQueue: DispatchQueue(label: "stream"))
        let times = Times()
        let streams = Locked<[ResponseStream]>([])
        let thread = Thread {
            times.mark("called")
            let stream = router.stream(.fixture("hang", timeout: 1))
            times.mark("returned")
            streams.withLock { $0.append(stream) }
        }
        thread.start()
        #expect(await eventually(within: 120) { times["returned"] != nil && floodTimes["completed"] != nil })
        let stream = try #require(streams.withLock { $0.first })
        let called = try #require(times["called"])
        let blocked = try #require(times["returned"]).timeIntervalSince(called)
        let floodTook = try Self.floodTook(floodTimes)
        try #require(floodTook > 2.5, "the flood kept the work queue busy for only \(floodTook) s")
        #expect(blocked < TestTiming.bound(0.5), "the stream's start blocked the caller \(blocked) s; the flood took \(floodTook) s")
        stream.cancel()
    }
}
