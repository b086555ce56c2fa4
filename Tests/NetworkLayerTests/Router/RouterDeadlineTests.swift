import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The router's own deadline, against a fixture server that accepts and never answers, over
/// each transport.
@Suite("Deadlines", .needsFixtureServer)
struct RouterDeadlineTests {
    @Test(arguments: TestTransport.all)
    func aServerThatNeverAnswersTimesOutAtTheDeadline(_ transport: TestTransport) async throws {
        let router = transport.router()
        let started = Date()
        do {
            _ = try await router.request(.fixture("hang", timeout: 1))
            Issue.record("expected a timeout")
        } catch NetworkError.timedOut(let after) {
            #expect(after == 1)
        } catch {
            Issue.record("unexpected error: \(error)")
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed >= 0.95 && elapsed < TestTiming.bound(1.5), "took \(elapsed) s")
        #expect(router.inFlightCount == 0)
    }

    /// Here rather than among the hardening tests: it measures time (a 0.9 s deadline), so it
    /// runs in this suite, which Scripts/test runs on its own. Among ~400 other tests starting at
    /// once, the cooperative pool resumed it too late about every other run.
    @Test(arguments: TestTransport.all)
    func aSubSecondTimeoutStillLetsAFastServerAnswer(_ transport: TestTransport) async throws {
        // FoundationNetworking truncates timeoutInterval to whole seconds: 0.9 s became a 1 ms
        // timeout. Rounded up, plus a second so that the router's deadline comes first.
        let response = try await transport.router().request(.fixture("fast", timeout: 0.9))
        #expect(response.statusCode == 200)
        #expect(response.request.timeoutInterval == 2)
    }

    /// The transport's idle timeout is set past the deadline: at an equal value CurlTransport's
    /// idle timer fired first for about a third of these, as `.transport(URLError(.timedOut))`.
    @Test(arguments: TestTransport.all)
    func aHundredSilentRequestsAllEndAtTheRoutersDeadline(_ transport: TestTransport) async throws {
        let router = transport.router()
        let outcomes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    do {
                        _ = try await router.request(.fixture("hang", timeout: 1))
                        return "a response"
                    } catch {
                        guard case .timedOut(let after) = error as? NetworkError, after == 1 else { return "\(error)" }
                        return "timedOut(after: 1)"
                    }
                }
            }
            return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect(outcomes == ["timedOut(after: 1)": 100])
        #expect(router.inFlightCount == 0)
    }

    @Test(arguments: TestTransport.all)
    func completionAPITimesOutOnceToo(_ transport: TestTransport) async throws {
        let router = transport.router()
        let counter = CompletionCounter()
        router.request(.fixture("hang", timeout: 0.5)) { counter.record($0) }
        #expect(await eventually(within: 3) { counter.count == 1 })
        guard case .failure(let error) = counter.first else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.isTimeout)
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(counter.count == 1)
    }

    @Test(arguments: TestTransport.all)
    func statusErrorKeepsTheBody(_ transport: TestTransport) async throws {
        let router = transport.router()
        do {
            _ = try await router.request(.fixture("status/500?body=database%20down"))
            Issue.record("expected a status error")
        } catch NetworkError.unacceptableStatusCode(let response) {
            #expect(response.statusCode == 500)
            #expect(response.text == "database down")
            // Foundation's status text differs in letter case between Linux and Apple platforms.
            #expect(
                NetworkError.unacceptableStatusCode(response).localizedDescription.lowercased()
                    == "the server answered 500 internal server error (13-byte body).")
        } catch {
            Issue.record("unexpected error: \(error)")
        }
    }

    @Test(arguments: TestTransport.all)
    func basicAuthChallengeOnTheFixtureReturns401(_ transport: TestTransport) async throws {
        let router = transport.router()
        let started = Date()
        do {
            _ = try await router.request(.fixture("basic-auth", timeout: 5))
            Issue.record("expected a 401")
        } catch NetworkError.unacceptableStatusCode(let response) {
            #expect(response.statusCode == 401)
            // Both transports keep the body: URLSessionTransport's delegate has received it
            // when FoundationNetworking raises the challenge.
            #expect(response.text == #"{"error":"auth required"}"#)
        } catch {
            Issue.record("unexpected error: \(error)")
        }
        #expect(Date().timeIntervalSince(started) < TestTiming.bound(2))
    }
}
