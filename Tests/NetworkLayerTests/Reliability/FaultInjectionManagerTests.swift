import Foundation
import NetworkLayer
import Testing
import TestSupport
import TransportTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - Through NetworkManager

extension Reliability {
    /// The same faults as `APIError` categories, the way app code sees them.
    @Suite("Fault injection through NetworkManager", .needsFixtureServer, .timeLimit(.minutes(1)))
    struct FaultInjectionManagerTests {
        @Test(arguments: TestTransport.all)
        func a429IsRateLimitedWithItsRetryAfter(_ transport: TestTransport) async throws {
            let fault = Fault.rateLimited
            let (result, elapsed) = try await fault.sendThroughManager(decoding: Greeting.self, over: transport)
            guard case .failure(let error) = result, case .rateLimited(let failure) = error else {
                Issue.record("expected APIError.rateLimited, got \(result)")
                return
            }
            #expect(readmeName(of: error) == fault.managerOutcome)
            #expect(failure.statusCode == 429)
            #expect(failure.retryAfter == .seconds(1))
            #expect(elapsed < 1)
        }

        @Test(arguments: TestTransport.all)
        func aServerThatNeverAnswersIsDeadlineExceeded(_ transport: TestTransport) async throws {
            let fault = Fault.hang
            let (result, elapsed) = try await fault.sendThroughManager(decoding: Greeting.self, over: transport)
            guard case .failure(let error) = result, case .failed(.timedOut(let after)) = error else {
                Issue.record("expected APIError.failed(.timedOut), got \(result)")
                return
            }
            #expect(readmeName(of: error) == fault.managerOutcome)
            #expect(after == 1)
            #expect(elapsed >= 0.95 && elapsed < 1.5, "took \(elapsed) s")
        }

        @Test(arguments: TestTransport.all)
        func aConnectionClosedMidBodyIsATransportFailure(_ transport: TestTransport) async throws {
            let fault = Fault.closeMidBody
            let (result, _) = try await fault.sendThroughManager(decoding: Greeting.self, over: transport)
            guard case .failure(let error) = result, case .failed(.transport(let urlError)) = error else {
                Issue.record("expected APIError.failed(.transport), got \(result)")
                return
            }
            #expect(readmeName(of: error) == fault.managerOutcome)
            #expect(urlError.code == .networkConnectionLost)
        }

        @Test(arguments: TestTransport.all)
        func malformedJSONIsADecodingFailureThatKeepsTheBody(_ transport: TestTransport) async throws {
            let fault = Fault.invalidJSON
            let (result, _) = try await fault.sendThroughManager(decoding: Greeting.self, over: transport)
            guard case .failure(let error) = result, case .failed(.decoding(_, let response)) = error else {
                Issue.record("expected APIError.failed(.decoding), got \(result)")
                return
            }
            #expect(readmeName(of: error) == fault.managerOutcome)
            #expect(response.text == #"{"ok": tru"#)
        }

        @Test(arguments: TestTransport.all)
        func anEmptyBodyIsNilForAnOptionalModel(_ transport: TestTransport) async throws {
            let (result, _) = try await Fault.empty.sendThroughManager(decoding: Greeting?.self, over: transport)
            guard case .success(let greeting) = result else {
                Issue.record("expected nil, got \(result)")
                return
            }
            #expect(greeting == nil)
        }

        @Test(arguments: TestTransport.all)
        func aBasicAuthChallengeIsAnAuthenticationFailureAtOnce(_ transport: TestTransport) async throws {
            let fault = Fault.basicAuth
            let (result, elapsed) = try await fault.sendThroughManager(decoding: Greeting.self, over: transport)
            guard case .failure(let error) = result, case .authentication(let failure) = error else {
                Issue.record("expected APIError.authentication, got \(result)")
                return
            }
            #expect(readmeName(of: error) == fault.managerOutcome)
            #expect(failure.statusCode == 401)
            #expect(elapsed < 2, "took \(elapsed) s")
        }
    }
}
