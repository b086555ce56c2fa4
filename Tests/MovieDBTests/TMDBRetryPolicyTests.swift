import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MovieDB
import NetworkLayer
import Testing

/// An endpoint of each method TMDB uses, to send through a router with the TMDB rule; the
/// recording transport answers, so the host is never contacted.
private struct Probe: EndPointType {
    var httpMethod: HTTPMethod = .get
    var baseURL: URL { NetworkEnvironment.production.baseURL }
    var path: String { "movie/550/rating" }
    var task: HTTPTask { .request }
    var headers: HTTPHeaders? { nil }
}

/// `RetryPolicy.tmdbRateLimit`, through a router and a scripted transport: what is retried, how
/// often, after how long.
@Suite("TMDB rate limit retries")
struct TMDBRetryPolicyTests {
    private static func status(_ code: Int, retryAfter: String? = nil) -> StubResponse {
        StubResponse(
            statusCode: code, headers: retryAfter.map { ["Retry-After": $0] } ?? [:],
            data: Data(#"{"status_code": 25, "status_message": "Your request count (41) is over the allowed limit of 40."}"#.utf8))
    }

    /// Sends `probe` through a router with `policy`; the transport answers the n-th request with
    /// `answers[n - 1]`, the last one again after that.
    private func send(
        _ probe: Probe = Probe(), policy: RetryPolicy = .tmdbRateLimit, answers: [StubResponse]
    ) async -> (result: Result<Response, NetworkError>, transport: RecordingTransport) {
        let transport = RecordingTransport { _, n in answers[min(n, answers.count) - 1] }
        let router = Router<Probe>(transport: transport, retryPolicy: policy)
        do {
            return (.success(try await router.request(probe)), transport)
        } catch {
            return (.failure(error), transport)
        }
    }

    @Test("The rule: 429 only, any method TMDB uses, 2 retries, Retry-After capped at 10 s")
    func settings() {
        let policy = RetryPolicy.tmdbRateLimit
        #expect(policy.retryableStatusCodes == [429])
        #expect(policy.retryableURLErrorCodes.isEmpty)
        #expect(policy.retryableMethods.isSuperset(of: [.get, .post, .put, .delete]))
        #expect(policy.retryLimit == 2)
        #expect(policy.maximumDelay == 10)
    }

    @Test("A 429 without Retry-After is sent again after 1 s")
    func waitsOneSecondWithoutRetryAfter() async throws {
        let (result, transport) = await send(answers: [Self.status(429), Self.status(200)])

        let response = try result.get()
        #expect(response.statusCode == 200)
        #expect(transport.requests.count == 2)
        #expect(response.metrics?.retryWait == 1)
    }

    @Test("A 429 with Retry-After is sent again after what it says")
    func waitsRetryAfter() async throws {
        let (result, transport) = await send(answers: [Self.status(429, retryAfter: "0"), Self.status(200)])

        let response = try result.get()
        #expect(response.statusCode == 200)
        #expect(transport.requests.count == 2)
        #expect(response.metrics?.retryWait == 0)
    }

    @Test("A Retry-After longer than the cap waits the cap, not what the server asked")
    func retryAfterIsCapped() async throws {
        // The same rule with a 50 ms cap, so that the test does not wait 10 s; without the cap,
        // a day's wait would not fit in the deadline and the 429 would be final.
        var policy = RetryPolicy.tmdbRateLimit
        policy.maximumDelay = 0.05
        let (result, transport) = await send(policy: policy, answers: [Self.status(429, retryAfter: "86400"), Self.status(200)])

        let response = try result.get()
        #expect(transport.requests.count == 2)
        #expect(response.metrics?.retryWait == 0.05)
    }

    @Test("A 429 that persists is returned after two retries, with its body")
    func givesUpAfterTwoRetries() async throws {
        let (result, transport) = await send(answers: [Self.status(429, retryAfter: "0")])

        #expect(transport.requests.count == 3)
        guard case .failure(.unacceptableStatusCode(let response)) = result else {
            Issue.record("expected a 429, got \(result)")
            return
        }
        #expect(response.statusCode == 429)
        #expect(response.text.contains("over the allowed limit"))
    }

    @Test("A POST is sent again after a 429, which TMDB did not process", arguments: [HTTPMethod.post, .delete])
    func unsafeMethodsAreRetriedOn429(method: HTTPMethod) async throws {
        let (result, transport) = await send(
            Probe(httpMethod: method), answers: [Self.status(429, retryAfter: "0"), Self.status(200)])

        #expect(try result.get().statusCode == 200)
        #expect(transport.requests.map(\.httpMethod) == [method.rawValue, method.rawValue])
    }

    @Test("A 503 is final, even for a GET: only 429 says the request was not processed")
    func otherStatusesAreFinal() async {
        let (result, transport) = await send(answers: [Self.status(503, retryAfter: "0"), Self.status(200)])

        #expect(transport.requests.count == 1)
        guard case .failure(.unacceptableStatusCode(let response)) = result else {
            Issue.record("expected a 503, got \(result)")
            return
        }
        #expect(response.statusCode == 503)
    }

    @Test("A lost connection is final: the server may have carried the request out")
    func transportErrorsAreFinal() async {
        let transport = RecordingTransport { _, _ in throw URLError(.networkConnectionLost) }
        let router = Router<Probe>(transport: transport, retryPolicy: .tmdbRateLimit)
        let error = await #expect(throws: NetworkError.self) { try await router.request(Probe(httpMethod: .post)) }

        #expect(transport.requests.count == 1)
        guard case .transport(let urlError) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(urlError.code == .networkConnectionLost)
    }
}
