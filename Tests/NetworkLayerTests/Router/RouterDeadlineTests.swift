import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The router's own deadline, against a fixture server that accepts and never answers.
@Suite("Deadlines", .needsFixtureServer)
struct RouterDeadlineTests {
    let router = Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "tests"))

    @Test func aServerThatNeverAnswersTimesOutAtTheDeadline() async throws {
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
    @Test func aSubSecondTimeoutStillLetsAFastServerAnswer() async throws {
        // FoundationNetworking truncates timeoutInterval to whole seconds: 0.9 s became a 1 ms timeout.
        let response = try await Router<TestEndpoint>().request(.fixture("fast", timeout: 0.9))
        #expect(response.statusCode == 200)
        #expect(response.request.timeoutInterval == 1)
    }

    @Test func completionAPITimesOutOnceToo() async throws {
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

    @Test func statusErrorKeepsTheBody() async throws {
        do {
            _ = try await router.request(.fixture("status/500?body=database%20down"))
            Issue.record("expected a status error")
        } catch NetworkError.unacceptableStatusCode(let response) {
            #expect(response.statusCode == 500)
            #expect(response.text == "database down")
            // Foundation's status text differs in letter case between Linux and Apple platforms.
            #expect(
                NetworkError.unacceptableStatusCode(response).localizedDescription.lowercased()
                    == "the server answered 500 internal server error: database down")
        } catch {
            Issue.record("unexpected error: \(error)")
        }
    }

    @Test func basicAuthChallengeOnTheFixtureReturns401() async throws {
        let started = Date()
        do {
            _ = try await router.request(.fixture("basic-auth", timeout: 5))
            Issue.record("expected a 401")
        } catch NetworkError.unacceptableStatusCode(let response) {
            #expect(response.statusCode == 401)
        } catch {
            Issue.record("unexpected error: \(error)")
        }
        #expect(Date().timeIntervalSince(started) < TestTiming.bound(2))
    }
}
