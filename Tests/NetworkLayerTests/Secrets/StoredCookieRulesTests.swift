import Foundation
import NetworkLayerCurl
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Found from outside by helper-26 (2026-11-26): a cookie marked `Secure` (RFC 6265 §5.4: sent
/// only over a secure channel) went over plain http from the transport's cookie storage, and a
/// cookie went to paths outside its `Path`: `HTTPCookieStorage.cookies(for:)` on Linux matches
/// the host alone, and FoundationNetworking sends what it gives. Both transports now add the
/// storage's cookies themselves, by the same rule.
@Suite("Cookies of the storage, by RFC 6265", .needsFixtureServer)
struct StoredCookieRulesTests {
    /// The app signed in over https, which set a `Secure` session cookie for the host; a later
    /// request to the same host over plain http (an http endpoint, or a redirect that downgrades)
    /// carried the cookie in clear text.
    @Test(arguments: TestTransport.all)
    func aSecureCookieIsNeverSentOverPlainHTTP(_ transport: TestTransport) async throws {
        let (sender, storage) = try #require(transport.makeWithCookies())
        let fixture = try #require(TestServers.fixture)
        let host = try #require(fixture.host)
        let signIn = try #require(URL(string: "https://\(host)/login"))
        let cookies = HTTPCookie.cookies(
            withResponseHeaderFields: ["Set-Cookie": "sid=sec-SECRET-cookie; Path=/; Secure; HttpOnly"], for: signIn)
        #expect(cookies.first?.isSecure == true)
        storage.setCookies(cookies, for: signIn, mainDocumentURL: signIn)
        let router = Router<TestEndpoint>(transport: sender, callbackQueue: DispatchQueue(label: "tests"))
        let echo = try jsonObject(try await router.request(.fixture("echo")).data)
        let cookie = (echo["headers"] as? [String: String])?["cookie"]
        #expect(cookie?.contains("sec-SECRET-cookie") != true, "sent over http: \(cookie ?? "")")
    }

    /// The same over one request: the https server sets a `Secure` cookie on its redirect to
    /// plain http on the same host (RFC 9110 §15.4: a downgrade the router follows, credentials
    /// of the request dropped), and CurlTransport added the cookie to the http request itself.
    @Test func aSecureCookieSetByAnHTTPSRedirectDoesNotFollowItToPlainHTTP() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let tls = environment["NETWORKLAYER_TLS_FIXTURE_URL"].flatMap(URL.init(string:)),
            let authority = environment["NETWORKLAYER_TLS_CA_FILE"]
        else { return }
        let fixture = try #require(TestServers.fixture)
        let storage = try #require(URLSessionConfiguration.ephemeral.httpCookieStorage)
        let transport = CurlTransport(
            configuration: .init(certificateAuthority: .file(URL(fileURLWithPath: authority)), cookieStorage: storage))
        let router = Router<TestEndpoint>(transport: transport, callbackQueue: DispatchQueue(label: "tests"))
        var endpoint = TestEndpoint(baseURL: tls, path: "secure-cookie-then-redirect")
        endpoint.task = .requestParameters(
            bodyParameters: nil, bodyEncoding: .json, urlParameters: ["next": fixture.appendingPathComponent("echo").absoluteString])
        let echo = try jsonObject(try await router.request(endpoint).data)
        #expect(storage.cookies?.contains { $0.name == "sid" && $0.isSecure } == true, "the https answer set the cookie")
        let cookie = (echo["headers"] as? [String: String])?["cookie"]
        #expect(cookie?.contains("sec-SECRET-cookie") != true, "sent over http: \(cookie ?? "")")
    }

    /// A cookie with `Path=/admin` went with every request to the host (RFC 6265 §5.4 sends it
    /// only to paths under /admin).
    @Test(arguments: TestTransport.all)
    func aCookieIsSentOnlyWithinItsPath(_ transport: TestTransport) async throws {
        let (sender, storage) = try #require(transport.makeWithCookies())
        let fixture = try #require(TestServers.fixture)
        let admin = fixture.appendingPathComponent("admin/login")
        let cookies = HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": "adm=path-SECRET-cookie; Path=/admin"], for: admin)
        storage.setCookies(cookies, for: admin, mainDocumentURL: admin)
        let router = Router<TestEndpoint>(transport: sender, callbackQueue: DispatchQueue(label: "tests"))
        let echo = try jsonObject(try await router.request(.fixture("echo")).data)
        let cookie = (echo["headers"] as? [String: String])?["cookie"]
        #expect(cookie?.contains("path-SECRET-cookie") != true, "sent to /echo: \(cookie ?? "")")
    }

    /// A request's own `Cookie` header is sent as it is, the storage's cookies left out, on both
    /// transports (FoundationNetworking replaced it with the storage's, libcurl kept it), and
    /// the transport reports adding nothing, so that the cache and deduplication key on what was
    /// sent.
    @Test(arguments: TestTransport.all)
    func aRequestsOwnCookieHeaderIsSentAsItIs(_ transport: TestTransport) async throws {
        let (sender, storage) = try #require(transport.makeWithCookies())
        let fixture = try #require(TestServers.fixture)
        let echoURL = fixture.appendingPathComponent("echo")
        storage.setCookies(
            HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": "stored=from-storage; Path=/"], for: echoURL), for: echoURL,
            mainDocumentURL: echoURL)
        var endpoint = TestEndpoint.fixture("echo")
        endpoint.headers = ["Cookie": "own=from-request"]
        var request = URLRequest(url: echoURL)
        #expect(sender.headersAdded(to: request)?["Cookie"] == "stored=from-storage")
        request.setValue("own=from-request", forHTTPHeaderField: "Cookie")
        #expect(sender.headersAdded(to: request)?["Cookie"] == nil)
        let router = Router<TestEndpoint>(transport: sender, callbackQueue: DispatchQueue(label: "tests"))
        let echo = try jsonObject(try await router.request(endpoint).data)
        #expect((echo["headers"] as? [String: String])?["cookie"] == "own=from-request")
    }
}
