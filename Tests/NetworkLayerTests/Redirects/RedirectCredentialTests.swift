import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Redirects are followed by the router, with one rule for credentials on every transport: each
/// test runs over each transport.
@Suite("Redirects and credentials", .needsFixtureServer, .needsHTTPBin)
struct RedirectCredentialTests {
    private func crossOrigin(_ headers: HTTPHeaders = [:]) throws -> TestEndpoint {
        try TestEndpoint.crossOriginRedirect(headers: headers)
    }

    private func echoedHeaders(_ endpoint: TestEndpoint, through router: Router<TestEndpoint>) async throws -> [String: String] {
        let response = try await router.request(endpoint)
        let headers = try #require(try jsonObject(response.data)["headers"] as? [String: Any])
        return Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), "\($0.value)") })
    }

    @Test(arguments: TestTransport.all)
    func aTokenPluginsOwnHeaderDoesNotFollowARedirectToAnotherOrigin(_ transport: TestTransport) async throws {
        let router = transport.router(plugins: [AccessTokenPlugin(placement: .header("X-Auth-Token"), token: { "SECRET" })])
        let headers = try await echoedHeaders(try crossOrigin(["X-Visible": "yes"]), through: router)
        #expect(headers["x-auth-token"] == nil)
        #expect(headers["x-visible"] == "yes")
    }

    @Test(arguments: TestTransport.all)
    func credentialHeadersDoNotFollowEvenWithALoggerThatHidesNothing(_ transport: TestTransport) async throws {
        let router = transport.router(
            plugins: [NetworkLoggerPlugin(redaction: .none, sink: { _ in })],
            redaction: Redaction.default.merging(Redaction(headers: ["X-Session"])))
        let headers = try await echoedHeaders(
            try crossOrigin(["Authorization": "Bearer s", "Cookie": "c=1", "X-Api-Key": "k", "X-Session": "s", "X-Visible": "yes"]),
            through: router)
        for name in ["authorization", "x-api-key", "x-session"] {
            #expect(headers[name] == nil, "\(name) followed the redirect")
        }
        // Foundation adds the cookies it stored for the target's host itself; ours must not follow.
        #expect(headers["cookie"]?.contains("c=1") != true)
        #expect(headers["x-visible"] == "yes")
    }

    @Test(arguments: TestTransport.all)
    func authorizationAndCookieNeverFollowEvenWithRedactionNone(_ transport: TestTransport) async throws {
        let router = transport.router(redaction: .none)
        let headers = try await echoedHeaders(try crossOrigin(["Authorization": "Bearer s", "Cookie": "c=1"]), through: router)
        #expect(headers["authorization"] == nil)
        // Foundation adds the cookies it stored for the target's host itself; ours must not follow.
        #expect(headers["cookie"]?.contains("c=1") != true)
    }

    /// Found from outside: the default redaction named four credential headers, so the API key
    /// headers of common services (GitLab's `Private-Token`, Azure's subscription key, Google's
    /// API key) followed a redirect to another origin unless the router was told about them.
    @Test(arguments: TestTransport.all, ["X-Auth-Token", "X-Access-Token", "X-Goog-Api-Key", "Private-Token", "Ocp-Apim-Subscription-Key"])
    func aCommonServicesKeyHeaderDoesNotFollowARedirectToAnotherOrigin(_ transport: TestTransport, header: String) async throws {
        let headers = try await echoedHeaders(try crossOrigin([header: "s3cret", "X-Visible": "yes"]), through: transport.router())
        #expect(headers[header.lowercased()] == nil, "the other origin received \(header)")
        #expect(headers["x-visible"] == "yes")
    }

    @Test(arguments: TestTransport.all)
    func credentialsFollowARedirectWithinTheOrigin(_ transport: TestTransport) async throws {
        let router = transport.router(plugins: [AccessTokenPlugin(placement: .header("X-Auth-Token"), token: { "SECRET" })])
        var endpoint = TestEndpoint.fixture("redirect-to")
        endpoint.task = .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["url": "/echo"])
        let echo = try jsonObject(try await router.request(endpoint).data)
        #expect((echo["headers"] as? [String: String])?["x-auth-token"] == "SECRET")
    }

    /// Found from outside (2026-11-26): a session whose configuration adds an `Authorization`
    /// (or a fixed `Cookie`) to every request sent it to the other origin of a redirect, since
    /// only the request's own headers can be removed; a session with a delegate does not even say
    /// what it adds. Such a redirect is now refused, and one within the origin still followed.
    @Test(arguments: ["owned", "caller's", "caller's with a delegate"], ["Authorization", "Cookie"])
    func aSessionsOwnCredentialStopsARedirectToAnotherOrigin(session kind: String, header: String) async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = [header: "sess10n-secret"]
        let session =
            kind == "caller's with a delegate"
            ? URLSession(configuration: configuration, delegate: SilentDelegate(), delegateQueue: nil)
            : URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let transport = kind == "owned" ? URLSessionTransport(configuration: configuration) : URLSessionTransport(session: session)
        let router = Router<TestEndpoint>(transport: transport, callbackQueue: DispatchQueue(label: "tests"))
        do {
            let headers = try await echoedHeaders(try crossOrigin(), through: router)
            Issue.record("the redirect was followed; the other origin saw \(headers[header.lowercased()] ?? "no \(header)")")
        } catch NetworkError.transport(let error) {
            #expect(error.code == .userAuthenticationRequired)
            #expect(error.localizedDescription.contains(header))
            #expect(!"\(NetworkError.transport(error))".contains("sess10n-secret"))
        }
        var endpoint = TestEndpoint.fixture("redirect-to")
        endpoint.task = .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["url": "/echo"])
        let echo = try jsonObject(try await router.request(endpoint).data)
        #expect((echo["headers"] as? [String: String])?[header.lowercased()]?.contains("sess10n-secret") == true)
    }

    /// A transport of the caller's that wraps one of ours (the shape `HTTPTransport`'s own example
    /// shows). Found from outside: its `nil` from `headersAdded(to:)` ("cannot tell") was read as
    /// "adds nothing", and only a bare `URLSessionTransport`'s session headers were seen, so a
    /// wrapped session's `Authorization` went to the other origin. A transport that cannot say
    /// what it adds is now not followed across origins; one that says so still is.
    private struct Wrapping: HTTPTransport {
        let base: any HTTPTransport
        let forwardsHeadersAdded: Bool

        func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws -> StreamedResponse {
            try await base.execute(request, body: body, progress: progress)
        }
        func headersAdded(to request: URLRequest) -> HTTPHeaders? {
            forwardsHeadersAdded ? base.headersAdded(to: request) : nil
        }
        var maximumResponseSize: Int { base.maximumResponseSize }
    }

    @Test(arguments: ["owned, not forwarding headersAdded", "caller's with a delegate, forwarding headersAdded"])
    func aWrappedSessionsOwnCredentialStopsARedirectToAnotherOrigin(_ kind: String) async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["Authorization": "Bearer sess10n-secret"]
        let session = URLSession(configuration: configuration, delegate: SilentDelegate(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let base = kind.hasPrefix("owned") ? URLSessionTransport(configuration: configuration) : URLSessionTransport(session: session)
        let router = Router<TestEndpoint>(
            transport: Wrapping(base: base, forwardsHeadersAdded: kind.hasSuffix(", forwarding headersAdded")), callbackQueue: DispatchQueue(label: "tests"))
        do {
            let headers = try await echoedHeaders(try crossOrigin(), through: router)
            Issue.record("the redirect was followed; the other origin saw \(headers["authorization"] ?? "no Authorization")")
        } catch NetworkError.transport(let error) {
            #expect(error.code == .userAuthenticationRequired)
            #expect(error.localizedDescription.contains("headersAdded(to:)"))
        }
    }

    @Test func aWrapperThatSaysWhatItAddsIsFollowedToAnotherOrigin() async throws {
        let router = Router<TestEndpoint>(
            transport: Wrapping(base: URLSessionTransport(), forwardsHeadersAdded: true), callbackQueue: DispatchQueue(label: "tests"))
        let headers = try await echoedHeaders(try crossOrigin(), through: router)
        #expect(headers["authorization"] == nil)
    }

    @Test(arguments: TestTransport.all, [(307, "POST", 11), (308, "POST", 11), (303, "GET", 0), (302, "GET", 0), (301, "GET", 0)])
    func aPOSTRedirectKeepsOrDropsItsBodyAsRFC9110Says(_ transport: TestTransport, redirect: (status: Int, method: String, bodySize: Int)) async throws {
        let (status, method, bodySize) = redirect
        var endpoint = TestEndpoint.fixture("redirect-to", .post)
        endpoint.task = .requestParameters(
            bodyParameters: ["text": "hello"], bodyEncoding: .json, urlParameters: ["url": "/echo", "status": status])
        let echo = try jsonObject(try await transport.router().request(endpoint).data)
        #expect(echo["method"] as? String == method)
        #expect((echo["body_size"] as? Int).map { $0 > 0 } == (bodySize > 0))
        if bodySize == 0 { #expect((echo["headers"] as? [String: String])?["content-type"] == nil) }
    }

    @Test(arguments: TestTransport.all)
    func aFileUploadIsSentAgainAfterA307(_ transport: TestTransport) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("up.bin")
        try Data(repeating: 7, count: 100_000).write(to: file)
        var endpoint = TestEndpoint.fixture("redirect-to", .post)
        endpoint.task = .uploadFile(file, contentType: "application/octet-stream", urlParameters: ["url": "/upload", "status": 307])
        let echo = try jsonObject(try await transport.router().request(endpoint).data)
        #expect(echo["size"] as? Int == 100_000)
    }

    @Test(arguments: TestTransport.all)
    func doNotFollowReturnsTheRedirect(_ transport: TestTransport) async throws {
        let router = transport.router(redirects: .doNotFollow)
        var endpoint = TestEndpoint.fixture("redirect-to")
        endpoint.acceptableStatusCodes = [302]
        endpoint.task = .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["url": "/echo"])
        let response = try await router.request(endpoint)
        #expect(response.statusCode == 302)
        #expect(response.header("Location") == "/echo")
    }

    /// `//a b/x` is no URL; the message said "not http or https", which sent the reader after the
    /// scheme (helper-36).
    @Test(arguments: TestTransport.all)
    func aLocationThatIsNoURLSaysSo(_ transport: TestTransport) async throws {
        var endpoint = TestEndpoint.fixture("redirect-to")
        endpoint.task = .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["url": "//a b/x"])
        await #expect {
            try await transport.router().request(endpoint)
        } throws: { error in
            guard case NetworkError.transport(let urlError) = error else { return false }
            return urlError.code == .badURL && urlError.localizedDescription.contains("not a valid URL")
        }
    }

    @Test(arguments: TestTransport.all)
    func aRedirectToAnotherSchemeFails(_ transport: TestTransport) async throws {
        var endpoint = TestEndpoint.fixture("redirect-to")
        endpoint.task = .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["url": "ftp://127.0.0.1/x"])
        await #expect {
            try await transport.router().request(endpoint)
        } throws: { error in
            guard case NetworkError.transport(let urlError) = error else { return false }
            return urlError.code == .unsupportedURL
        }
    }
}

/// A caller's session delegate that implements nothing: enough for `headersAdded(to:)` to say
/// it cannot tell what the session adds.
private final class SilentDelegate: NSObject, URLSessionDelegate, Sendable {}
