import Foundation
import NetworkLayer
import Testing
import TestSupport
import TransportTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - Through Router

extension Reliability {
    /// One test per fault of the fixture server: the exact typed outcome, and how long it took.
    @Suite("Fault injection", .needsFixtureServer, .timeLimit(.minutes(1)))
    struct FaultInjectionTests {
        // MARK: Broken connections

        @Test(arguments: TestTransport.all)
        func aConnectionClosedBeforeAnyResponseIsABadServerResponse(_ transport: TestTransport) async throws {
            let fault = Fault.closeBeforeResponse
            let outcome = try await fault.send(over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 1)
        }

        @Test(arguments: TestTransport.all)
        func aConnectionClosedAfterTheHeadersIsATransportErrorNotAnEmptySuccess(_ transport: TestTransport) async throws {
            let fault = Fault.closeAfterHeaders
            let outcome = try await fault.send(over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 1)
        }

        @Test(arguments: TestTransport.all)
        func aConnectionClosedMidBodyIsATransportErrorNotATruncatedSuccess(_ transport: TestTransport) async throws {
            // 50,000 of 100,000 announced bytes arrive: a 200 with half a body would be data
            // silently lost.
            let fault = Fault.closeMidBody
            let outcome = try await fault.send(over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 1)
        }

        @Test(arguments: TestTransport.all)
        func aBodyShorterThanItsContentLengthIsATransportError(_ transport: TestTransport) async throws {
            // "hello" where Content-Length promised 20 bytes.
            let fault = Fault.shortBody
            let outcome = try await fault.send(over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 1)
        }

        @Test(arguments: TestTransport.all)
        func aBodySentAgainOnAReusedConnectionGoesWithItsBodyAndEndsAtOnce(_ transport: TestTransport) async throws {
            // When a kept-alive connection turns out closed, libcurl silently sends the request
            // again on a new one. FoundationNetworking cannot rewind an in-memory body, so its copy
            // went without the body, client and server both waited, and only the router's
            // deadline ended it (raw URLSession hangs for ever); URLSessionTransport now starts
            // the request anew instead. The new connection's empty reply ends it at once.
            let fault = Fault.bodyOnReusedConnection
            let outcome = try await fault.send(over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 1, "took \(outcome.elapsed) s")
        }

        @Test(arguments: TestTransport.all)
        func aFileUploadSentAgainOnAReusedConnectionGoesWithItsBodyAndEndsAtOnce(_ transport: TestTransport) async throws {
            let fault = Fault.fileUploadOnReusedConnection
            let outcome = try await fault.send(over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 1, "took \(outcome.elapsed) s")
        }

        // MARK: Heads libcurl accepts and should not

        @Test(arguments: TestTransport.all)
        func aContentLengthThatIsNotANumberIsABadServerResponseNotATruncatedSuccess(_ transport: TestTransport) async throws {
            let fault = Fault.malformedContentLength
            let outcome = try await fault.send(over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 1)
        }

        @Test(arguments: TestTransport.all)
        func anInvalidStatusLineIsABadServerResponseNotAnUnsupportedURL(_ transport: TestTransport) async throws {
            let fault = Fault.invalidStatusLine
            let outcome = try await fault.send(over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
        }

        @Test(arguments: TestTransport.all)
        func aHugeHeaderLineIsABadServerResponseNotOutOfMemory(_ transport: TestTransport) async throws {
            let fault = Fault.hugeHeader
            let outcome = try await fault.send(over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
        }

        // MARK: Slow servers

        @Test(arguments: TestTransport.all)
        func aServerThatNeverAnswersTimesOutAtTheDeadline(_ transport: TestTransport) async throws {
            let fault = Fault.hang
            let outcome = try await fault.send(over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: 1)
            #expect(outcome.elapsed >= 0.95 && outcome.elapsed < 1.5, "took \(outcome.elapsed) s")
        }

        @Test(arguments: TestTransport.all)
        func aDripFeedingServerTimesOutAtTheDeadlineNotWhenTheBodyEnds(_ transport: TestTransport) async throws {
            // A byte a second keeps Foundation's idle timeout from ever firing; only the router's
            // deadline ends the request, at 2 s rather than the 5 s the body would take.
            let fault = Fault.drip
            let outcome = try await fault.send(over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: 2)
            #expect(outcome.elapsed >= 1.95 && outcome.elapsed < 2.6, "took \(outcome.elapsed) s")
        }

        // MARK: Bodies that do not decode

        @Test(arguments: TestTransport.all)
        func malformedJSONIsADecodingErrorThatKeepsTheBody(_ transport: TestTransport) async throws {
            let fault = Fault.invalidJSON
            let outcome = try await fault.send(decoding: Greeting.self, over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            guard case .failure(.decoding(let error, let response)) = outcome.result else { return }
            guard case .dataCorrupted = error as? DecodingError else {
                Issue.record("expected DecodingError.dataCorrupted, got \(error)")
                return
            }
            #expect(response.statusCode == 200)
            #expect(response.text == #"{"ok": tru"#)
            #expect(outcome.elapsed < 1)
        }

        @Test(arguments: TestTransport.all)
        func jsonOfAnotherShapeIsADecodingErrorNamingTheMissingKey(_ transport: TestTransport) async throws {
            let fault = Fault.wrongShape
            let outcome = try await fault.send(decoding: Greeting.self, over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            guard case .failure(.decoding(let error, let response)) = outcome.result else { return }
            guard case .keyNotFound(let key, _) = error as? DecodingError else {
                Issue.record("expected DecodingError.keyNotFound, got \(error)")
                return
            }
            #expect(key.stringValue == "ok")
            #expect(response.text == #"{"unexpected":[1,2,3]}"#)
            #expect(outcome.elapsed < 1)
        }

        @Test(arguments: TestTransport.all)
        func anEmptyBodyIsADecodingErrorForANonOptionalType(_ transport: TestTransport) async throws {
            let fault = Fault.empty
            let outcome = try await fault.send(decoding: Greeting.self, over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            guard case .failure(.decoding(_, let response)) = outcome.result else { return }
            #expect(response.statusCode == 200)
            #expect(response.data.isEmpty)
            #expect(outcome.elapsed < 1)
        }

        @Test(arguments: TestTransport.all)
        func anEmptyBodyDecodesToNilForAnOptionalType(_ transport: TestTransport) async throws {
            let outcome = try await Fault.empty.send(decoding: Greeting?.self, over: transport)
            guard case .success(let greeting) = outcome.result else {
                Issue.record("expected nil, got \(outcome.result)")
                return
            }
            #expect(greeting == nil)
        }

        @Test(arguments: TestTransport.all)
        func htmlInsteadOfJSONIsADecodingErrorThatKeepsTheHTML(_ transport: TestTransport) async throws {
            let fault = Fault.wrongContentType
            let outcome = try await fault.send(decoding: Greeting.self, over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            guard case .failure(.decoding(_, let response)) = outcome.result else { return }
            #expect(response.header("Content-Type") == "text/html")
            #expect(response.text == "<html>not json</html>")
            #expect(outcome.elapsed < 1)
        }

        // MARK: Statuses

        @Test(arguments: TestTransport.all)
        func aBasicAuthChallengeReturnsThe401AtOnceInsteadOfHanging(_ transport: TestTransport) async throws {
            // Raw FoundationNetworking hangs for ever on this response (DESIGN.md).
            let fault = Fault.basicAuth
            let outcome = try await fault.send(over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            if case .failure(.unacceptableStatusCode(let response)) = outcome.result {
                #expect(response.header("WWW-Authenticate") == #"Basic realm="fixture""#)
                // Both transports keep the body: URLSessionTransport's delegate has received it
                // when FoundationNetworking raises the challenge.
                #expect(response.text == #"{"error":"auth required"}"#)
            }
            #expect(outcome.elapsed < 2, "took \(outcome.elapsed) s")
        }

        @Test(arguments: TestTransport.all)
        func a429KeepsItsRetryAfter(_ transport: TestTransport) async throws {
            let fault = Fault.rateLimited
            let outcome = try await fault.send(over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            if case .failure(.unacceptableStatusCode(let response)) = outcome.result {
                #expect(response.retryAfter == .seconds(1))
                #expect(response.text == #"{"status":429}"#)
            }
            // The router's default policy does not retry, so this is the first answer, not a wait.
            #expect(outcome.elapsed < 1)
        }

        @Test(arguments: TestTransport.all)
        func aPassing503IsRetriedToSuccessInTwoAttempts(_ transport: TestTransport) async throws {
            let fault = Fault.passingUnavailability
            let key = "reliability-\(UUID().uuidString)"
            let router = fault.makeRouter(over: transport)
            let outcome = try await measure(fault) { try await router.request(fault.endpoint(key: key)) }
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            if case .success(let response) = outcome.result {
                #expect(try jsonObject(response.data)["attempt"] as? Int == 2)
            }
            // The server's own log of the key, so the count does not rely on the client's word.
            let log = try #require(TestServers.fixture).appendingPathComponent("sequence/\(key)/log")
            let (data, _) = try await URLSession.shared.data(from: log)
            #expect((try jsonObject(data)["attempts"] as? [Any])?.count == 2)
            // One backoff of 0.05 s ± 20 %, not the default 0.5 s.
            #expect(outcome.elapsed < 1, "took \(outcome.elapsed) s")
        }

        // MARK: Redirects

        @Test(arguments: TestTransport.all)
        func aRedirectLoopEndsWithTooManyRedirects(_ transport: TestTransport) async throws {
            let fault = Fault.redirectLoop
            let outcome = try await fault.send(over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 2, "took \(outcome.elapsed) s")
        }

        @Test(arguments: TestTransport.all)
        func aRedirectToAClosedPortCannotConnect(_ transport: TestTransport) async throws {
            let fault = Fault.redirectRefused
            let outcome = try await fault.send(over: transport)
            fault.expected(over: transport).verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 1, "took \(outcome.elapsed) s")
        }

        // MARK: Retries

        @Test(arguments: TestTransport.all)
        func aConnectionLostMidBodyIsRetriedByTheDefaultRetryPolicy(_ transport: TestTransport) async throws {
            // RetryPolicy retries "connection lost" on idempotent requests. FoundationNetworking
            // reports a body cut short as URLError(.unknown); the transport maps it to
            // .networkConnectionLost, as Apple platforms report it, so the GET is retried.
            let policy = RetryPolicy(backoffScale: 0.05)
            let attempts = AttemptCounter()
            let router = transport.router(callbackQueue: DispatchQueue(label: "reliability"), plugins: [attempts], retryPolicy: policy)
            let outcome = try await measure(Fault.closeMidBody) { try await router.request(Fault.closeMidBody.endpoint()) }
            guard case .failure(.transport) = outcome.result else {
                Issue.record("expected a transport error after the retries, got \(outcome.result)")
                return
            }
            #expect(attempts.count == 1 + policy.retryLimit)
        }
    }
}
