import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Inputs that callers, endpoints and servers control, each of which once could trap the
/// process, leak a secret or send something other than what was described.
@Suite("Hardening")
struct HardeningTests {
    @Test(.needsHTTPBin, arguments: TestTransport.all)
    func credentialsDoNotFollowARedirectToAnotherOrigin(_ transport: TestTransport) async throws {
        let base = try #require(TestServers.httpbin)
        let port = try #require(base.port)
        // Same server, other origin: 127.0.0.1 redirects to localhost.
        let target = "http://localhost:\(port)/headers"
        var endpoint = TestEndpoint.httpbin("redirect-to", headers: ["Authorization": "Bearer s3cret", "X-Visible": "yes"])
        endpoint.task = .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["url": target])
        let headers = try #require(try jsonObject(try await transport.router().request(endpoint).data)["headers"] as? [String: String])
        #expect(headers["Authorization"] == nil)
        #expect(headers["X-Visible"] == "yes")
        #expect(headers["Host"] == "localhost:\(port)")
    }

    @Test(.needsHTTPBin, arguments: TestTransport.all)
    func credentialsFollowARedirectWithinTheOrigin(_ transport: TestTransport) async throws {
        let endpoint = TestEndpoint.httpbin("redirect/1", headers: ["Authorization": "Bearer s3cret"])
        let echo = try jsonObject(try await transport.router().request(endpoint).data)
        #expect((echo["headers"] as? [String: String])?["Authorization"] == "Bearer s3cret")
    }

    @Test func sameOriginRules() throws {
        func same(_ a: String, _ b: String) throws -> Bool {
            Origin(try #require(URL(string: a))).contains(try #require(URL(string: b)))
        }
        #expect(try same("https://A.example/x", "https://a.example:443/y"))
        #expect(try !same("https://a.example/x", "http://a.example/x"))
        #expect(try !same("https://a.example/x", "https://b.example/x"))
        #expect(try !same("http://a.example/x", "http://a.example:8080/x"))
    }

    @Test func aHeaderInjectedByAPluginIsRejected() async throws {
        struct Injecting: PluginType {
            func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
                var request = request
                request.setValue("1", forHTTPHeaderField: "X-A\r\nX-Evil")
                return request
            }
        }
        let router = Router<TestEndpoint>(transport: StubTransport(StubResponse()), plugins: [Injecting()])
        do {
            _ = try await router.request(.offline())
            Issue.record("expected the header to be rejected")
        } catch NetworkError.invalidRequest(.invalidHeaderName(let name)) {
            #expect(name == "X-A\\r\\nX-Evil")
        } catch {
            Issue.record("unexpected error: \(error)")
        }
    }

    @Test func aMethodThatIsNotATokenIsRejected() {
        let endpoint = TestEndpoint.offline("x", HTTPMethod(rawValue: "GET /admin HTTP/1.1\r\nX"))
        #expect {
            try RequestBuilder.makeRequest(for: endpoint)
        } throws: { error in
            guard case NetworkError.invalidRequest(.invalidMethod(let method)) = error else { return false }
            return method == "GET /admin HTTP/1.1\\r\\nX"
        }
    }

    /// `/dev/zero` and `/dev/null` are devices: read whole into memory, the first never ends
    /// (found from outside, 2026-11-26).
    @Test(arguments: ["https://example.invalid/file.bin", "file:///no/such/file", "file:///tmp", "file:///dev/zero", "file:///dev/null"])
    func anUploadFileThatIsNotAReadableLocalFileIsRejected(url: String) throws {
        let endpoint = TestEndpoint.offline("x", .post, task: .uploadFile(try #require(URL(string: url))))
        #expect {
            try RequestBuilder.makeRequest(for: endpoint)
        } throws: { error in
            guard case NetworkError.invalidRequest(.unreadableUploadFile(let rejected)) = error else { return false }
            return rejected == url
        }
    }

    @Test func aHugeRetryAfterIsCappedAndDescribable() throws {
        let value = try #require(RetryAfter(headerValue: "10000000000000000000"))
        #expect(value == .seconds(1_000_000_000))
        let url = try #require(URL(string: "https://example.invalid"))
        let http = try #require(HTTPURLResponse(url: url, statusCode: 429, httpVersion: nil, headerFields: ["Retry-After": "10000000000000000000"]))
        let failure = HTTPFailure(response: Response(request: URLRequest(url: url), httpResponse: http, data: Data()), serverMessage: nil)
        #expect(APIError.rateLimited(failure).localizedDescription.contains("Retry after 1000000000 s."))
    }

    @Test func nonsensicalRetrySettingsDoNotTrap() throws {
        let url = try #require(URL(string: "https://example.invalid"))
        let http = try #require(HTTPURLResponse(url: url, statusCode: 503, httpVersion: nil, headerFields: nil))
        let attempt = RetryPolicy.FailedAttempt(
            request: URLRequest(url: url), error: .unacceptableStatusCode(Response(request: URLRequest(url: url), httpResponse: http, data: Data())),
            retryCount: 0)
        #expect(RetryPolicy(maximumDelay: -1).delay(for: attempt) == 0)
        let jittery = try #require(RetryPolicy(jitter: .infinity).delay(for: attempt))
        #expect(jittery >= 0 && jittery <= 1)
        #expect(RetryPolicy(jitter: .nan).delay(for: attempt) == 0.5)
    }

    @Test func aMultipartMimeTypeCannotStartAHeader() throws {
        var form = MultipartFormData()
        form.append(Data("x".utf8), name: "f", fileName: "f.png", mimeType: "image/png\r\nX-Injected: 1")
        let body = String(decoding: try form.encode(), as: UTF8.self)
        #expect(body.contains("Content-Type: image/png%0D%0AX-Injected: 1\r\n"))
        #expect(!body.contains("\r\nX-Injected"))
    }

    @Test func anEarlierStatusErrorDoesNotUseUpTheTokenRefresh() async throws {
        // 503 first (retried), then 401 for the stale token, then 200 with the refreshed one.
        let attempts = Locked(0)
        let transport = StubTransport { request in
            let attempt = attempts.withLock {
                $0 += 1; return $0
            }
            if attempt == 1 { return StubResponse(statusCode: 503) }
            return request.value(forHTTPHeaderField: "Authorization") == "Bearer fresh" ? StubResponse() : StubResponse(statusCode: 401)
        }
        let refreshes = CallCounter()
        let plugin = AccessTokenPlugin(
            token: { "stale" },
            refresh: { _ in
                await refreshes.increment(); return "fresh"
            })
        let router = Router<TestEndpoint>(transport: transport, plugins: [plugin], retryPolicy: RetryPolicy(backoffScale: 0.01))
        #expect(try await router.request(.offline()).statusCode == 200)
        #expect(await refreshes.count == 1)
        #expect(attempts.withLock { $0 } == 3)
    }

    @Test func formBodiesAreRedactedInCURLAndLogs() async throws {
        let endpoint = TestEndpoint.offline(
            "token", .post,
            task: .requestParameters(bodyParameters: ["password": "pa55", "client_secret": "c5", "user": "ann"], bodyEncoding: .urlForm, urlParameters: nil))
        let request = try RequestBuilder.makeRequest(for: endpoint)
        let curl = request.cURLDescription()
        #expect(!curl.contains("pa55") && !curl.contains("c5"))
        #expect(curl.contains("user=ann"))
        #expect(request.cURLDescription(redaction: .none).contains("password=pa55"))

        let sink = LineSink()
        let router = Router<TestEndpoint>(
            transport: StubTransport(StubResponse()), plugins: [NetworkLoggerPlugin(options: [.bodies], sink: { sink.write($0) })])
        _ = try await router.request(endpoint)
        #expect(!sink.text.contains("pa55") && !sink.text.contains("c5"))
        #expect(sink.text.contains("user=ann"))
    }

    @Test func descriptionsRedactSecrets() throws {
        let url = try #require(URL(string: "https://user:pa55@example.invalid/x?api_key=k3y&page=2"))
        let http = try #require(HTTPURLResponse(url: url, statusCode: 500, httpVersion: nil, headerFields: nil))
        let response = Response(request: URLRequest(url: url), httpResponse: http, data: Data())
        #expect(!response.description.contains("k3y"))
        #expect(!response.description.contains("pa55"))
        #expect(response.description.contains("page=2"))
        #expect(!RequestBuildingError.invalidURL("https://example.invalid/?token=t0k").message.contains("t0k"))
    }
}
