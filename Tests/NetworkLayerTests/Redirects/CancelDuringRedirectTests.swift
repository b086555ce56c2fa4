import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request cancelled, or past its deadline, while FoundationNetworking waits for the answer to
/// a redirect (which the transport hands back unfollowed) must end as cancelled, not end the
/// process. FoundationNetworking traps when that answer comes after the task was cancelled
/// ("Received callback for HTTP redirection, but we're not waiting for it",
/// HTTPURLProtocol.swift:705): seen once in the parallel phase, 2026-11-27. The window is the
/// time the redirect spends in the session's delegate queue, which other tasks' callbacks keep
/// busy; here the test holds that queue. In a child process, since before the fix it trapped.
@Suite("Cancel while a redirect waits", .needsFixtureServer, .timeLimit(.minutes(2)))
struct CancelDuringRedirectTests {
    static let workload = "cancel-during-redirect"

    @Test func aRequestCancelledWhileItsRedirectWaitsEndsCancelledWithoutATrap() async throws {
        try await ChildProcess.expectCleanRun(
            workload: Self.workload, filter: "CancelDuringRedirectTests/cancelDuringRedirectWorkload", timeout: 60,
            proof: "REDIRECTCANCEL: done")
    }

    @Test(.childWorkload(CancelDuringRedirectTests.workload))
    func cancelDuringRedirectWorkload() async throws {
        let owned = URLSessionTransport()
        try await cancelWhileTheRedirectWaits(over: owned, queue: owned.session.delegateQueue, name: "owned session")

        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: .ephemeral, delegate: nil, delegateQueue: queue)
        defer { session.finishTasksAndInvalidate() }
        try await cancelWhileTheRedirectWaits(over: URLSessionTransport(session: session), queue: queue, name: "caller's session")
        print("REDIRECTCANCEL: done")
    }

    /// Holds `queue` (the session's delegate queue) while the redirect arrives and the request is
    /// cancelled, then lets the redirect's answer go.
    private func cancelWhileTheRedirectWaits(over transport: URLSessionTransport, queue: OperationQueue, name: String) async throws {
        let fixture = try #require(TestServers.fixture)
        let target = fixture.appendingPathComponent("echo").absoluteString
        var endpoint = TestEndpoint.fixture("redirect-to")
        endpoint.task = .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["url": target, "status": 302])
        let router = Router<TestEndpoint>(transport: transport, callbackQueue: DispatchQueue(label: "cancel-during-redirect"))

        let release = DispatchSemaphore(value: 0)
        queue.addOperation { release.wait() }
        let outcome = Locked<Result<Response, NetworkError>?>(nil)
        let handle = router.request(endpoint) { result in outcome.withLock { $0 = result } }
        // The 302 comes from loopback in milliseconds; FoundationNetworking then waits for its
        // answer, which the held queue cannot give.
        try await Task.sleep(nanoseconds: 1_500_000_000)
        handle.cancel()
        // The cancellation reaches FoundationNetworking from another thread.
        try await Task.sleep(nanoseconds: 500_000_000)
        release.signal()
        #expect(await eventually { outcome.withLock { $0 } != nil })
        let result = try #require(outcome.withLock { $0 })
        guard case .failure(.cancelled) = result else {
            Issue.record("\(name): expected .cancelled, got \(result)")
            return
        }
        // The redirect's answer is handed to FoundationNetworking's work queue; give it the time
        // to be read there, where the trap was.
        try await Task.sleep(nanoseconds: 500_000_000)
        print("REDIRECTCANCEL: \(name): cancelled, no trap")
    }
}
