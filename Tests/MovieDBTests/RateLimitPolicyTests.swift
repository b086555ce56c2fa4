import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MovieDB
import NetworkLayer
import Testing

/// The 429 rule, without a server: how long to wait and how often to try.
@Suite("Rate limit retries")
struct RateLimitPolicyTests {
    private func rateLimited(retryAfter: String?) throws -> APIError {
        let url = try #require(URL(string: "https://api.themoviedb.org/3/movie/1"))
        let http = try #require(
            HTTPURLResponse(
                url: url, statusCode: 429, httpVersion: "HTTP/1.1", headerFields: retryAfter.map { ["Retry-After": $0] } ?? [:]))
        let response = Response(request: URLRequest(url: url), httpResponse: http, data: Data())
        return .rateLimited(HTTPFailure(response: response, serverMessage: "slow down"))
    }

    private func failure(_ error: APIError) throws -> HTTPFailure {
        try #require(error.httpFailure)
    }

    @Test("Waits Retry-After, 1 s without it, and never more than 10 s")
    func delays() throws {
        let policy = RateLimitPolicy.standard
        #expect(policy.delay(after: try failure(rateLimited(retryAfter: "3"))) == 3)
        #expect(policy.delay(after: try failure(rateLimited(retryAfter: nil))) == 1)
        #expect(policy.delay(after: try failure(rateLimited(retryAfter: "86400"))) == 10)
    }

    @Test("Gives up with the 429 after two retries")
    func givesUpAfterTwoRetries() async throws {
        let error = try rateLimited(retryAfter: "0")
        let attempts = Counter()
        let thrown = await apiError { () async throws(APIError) -> Int in
            try await RateLimitPolicy.standard.run { () async throws(APIError) -> Int in
                attempts.increment()
                throw error
            }
        }
        #expect(attempts.value == 3)
        guard case .rateLimited(let failure) = thrown else {
            Issue.record("expected .rateLimited, got \(String(describing: thrown))")
            return
        }
        #expect(failure.serverMessage == "slow down")
    }

    @Test("Other errors are not retried")
    func otherErrorsAreFinal() async {
        let attempts = Counter()
        let thrown = await apiError { () async throws(APIError) -> Int in
            try await RateLimitPolicy.standard.run { () async throws(APIError) -> Int in
                attempts.increment()
                throw APIError.failed(.cancelled)
            }
        }
        #expect(attempts.value == 1)
        guard case .failed(.cancelled) = thrown else {
            Issue.record("expected .cancelled, got \(String(describing: thrown))")
            return
        }
    }

    @Test("Succeeds when a retry succeeds")
    func retrySucceeds() async throws {
        let error = try rateLimited(retryAfter: "0")
        let attempts = Counter()
        let value = try await RateLimitPolicy.standard.run { () async throws(APIError) -> String in
            attempts.increment()
            if attempts.value == 1 { throw error }
            return "ok"
        }
        #expect(value == "ok")
        #expect(attempts.value == 2)
    }
}

/// A count shared with a closure.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
