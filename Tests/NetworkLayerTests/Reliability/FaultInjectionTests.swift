import Foundation
import NetworkLayer
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The reliability promise, checked against a server that misbehaves on purpose: whatever the
/// server or the network does, every request finishes exactly once, with the right typed result,
/// within its deadline; nothing hangs, nothing crashes, no data is silently lost.
///
/// The suites run one test at a time: the fault tests assert how long each fault takes, and
/// the stress workloads keep both cores of the development machine busy for seconds.
@Suite(.serialized)
enum Reliability {}

// MARK: - The faults, one source of truth

extension Reliability {
    /// Every fault the fixture server injects, with what a user gets.
    ///
    /// This is the single source of truth for the "Reliability" table of README.md:
    /// `ReliabilityReadmeTests` checks that the table's rows are exactly the ``readmeRow``s of these
    /// cases, that each ``outcome`` names the case its ``expected`` outcome asserts, and that every
    /// case has a test of its own below. Change an outcome here and the README check fails until the
    /// README says the same.
    enum Fault: CaseIterable, Sendable, CustomTestStringConvertible {
        case closeBeforeResponse
        case closeAfterHeaders
        case closeMidBody
        case shortBody
        case hang
        case drip
        case invalidJSON
        case wrongShape
        case empty
        case wrongContentType
        case basicAuth
        case rateLimited
        case passingUnavailability
        case redirectLoop
        case redirectRefused
        case bodyOnReusedConnection
        case fileUploadOnReusedConnection
        case malformedContentLength
        case invalidStatusLine
        case hugeHeader

        /// The fixture route, as the README shows it; `{key}` is a fresh key per request.
        var route: String {
            switch self {
            case .closeBeforeResponse, .bodyOnReusedConnection, .fileUploadOnReusedConnection: return "/close-before-response"
            case .malformedContentLength: return "/bad-content-length?value=5five"
            case .invalidStatusLine: return "/invalid-status-line"
            case .hugeHeader: return "/huge-header?kib=200"
            case .closeAfterHeaders: return "/close-after-headers"
            case .closeMidBody: return "/close-mid-body"
            case .shortBody: return "/short-body"
            case .hang: return "/hang"
            case .drip: return "/drip?bytes=5"
            case .invalidJSON: return "/invalid-json"
            case .wrongShape: return "/wrong-shape"
            case .empty: return "/empty"
            case .wrongContentType: return "/wrong-content-type"
            case .basicAuth: return "/basic-auth"
            case .rateLimited: return "/status/429?retry_after=1"
            case .passingUnavailability: return "/sequence/{key}?statuses=503,200"
            case .redirectLoop: return "/redirect-loop"
            case .redirectRefused: return "/redirect-refused"
            }
        }

        /// What goes wrong, in a user's words.
        var fault: String {
            switch self {
            case .closeBeforeResponse: return "connection closed before any response"
            case .closeAfterHeaders: return "connection closed after the headers, before the body"
            case .closeMidBody: return "connection closed half-way through the body"
            case .shortBody: return "body shorter than its `Content-Length`"
            case .hang: return "server never answers"
            case .drip: return "body trickles in, one byte a second"
            case .invalidJSON: return "malformed JSON"
            case .wrongShape: return "valid JSON of another shape"
            case .empty: return "empty 200 body"
            case .wrongContentType: return "HTML where JSON was expected"
            case .basicAuth: return "401 with `WWW-Authenticate: Basic`"
            case .rateLimited: return "429 with `Retry-After: 1`"
            case .passingUnavailability: return "503, then 200"
            case .redirectLoop: return "redirect loop"
            case .redirectRefused: return "redirect to a port where nothing listens"
            case .bodyOnReusedConnection:
                return "a POST body on a reused connection, closed by the server without an answer"
            case .fileUploadOnReusedConnection:
                return "a file upload on a reused connection, closed by the server without an answer"
            case .malformedContentLength: return "`Content-Length: 5five` with an 11-byte body"
            case .invalidStatusLine: return "a status line without a status code"
            case .hugeHeader: return "a 200 KiB header line"
            }
        }

        /// What the user gets, in the README's words; it names ``expected`` and ``managerOutcome``.
        var outcome: String {
            switch self {
            case .closeBeforeResponse:
                return "`NetworkError.transport(URLError(.badServerResponse))` at once (-1011, \"Empty reply from server\")"
            case .closeAfterHeaders:
                return "`NetworkError.transport(URLError(.networkConnectionLost))` at once, never an empty 200"
            case .closeMidBody:
                return "`NetworkError.transport(URLError(.networkConnectionLost))` at once, never a truncated 200; "
                    + "`APIError.failed(.transport)` from `NetworkManager`; retried by `RetryPolicy` for idempotent methods"
            case .shortBody:
                return "`NetworkError.transport(URLError(.networkConnectionLost))` at once, never the 5 bytes as a 200"
            case .hang:
                return "`NetworkError.timedOut(after:)` at the endpoint's deadline; "
                    + "`APIError.failed(.timedOut)` from `NetworkManager`"
            case .drip:
                return "`NetworkError.timedOut(after:)` at the endpoint's deadline (2 s in the test), "
                    + "not when the last byte arrives (5 s)"
            case .invalidJSON:
                return "`NetworkError.decoding` (`DecodingError.dataCorrupted`) with the response and its body; "
                    + "`APIError.failed(.decoding)` from `NetworkManager`"
            case .wrongShape:
                return "`NetworkError.decoding` (`DecodingError.keyNotFound`) with the response and its body"
            case .empty:
                return "`NetworkError.decoding` for a non-optional type; `nil` for an optional type such as `Movie?`"
            case .wrongContentType:
                return "`NetworkError.decoding` with the HTML kept in the response"
            case .basicAuth:
                return "`NetworkError.unacceptableStatusCode` with status 401 at once, not a hang "
                    + "(its body is not available on Linux); `APIError.authentication` from `NetworkManager`"
            case .rateLimited:
                return "`NetworkError.unacceptableStatusCode` with status 429 and `response.retryAfter == .seconds(1)`; "
                    + "`APIError.rateLimited` from `NetworkManager`"
            case .passingUnavailability:
                return "`Response` with status 200 after 2 attempts, with a `RetryPolicy`"
            case .redirectLoop:
                return "`NetworkError.transport(URLError(.httpTooManyRedirects))` (-1007)"
            case .redirectRefused:
                return "`NetworkError.transport(URLError(.cannotConnectToHost))` (-1004)"
            case .bodyOnReusedConnection:
                return "`NetworkError.timedOut(after:)` at the endpoint's deadline: FoundationNetworking sends the "
                    + "request again on a new connection without its body and would wait forever"
            case .fileUploadOnReusedConnection:
                return "`NetworkError.transport(URLError(.badServerResponse))` at once: the file is streamed, "
                    + "and sent again from its start on the new connection"
            case .malformedContentLength:
                return "`NetworkError.transport(URLError(.badServerResponse))` at once, never the 5 bytes libcurl reads as a 200"
            case .invalidStatusLine:
                return "`NetworkError.transport(URLError(.badServerResponse))` (FoundationNetworking says -1002 \"unsupported URL\")"
            case .hugeHeader:
                return "`NetworkError.transport(URLError(.badServerResponse))` (FoundationNetworking says -1 \"Out of memory\")"
            }
        }

        /// The outcome the tests assert through `Router`.
        var expected: Expected {
            switch self {
            case .closeBeforeResponse, .fileUploadOnReusedConnection, .malformedContentLength, .invalidStatusLine, .hugeHeader:
                return .transport(.badServerResponse)
            // On Apple platforms these would be .networkConnectionLost; FoundationNetworking passes
            // libcurl's "transfer closed with N bytes remaining to read" on as -1.
            case .closeAfterHeaders, .closeMidBody, .shortBody: return .transport(.networkConnectionLost)
            case .hang, .drip, .bodyOnReusedConnection: return .timedOut
            case .invalidJSON, .wrongShape, .empty, .wrongContentType: return .decoding
            case .basicAuth: return .unacceptableStatusCode(401)
            case .rateLimited: return .unacceptableStatusCode(429)
            case .passingUnavailability: return .response(status: 200)
            case .redirectLoop: return .transport(.httpTooManyRedirects)
            case .redirectRefused: return .transport(.cannotConnectToHost)
            }
        }

        /// The `APIError` case a `NetworkManager` test asserts, where there is one.
        var managerOutcome: String? {
            switch self {
            case .closeMidBody: return "`APIError.failed(.transport)`"
            case .hang: return "`APIError.failed(.timedOut)`"
            case .invalidJSON: return "`APIError.failed(.decoding)`"
            case .basicAuth: return "`APIError.authentication`"
            case .rateLimited: return "`APIError.rateLimited`"
            default: return nil
            }
        }

        /// The row of the README's table.
        var readmeRow: String { "| \(fault) (`\(route)`) | \(outcome) |" }

        /// Each test's deadline: small, so that a fault costs seconds, never the 60 s default.
        var timeout: TimeInterval {
            switch self {
            case .hang: return 1
            case .drip: return 2
            case .bodyOnReusedConnection, .fileUploadOnReusedConnection: return 2
            default: return 5
            }
        }

        var method: HTTPMethod { self == .bodyOnReusedConnection || self == .fileUploadOnReusedConnection ? .post : .get }

        /// The router's retry policy: only the passing 503 is retried, quickly.
        var retryPolicy: RetryPolicy {
            self == .passingUnavailability ? RetryPolicy(backoffScale: 0.05) : .none
        }

        /// The endpoint, with a fresh `/sequence` key each time so that attempts are counted per test.
        func endpoint(key: String = "reliability-\(UUID().uuidString)") -> TestEndpoint {
            var endpoint = TestEndpoint.fixture(route.replacingOccurrences(of: "{key}", with: key), method, timeout: timeout)
            if self == .bodyOnReusedConnection {
                endpoint.task = .requestData(Data("payload".utf8), contentType: "text/plain")
            }
            if self == .fileUploadOnReusedConnection {
                endpoint.task = .uploadFile(Self.uploadFile, contentType: "text/plain")
            }
            return endpoint
        }

        /// A router of its own per test, so that connections and in-flight counts are the test's own.
        func makeRouter(plugins: [any PluginType] = []) -> Router<TestEndpoint> {
            Router(
                callbackQueue: DispatchQueue(label: "reliability", attributes: .concurrent),
                plugins: plugins, retryPolicy: retryPolicy)
        }

        /// The body of ``fileUploadOnReusedConnection``, written once per process.
        static let uploadFile: URL = {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("nl-fault-upload-\(UUID().uuidString).txt")
            try? Data(repeating: UInt8(ascii: "p"), count: 50_000).write(to: file)
            return file
        }()

        /// Brings `router` into the state the fault needs: a kept-alive connection to reuse.
        func prime(_ router: Router<TestEndpoint>) async throws {
            guard self == .bodyOnReusedConnection || self == .fileUploadOnReusedConnection else { return }
            #expect(try await router.request(.fixture("/fast")).statusCode == 200)
        }

        var testDescription: String { "\(method.rawValue) \(route)" }

        /// A fault's outcome through `Router`.
        enum Expected: Sendable {
            case response(status: Int)
            case transport(URLError.Code)
            case timedOut
            case unacceptableStatusCode(Int)
            case decoding

            /// How the README names it.
            var name: String {
                switch self {
                case .response: return "`Response`"
                case .transport(let code): return "`NetworkError.transport(URLError(.\(Self.name(of: code))))`"
                case .timedOut: return "`NetworkError.timedOut(after:)`"
                case .unacceptableStatusCode: return "`NetworkError.unacceptableStatusCode`"
                case .decoding: return "`NetworkError.decoding`"
                }
            }

            private static func name(of code: URLError.Code) -> String {
                switch code {
                case .unknown: return "unknown"
                case .networkConnectionLost: return "networkConnectionLost"
                case .badServerResponse: return "badServerResponse"
                case .httpTooManyRedirects: return "httpTooManyRedirects"
                case .cannotConnectToHost: return "cannotConnectToHost"
                default: return "init(rawValue: \(code.rawValue))"
                }
            }

            /// Records an issue unless `result` is this outcome; a deadline must be `timeout`'s.
            func verify<Value>(
                _ result: Result<Value, NetworkError>, timeout: TimeInterval,
                sourceLocation: SourceLocation = #_sourceLocation
            ) {
                switch (self, result) {
                case (.response(let status), .success(let value)):
                    #expect((value as? Response)?.statusCode == status, sourceLocation: sourceLocation)
                case (.transport(let code), .failure(.transport(let error))):
                    #expect(
                        error.code == code, "URLError \(error.code.rawValue): \(error.localizedDescription)",
                        sourceLocation: sourceLocation)
                case (.timedOut, .failure(.timedOut(let after))):
                    #expect(after == timeout, sourceLocation: sourceLocation)
                case (.unacceptableStatusCode(let status), .failure(.unacceptableStatusCode(let response))):
                    #expect(response.statusCode == status, sourceLocation: sourceLocation)
                case (.decoding, .failure(.decoding)):
                    break
                default:
                    Issue.record("expected \(name), got \(result)", sourceLocation: sourceLocation)
                }
            }
        }
    }

    // MARK: - Running a request under a watchdog

    /// A request's result and how long it took.
    struct Outcome<Value: Sendable>: Sendable {
        let result: Result<Value, NetworkError>
        let elapsed: TimeInterval
    }

    /// Runs `body` and returns its value, or `nil` if `seconds` pass first.
    ///
    /// Swift Testing's `.timeLimit` cancels a test's task, but it still waits for the test to return:
    /// a continuation that is never resumed (a lost completion) hangs it for ever, as measured on this
    /// toolchain. This watchdog runs `body` in a task of its own and stops waiting when time is up,
    /// so a library hang fails the test instead of hanging CI.
    static func withWatchdog<T: Sendable>(_ seconds: TimeInterval, _ body: @escaping @Sendable () async -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let gate = ResumeOnce(continuation)
            let task = Task { gate.resume(returning: await body()) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                if gate.resume(returning: nil) { task.cancel() }
            }
        }
    }

    /// Resumes a continuation the first time only; later calls return `false`.
    final class ResumeOnce<T: Sendable>: @unchecked Sendable {
        private var continuation: CheckedContinuation<T, Never>?
        private let lock = NSLock()

        init(_ continuation: CheckedContinuation<T, Never>) {
            self.continuation = continuation
        }

        @discardableResult
        func resume(returning value: T) -> Bool {
            lock.lock()
            let continuation = self.continuation
            self.continuation = nil
            lock.unlock()
            continuation?.resume(returning: value)
            return continuation != nil
        }
    }

    /// Sends with `body`, timing it, under a watchdog of the fault's deadline plus `grace` seconds.
    static func measure<Value: Sendable>(
        _ fault: Fault, grace: TimeInterval = 3, _ body: @escaping @Sendable () async throws -> Value,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Outcome<Value> {
        let started = Date()
        let result = await withWatchdog(fault.timeout + grace) { () -> Result<Value, NetworkError> in
            do {
                return .success(try await body())
            } catch let error as NetworkError {
                return .failure(error)
            } catch {
                Issue.record("threw \(type(of: error)), not a NetworkError: \(error)", sourceLocation: sourceLocation)
                return .failure(.underlying(error))
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        let finished = try #require(
            result, "no outcome within \(fault.timeout + grace) s: the request hangs",
            sourceLocation: sourceLocation)
        return Outcome(result: finished, elapsed: elapsed)
    }

    /// The APIError case as the README names it: "`APIError.rateLimited`".
    static func readmeName(of error: APIError) -> String {
        guard case .failed(let networkError) = error else {
            return "`APIError.\(String(describing: error).prefix { $0 != "(" })`"
        }
        let name: String
        switch networkError {
        case .transport: name = "transport"
        case .timedOut: name = "timedOut"
        case .decoding: name = "decoding"
        case .cancelled: name = "cancelled"
        default: name = "\(networkError)"
        }
        return "`APIError.failed(.\(name))`"
    }

    /// A small model: what the fixture's well-formed JSON would be.
    struct Greeting: Decodable, Sendable, Equatable {
        let ok: Bool
    }

    /// Counts the attempts a router makes (each `willSend`), from any thread.
    final class AttemptCounter: PluginType, @unchecked Sendable {
        private var attempts = 0
        private let lock = NSLock()

        func willSend(_ request: URLRequest, context: RequestContext) {
            lock.lock(); attempts += 1; lock.unlock()
        }

        var count: Int { lock.lock(); defer { lock.unlock() }; return attempts }
    }
}

extension Reliability.Fault {
    /// Sends the fault's request through a new router and returns the response or the error.
    func send(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Reliability.Outcome<Response> {
        let router = makeRouter()
        try await prime(router)
        let outcome = try await Reliability.measure(self, { try await router.request(endpoint()) }, sourceLocation: sourceLocation)
        #expect(router.inFlightCount == 0, sourceLocation: sourceLocation)
        return outcome
    }

    /// Sends the fault's request and decodes the body as `T`.
    func send<T: Decodable & Sendable>(
        decoding type: T.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Reliability.Outcome<T> {
        let router = makeRouter()
        try await prime(router)
        let outcome = try await Reliability.measure(
            self, { try await router.request(endpoint(), as: T.self) }, sourceLocation: sourceLocation)
        #expect(router.inFlightCount == 0, sourceLocation: sourceLocation)
        return outcome
    }

    /// Sends the fault's request through a `NetworkManager`, decoding `T`.
    func sendThroughManager<T: Decodable & Sendable>(
        decoding type: T.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (result: Result<T, APIError>, elapsed: TimeInterval) {
        let manager = NetworkManager(router: makeRouter())
        let endpoint = endpoint()
        let started = Date()
        let result = await Reliability.withWatchdog(timeout + 3) { await manager.request(endpoint, as: T.self) }
        let elapsed = Date().timeIntervalSince(started)
        let finished = try #require(
            result, "no outcome within \(timeout + 3) s: the request hangs",
            sourceLocation: sourceLocation)
        return (finished, elapsed)
    }
}

// MARK: - Through Router

extension Reliability {
    /// One test per fault of the fixture server: the exact typed outcome, and how long it took.
    @Suite("Fault injection", .needsFixtureServer, .timeLimit(.minutes(1)))
    struct FaultInjectionTests {
        // MARK: Broken connections

        @Test func aConnectionClosedBeforeAnyResponseIsABadServerResponse() async throws {
            let fault = Fault.closeBeforeResponse
            let outcome = try await fault.send()
            fault.expected.verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 1)
        }

        @Test func aConnectionClosedAfterTheHeadersIsATransportErrorNotAnEmptySuccess() async throws {
            let fault = Fault.closeAfterHeaders
            let outcome = try await fault.send()
            fault.expected.verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 1)
        }

        @Test func aConnectionClosedMidBodyIsATransportErrorNotATruncatedSuccess() async throws {
            // 50,000 of 100,000 announced bytes arrive: a 200 with half a body would be data
            // silently lost.
            let fault = Fault.closeMidBody
            let outcome = try await fault.send()
            fault.expected.verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 1)
        }

        @Test func aBodyShorterThanItsContentLengthIsATransportError() async throws {
            // "hello" where Content-Length promised 20 bytes.
            let fault = Fault.shortBody
            let outcome = try await fault.send()
            fault.expected.verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 1)
        }

        @Test func aBodySentAgainOnAReusedConnectionTimesOutAtTheDeadlineInsteadOfHanging() async throws {
            // When a kept-alive connection turns out closed, libcurl silently sends the request
            // again on a new one, but without its body: client and server then both wait. Raw
            // URLSession hangs for ever (its timeoutInterval does not fire); the router's deadline
            // is what ends it. A prompt transport error would be better: see the report.
            let fault = Fault.bodyOnReusedConnection
            let outcome = try await fault.send()
            fault.expected.verify(outcome.result, timeout: fault.timeout)
            #expect(
                outcome.elapsed >= fault.timeout - 0.05 && outcome.elapsed < fault.timeout + 0.5,
                "took \(outcome.elapsed) s")
        }

        @Test func aFileUploadSentAgainOnAReusedConnectionGoesWithItsBodyAndEndsAtOnce() async throws {
            let fault = Fault.fileUploadOnReusedConnection
            let outcome = try await fault.send()
            fault.expected.verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 1, "took \(outcome.elapsed) s")
        }

        // MARK: Heads libcurl accepts and should not

        @Test func aContentLengthThatIsNotANumberIsABadServerResponseNotATruncatedSuccess() async throws {
            let fault = Fault.malformedContentLength
            let outcome = try await fault.send()
            fault.expected.verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 1)
        }

        @Test func anInvalidStatusLineIsABadServerResponseNotAnUnsupportedURL() async throws {
            let fault = Fault.invalidStatusLine
            let outcome = try await fault.send()
            fault.expected.verify(outcome.result, timeout: fault.timeout)
        }

        @Test func aHugeHeaderLineIsABadServerResponseNotOutOfMemory() async throws {
            let fault = Fault.hugeHeader
            let outcome = try await fault.send()
            fault.expected.verify(outcome.result, timeout: fault.timeout)
        }

        // MARK: Slow servers

        @Test func aServerThatNeverAnswersTimesOutAtTheDeadline() async throws {
            let fault = Fault.hang
            let outcome = try await fault.send()
            fault.expected.verify(outcome.result, timeout: 1)
            #expect(outcome.elapsed >= 0.95 && outcome.elapsed < 1.5, "took \(outcome.elapsed) s")
        }

        @Test func aDripFeedingServerTimesOutAtTheDeadlineNotWhenTheBodyEnds() async throws {
            // A byte a second keeps Foundation's idle timeout from ever firing; only the router's
            // deadline ends the request, at 2 s rather than the 5 s the body would take.
            let fault = Fault.drip
            let outcome = try await fault.send()
            fault.expected.verify(outcome.result, timeout: 2)
            #expect(outcome.elapsed >= 1.95 && outcome.elapsed < 2.6, "took \(outcome.elapsed) s")
        }

        // MARK: Bodies that do not decode

        @Test func malformedJSONIsADecodingErrorThatKeepsTheBody() async throws {
            let fault = Fault.invalidJSON
            let outcome = try await fault.send(decoding: Greeting.self)
            fault.expected.verify(outcome.result, timeout: fault.timeout)
            guard case .failure(.decoding(let error, let response)) = outcome.result else { return }
            guard case .dataCorrupted = error as? DecodingError else {
                Issue.record("expected DecodingError.dataCorrupted, got \(error)")
                return
            }
            #expect(response.statusCode == 200)
            #expect(response.text == #"{"ok": tru"#)
            #expect(outcome.elapsed < 1)
        }

        @Test func jsonOfAnotherShapeIsADecodingErrorNamingTheMissingKey() async throws {
            let fault = Fault.wrongShape
            let outcome = try await fault.send(decoding: Greeting.self)
            fault.expected.verify(outcome.result, timeout: fault.timeout)
            guard case .failure(.decoding(let error, let response)) = outcome.result else { return }
            guard case .keyNotFound(let key, _) = error as? DecodingError else {
                Issue.record("expected DecodingError.keyNotFound, got \(error)")
                return
            }
            #expect(key.stringValue == "ok")
            #expect(response.text == #"{"unexpected":[1,2,3]}"#)
            #expect(outcome.elapsed < 1)
        }

        @Test func anEmptyBodyIsADecodingErrorForANonOptionalType() async throws {
            let fault = Fault.empty
            let outcome = try await fault.send(decoding: Greeting.self)
            fault.expected.verify(outcome.result, timeout: fault.timeout)
            guard case .failure(.decoding(_, let response)) = outcome.result else { return }
            #expect(response.statusCode == 200)
            #expect(response.data.isEmpty)
            #expect(outcome.elapsed < 1)
        }

        @Test func anEmptyBodyDecodesToNilForAnOptionalType() async throws {
            let outcome = try await Fault.empty.send(decoding: Greeting?.self)
            guard case .success(let greeting) = outcome.result else {
                Issue.record("expected nil, got \(outcome.result)")
                return
            }
            #expect(greeting == nil)
        }

        @Test func htmlInsteadOfJSONIsADecodingErrorThatKeepsTheHTML() async throws {
            let fault = Fault.wrongContentType
            let outcome = try await fault.send(decoding: Greeting.self)
            fault.expected.verify(outcome.result, timeout: fault.timeout)
            guard case .failure(.decoding(_, let response)) = outcome.result else { return }
            #expect(response.header("Content-Type") == "text/html")
            #expect(response.text == "<html>not json</html>")
            #expect(outcome.elapsed < 1)
        }

        // MARK: Statuses

        @Test func aBasicAuthChallengeReturnsThe401AtOnceInsteadOfHanging() async throws {
            // Raw FoundationNetworking hangs for ever on this response (DESIGN.md).
            let fault = Fault.basicAuth
            let outcome = try await fault.send()
            fault.expected.verify(outcome.result, timeout: fault.timeout)
            if case .failure(.unacceptableStatusCode(let response)) = outcome.result {
                #expect(response.header("WWW-Authenticate") == #"Basic realm="fixture""#)
            }
            #expect(outcome.elapsed < 2, "took \(outcome.elapsed) s")
        }

        @Test func a429KeepsItsRetryAfter() async throws {
            let fault = Fault.rateLimited
            let outcome = try await fault.send()
            fault.expected.verify(outcome.result, timeout: fault.timeout)
            if case .failure(.unacceptableStatusCode(let response)) = outcome.result {
                #expect(response.retryAfter == .seconds(1))
                #expect(response.text == #"{"status":429}"#)
            }
            // The router's default policy does not retry, so this is the first answer, not a wait.
            #expect(outcome.elapsed < 1)
        }

        @Test func aPassing503IsRetriedToSuccessInTwoAttempts() async throws {
            let fault = Fault.passingUnavailability
            let key = "reliability-\(UUID().uuidString)"
            let router = fault.makeRouter()
            let outcome = try await measure(fault) { try await router.request(fault.endpoint(key: key)) }
            fault.expected.verify(outcome.result, timeout: fault.timeout)
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

        @Test func aRedirectLoopEndsWithTooManyRedirects() async throws {
            let fault = Fault.redirectLoop
            let outcome = try await fault.send()
            fault.expected.verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 2, "took \(outcome.elapsed) s")
        }

        @Test func aRedirectToAClosedPortCannotConnect() async throws {
            let fault = Fault.redirectRefused
            let outcome = try await fault.send()
            fault.expected.verify(outcome.result, timeout: fault.timeout)
            #expect(outcome.elapsed < 1, "took \(outcome.elapsed) s")
        }

        // MARK: Retries

        @Test func aConnectionLostMidBodyIsRetriedByTheDefaultRetryPolicy() async throws {
            // RetryPolicy retries "connection lost" on idempotent requests. FoundationNetworking
            // reports a body cut short as URLError(.unknown); the transport maps it to
            // .networkConnectionLost, as Apple platforms report it, so the GET is retried.
            let policy = RetryPolicy(backoffScale: 0.05)
            let attempts = AttemptCounter()
            let router = Router<TestEndpoint>(
                callbackQueue: DispatchQueue(label: "reliability"), plugins: [attempts], retryPolicy: policy)
            let outcome = try await measure(Fault.closeMidBody) { try await router.request(Fault.closeMidBody.endpoint()) }
            guard case .failure(.transport) = outcome.result else {
                Issue.record("expected a transport error after the retries, got \(outcome.result)")
                return
            }
            #expect(attempts.count == 1 + policy.retryLimit)
        }
    }
}

// MARK: - Through NetworkManager

extension Reliability {
    /// The same faults as `APIError` categories, the way app code sees them.
    @Suite("Fault injection through NetworkManager", .needsFixtureServer, .timeLimit(.minutes(1)))
    struct FaultInjectionManagerTests {
        @Test func a429IsRateLimitedWithItsRetryAfter() async throws {
            let fault = Fault.rateLimited
            let (result, elapsed) = try await fault.sendThroughManager(decoding: Greeting.self)
            guard case .failure(let error) = result, case .rateLimited(let failure) = error else {
                Issue.record("expected APIError.rateLimited, got \(result)")
                return
            }
            #expect(readmeName(of: error) == fault.managerOutcome)
            #expect(failure.statusCode == 429)
            #expect(failure.retryAfter == .seconds(1))
            #expect(elapsed < 1)
        }

        @Test func aServerThatNeverAnswersIsDeadlineExceeded() async throws {
            let fault = Fault.hang
            let (result, elapsed) = try await fault.sendThroughManager(decoding: Greeting.self)
            guard case .failure(let error) = result, case .failed(.timedOut(let after)) = error else {
                Issue.record("expected APIError.failed(.timedOut), got \(result)")
                return
            }
            #expect(readmeName(of: error) == fault.managerOutcome)
            #expect(after == 1)
            #expect(elapsed >= 0.95 && elapsed < 1.5, "took \(elapsed) s")
        }

        @Test func aConnectionClosedMidBodyIsATransportFailure() async throws {
            let fault = Fault.closeMidBody
            let (result, _) = try await fault.sendThroughManager(decoding: Greeting.self)
            guard case .failure(let error) = result, case .failed(.transport(let urlError)) = error else {
                Issue.record("expected APIError.failed(.transport), got \(result)")
                return
            }
            #expect(readmeName(of: error) == fault.managerOutcome)
            #expect(urlError.code == .networkConnectionLost)
        }

        @Test func malformedJSONIsADecodingFailureThatKeepsTheBody() async throws {
            let fault = Fault.invalidJSON
            let (result, _) = try await fault.sendThroughManager(decoding: Greeting.self)
            guard case .failure(let error) = result, case .failed(.decoding(_, let response)) = error else {
                Issue.record("expected APIError.failed(.decoding), got \(result)")
                return
            }
            #expect(readmeName(of: error) == fault.managerOutcome)
            #expect(response.text == #"{"ok": tru"#)
        }

        @Test func anEmptyBodyIsNilForAnOptionalModel() async throws {
            let (result, _) = try await Fault.empty.sendThroughManager(decoding: Greeting?.self)
            guard case .success(let greeting) = result else {
                Issue.record("expected nil, got \(result)")
                return
            }
            #expect(greeting == nil)
        }

        @Test func aBasicAuthChallengeIsAnAuthenticationFailureAtOnce() async throws {
            let fault = Fault.basicAuth
            let (result, elapsed) = try await fault.sendThroughManager(decoding: Greeting.self)
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

// MARK: - Exactly once, whatever the fault

extension Reliability {
    @Suite("Fault injection, completion API", .needsFixtureServer, .timeLimit(.minutes(1)))
    struct FaultInjectionCompletionTests {
        @Test(arguments: Fault.allCases)
        func everyFaultCompletesExactlyOnceWithItsOutcome(_ fault: Fault) async throws {
            let router = fault.makeRouter()
            try await fault.prime(router)
            let counter = CompletionCounter()
            router.request(fault.endpoint(), completion: { counter.record($0) })
            #expect(
                await eventually(within: fault.timeout + 3) { counter.count >= 1 },
                "no completion within \(fault.timeout + 3) s")
            // Late duplicates would arrive after the first completion: give them time to.
            try await Task.sleep(nanoseconds: 300_000_000)
            #expect(counter.count == 1)
            #expect(router.inFlightCount == 0)

            let result = try #require(counter.first)
            if case .decoding = fault.expected {
                fault.expected.verify(
                    result.flatMap { response in
                        Result { () throws(NetworkError) in try response.decode(Greeting.self) }
                    }, timeout: fault.timeout)
            } else {
                fault.expected.verify(result, timeout: fault.timeout)
            }
        }
    }
}

// MARK: - The watchdog itself

extension Reliability {
    /// Every test above relies on ``withWatchdog(_:_:)`` to fail rather than hang: it must
    /// give up on a body that never returns, and not get in the way of one that does.
    @Suite("Watchdog", .timeLimit(.minutes(1)))
    struct WatchdogTests {
        @Test func givesUpOnABodyThatNeverReturns() async {
            let started = Date()
            // A continuation nobody resumes, like a lost completion: cancellation cannot end it.
            let result = await withWatchdog(0.2) {
                await withCheckedContinuation { (_: CheckedContinuation<Int, Never>) in }
            }
            #expect(result == nil)
            #expect(Date().timeIntervalSince(started) < 1)
        }

        @Test func returnsTheValueOfABodyThatFinishes() async {
            #expect(await withWatchdog(5) { 42 } == 42)
        }
    }
}
