import Foundation
import NetworkLayer
import Testing
import TestSupport
import TransportTestSupport
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
    /// This is the single source of truth for the table of the DocC article Reliability.md:
    /// `ReliabilityTableTests` checks that the table's rows are exactly the ``tableRow``s of these
    /// cases, that each ``outcome`` names the cases its ``expected(over:)`` outcomes assert, and that every
    /// case has a test of its own below. Change an outcome here and the table check fails until the
    /// article says the same.
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

        /// The fixture route, as the article shows it; `{key}` is a fresh key per request.
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

        /// What the user gets, in the article's words; it names ``expected`` and ``managerOutcome``.
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
                return "`NetworkError.unacceptableStatusCode` with status 401 and its body at once, not a hang; "
                    + "`APIError.authentication` from `NetworkManager`"
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
                return "`NetworkError.transport(URLError(.badServerResponse))` at once: the body is sent again on a new "
                    + "connection (`URLSessionTransport` starts the request anew, since FoundationNetworking cannot rewind an in-memory body)"
            case .fileUploadOnReusedConnection:
                return "`NetworkError.transport(URLError(.badServerResponse))` at once: the file is sent again from its start "
                    + "on the new connection"
            case .malformedContentLength:
                return "`NetworkError.transport(URLError(.badServerResponse))` at once, never the 5 bytes libcurl reads as a 200"
            case .invalidStatusLine:
                return "`NetworkError.transport(URLError(.badServerResponse))` (FoundationNetworking says -1002 \"unsupported URL\")"
            case .hugeHeader:
                return "`NetworkError.transport(URLError(.badServerResponse))` (FoundationNetworking says -1 \"Out of memory\")"
            }
        }

        /// The outcome the tests assert through a `Router` over `transport`.
        func expected(over transport: TestTransport) -> Expected {
            switch self {
            case .closeBeforeResponse, .bodyOnReusedConnection, .fileUploadOnReusedConnection, .malformedContentLength,
                .invalidStatusLine, .hugeHeader:
                return .transport(.badServerResponse)
            // FoundationNetworking passes libcurl's "transfer closed with N bytes remaining to read"
            // on as -1; both transports report the code Apple platforms use.
            case .closeAfterHeaders, .closeMidBody, .shortBody: return .transport(.networkConnectionLost)
            case .hang, .drip: return .timedOut
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

        /// The row of the article's table.
        var tableRow: String { "| \(fault) (`\(route)`) | \(outcome) |" }

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
        func makeRouter(over transport: TestTransport, plugins: [any PluginType] = []) -> Router<TestEndpoint> {
            transport.router(
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

            /// How the article names it.
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
}

extension Reliability.Fault {
    /// Sends the fault's request through a new router over `transport` and returns the response
    /// or the error.
    func send(
        over transport: TestTransport, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Reliability.Outcome<Response> {
        let router = makeRouter(over: transport)
        try await prime(router)
        let outcome = try await Reliability.measure(self, { try await router.request(endpoint()) }, sourceLocation: sourceLocation)
        #expect(router.inFlightCount == 0, sourceLocation: sourceLocation)
        return outcome
    }

    /// Sends the fault's request and decodes the body as `T`.
    func send<T: Decodable & Sendable>(
        decoding type: T.Type, over transport: TestTransport, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Reliability.Outcome<T> {
        let router = makeRouter(over: transport)
        try await prime(router)
        let outcome = try await Reliability.measure(
            self, { try await router.request(endpoint(), as: T.self) }, sourceLocation: sourceLocation)
        #expect(router.inFlightCount == 0, sourceLocation: sourceLocation)
        return outcome
    }

    /// Sends the fault's request through a `NetworkManager`, decoding `T`.
    func sendThroughManager<T: Decodable & Sendable>(
        decoding type: T.Type, over transport: TestTransport, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (result: Result<T, APIError>, elapsed: TimeInterval) {
        let manager = NetworkManager(router: makeRouter(over: transport))
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
