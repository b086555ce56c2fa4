import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Two users, one cache: the second user never receives the first user's body from the cache,
/// whatever carries the credential (a header the router was told is secret, a token that
/// `AccessTokenPlugin` puts in a header, a cookie the session adds from its storage). Against
/// the fixture's `/cache/whoami`, which echoes the credentials it received and is cacheable.
@Suite("The cache keeps users apart", .needsFixtureServer)
struct CacheCredentialIsolationTests {
    struct WhoAmI: Decodable {
        let hit: Int
        let authToken: String?
        let cookie: String?

        enum CodingKeys: String, CodingKey {
            case hit
            case authToken = "x-auth-token"
            case cookie
        }
    }

    private func whoami(_ key: String, headers: HTTPHeaders? = nil) -> TestEndpoint {
        var endpoint = TestEndpoint.fixture("cache/whoami/\(key)")
        endpoint.headers = headers
        return endpoint
    }

    private func answer(_ response: Response) throws -> WhoAmI {
        try JSONDecoder().decode(WhoAmI.self, from: response.data)
    }

    @Test(arguments: TestTransport.all)
    func aHeaderTheRouterWasToldIsSecretSeparatesUsers(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let router = Router<TestEndpoint>(
            transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"),
            redaction: .default.merging(Redaction(headers: ["X-Auth-Token"])), cache: .inMemory())
        let alice = try await router.request(whoami(key, headers: ["X-Auth-Token": "alice"]))
        #expect(try answer(alice).authToken == "alice")
        let bob = try await router.request(whoami(key, headers: ["X-Auth-Token": "bob"]))
        #expect(try answer(bob).authToken == "bob")
        #expect(bob.cacheOutcome == .network)
        // Each user's own response is still served from the cache.
        #expect(try await router.request(whoami(key, headers: ["X-Auth-Token": "alice"])).cacheOutcome == .hit)
    }

    @Test(arguments: TestTransport.all)
    func aTokenAccessTokenPluginPutsInACustomHeaderSeparatesUsers(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let user = Locked("alice")
        let plugin = AccessTokenPlugin(placement: .header("X-Auth-Token"), token: { user.withLock { $0 } })
        let router = Router<TestEndpoint>(
            transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"), plugins: [plugin], cache: .inMemory())
        #expect(try answer(try await router.request(whoami(key))).authToken == "alice")
        user.withLock { $0 = "bob" }
        let bob = try await router.request(whoami(key))
        #expect(try answer(bob).authToken == "bob")
        #expect(bob.cacheOutcome == .network)
    }

    /// The session's `httpCookieStorage` on URLSession, the configuration's `cookieStorage` on curl.
    @Test(arguments: TestTransport.all)
    func aCookieFromTheSessionsCookieStorageSeparatesUsers(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let (made, storage) = try #require(transport.makeWithCookies())
        try storage.setCookie(#require(Self.cookie("alice")))
        let router = Router<TestEndpoint>(transport: made, callbackQueue: DispatchQueue(label: "tests"), cache: .inMemory())
        #expect(try answer(try await router.request(whoami(key))).cookie == "session=alice")
        try storage.setCookie(#require(Self.cookie("bob")))
        let bob = try await router.request(whoami(key))
        #expect(try answer(bob).cookie == "session=bob")
        #expect(bob.cacheOutcome == .network)
    }

    /// A cookie for the path a redirect leads to, over a redirect. (FoundationNetworking's cookie
    /// storage ignores a cookie's path and sends it to the whole host; the next suite covers a
    /// transport that adds a cookie only after the redirect.)
    @Test(arguments: TestTransport.all)
    func aCookieOverARedirectSeparatesUsers(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let fixture = try #require(TestServers.fixture)
        let (made, storage) = try #require(transport.makeWithCookies())
        try storage.setCookie(#require(Self.cookie("alice", path: "/cache/whoami")))
        let router = Router<TestEndpoint>(transport: made, callbackQueue: DispatchQueue(label: "tests"), cache: .inMemory())
        let target = fixture.appendingPathComponent("cache/whoami/\(key)").absoluteString
        let escaped = try #require(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let start = TestEndpoint.fixture("redirect-to?url=\(escaped)&status=302")
        #expect(try answer(try await router.request(start)).cookie == "session=alice")
        try storage.setCookie(#require(Self.cookie("bob", path: "/cache/whoami")))
        let bob = try await router.request(start)
        #expect(try answer(bob).cookie == "session=bob")
    }

    @Test(arguments: TestTransport.all)
    func aTransportThatCannotTellWhatItAddsIsNeitherAnsweredNorStored(_ transport: TestTransport) async throws {
        /// Wraps a transport without saying what it adds: it might add anything.
        struct Opaque: HTTPTransport {
            let base: any HTTPTransport
            func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws -> StreamedResponse {
                try await base.execute(request, body: body, progress: progress)
            }
        }
        let key = UUID().uuidString
        let router = Router<TestEndpoint>(
            transport: Opaque(base: transport.make()), callbackQueue: DispatchQueue(label: "tests"), cache: .inMemory())
        #expect(try answer(try await router.request(whoami(key))).hit == 1)
        let second = try await router.request(whoami(key))
        #expect(try answer(second).hit == 2)
        #expect(second.cacheOutcome == .network)
    }

    /// Found from outside: an owned session's fixed `Cookie` (its configuration's
    /// `httpAdditionalHeaders`) was dropped from what the transport reports it adds whenever its
    /// cookie storage had none for the URL, so two users sharing one cache had one key.
    @Test func aSessionsFixedCookieSeparatesUsersInOneCache() async throws {
        let key = UUID().uuidString
        let cache = HTTPCache.inMemory()
        func router(_ user: String) -> Router<TestEndpoint> {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["Cookie": "session=\(user)"]
            return Router(transport: URLSessionTransport(configuration: configuration), callbackQueue: DispatchQueue(label: "tests"), cache: cache)
        }
        #expect(try answer(try await router("alice").request(whoami(key))).cookie == "session=alice")
        let bob = try await router("bob").request(whoami(key))
        #expect(try answer(bob).cookie == "session=bob", "bob was given alice's answer from the cache")
        #expect(bob.cacheOutcome == .network)
    }

    private static func cookie(_ user: String, path: String = "/") -> HTTPCookie? {
        HTTPCookie(properties: [.domain: "127.0.0.1", .path: path, .name: "session", .value: user])
    }
}

/// A transport that adds a credential only to the request a redirect leads to (a cookie for
/// that path alone, as Apple platforms' cookie storage does): the first request carries none,
/// the one that gets the answer carries the user's. The answer is not stored under the first
/// request's key. No wire: what is checked is the cache stage's reading of the transport.
@Suite("The cache keeps users apart across a redirect")
struct CacheRedirectCredentialTests {
    final class CookieOnlyAtTheTarget: HTTPTransport, @unchecked Sendable {
        let user = Locked("alice")
        private let hits = Locked(0)

        func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws -> StreamedResponse {
            let url = try #require(request.url)
            if url.path == "/start" {
                let target = try #require(URL(string: "/target", relativeTo: url)?.absoluteURL)
                let response = try #require(
                    HTTPURLResponse(url: url, statusCode: 302, httpVersion: "HTTP/1.1", headerFields: ["Location": target.absoluteString]))
                return StreamedResponse(response: response, body: BodyStream(Data()))
            }
            hits.withLock { $0 += 1 }
            let response = try #require(
                HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Cache-Control": "max-age=60"]))
            return StreamedResponse(response: response, body: BodyStream(Data((headersAdded(to: request)?["Cookie"] ?? "nobody").utf8)))
        }

        func headersAdded(to request: URLRequest) -> HTTPHeaders? {
            request.url?.path == "/target" ? ["Cookie": "session=\(user.withLock { $0 })"] : [:]
        }
    }

    /// A redirect to the same URL that logs the user in on the way (`302` to itself with a
    /// `Set-Cookie`, a common pattern): the answer comes with a cookie the first request did not
    /// carry. Found from outside: it was stored under the cookieless key, and served to the next
    /// anonymous request.
    final class LogsInOnTheWay: HTTPTransport, @unchecked Sendable {
        enum State { case anonymous, loggedIn, loggedOut }
        let state = Locked(State.anonymous)

        func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws -> StreamedResponse {
            let url = try #require(request.url)
            if state.withLock({ $0 }) == .anonymous {
                state.withLock { $0 = .loggedIn }
                let response = try #require(
                    HTTPURLResponse(url: url, statusCode: 302, httpVersion: "HTTP/1.1", headerFields: ["Location": url.absoluteString]))
                return StreamedResponse(response: response, body: BodyStream(Data()))
            }
            let response = try #require(
                HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Cache-Control": "private, max-age=60"]))
            return StreamedResponse(response: response, body: BodyStream(Data((headersAdded(to: request)?["Cookie"] ?? "nobody").utf8)))
        }

        func headersAdded(to request: URLRequest) -> HTTPHeaders? {
            state.withLock { $0 } == .loggedIn ? ["Cookie": "session=alice"] : [:]
        }
    }

    @Test func anAnswerAfterARedirectToTheSameURLThatLoggedInIsNotStoredForTheAnonymousRequest() async throws {
        let transport = LogsInOnTheWay()
        let router = Router<TestEndpoint>(transport: transport, callbackQueue: DispatchQueue(label: "tests"), cache: .inMemory())
        let me = TestEndpoint(baseURL: try #require(URL(string: "https://api.example.invalid")), path: "me")
        #expect(String(decoding: try await router.request(me).data, as: UTF8.self) == "session=alice")
        transport.state.withLock { $0 = .loggedOut }
        let anonymous = try await router.request(me)
        #expect(anonymous.cacheOutcome == .network)
        #expect(String(decoding: anonymous.data, as: UTF8.self) == "nobody", "alice's page was served to an anonymous request")
    }

    /// Without a redirect, an answer that sets a cookie (the transport stores it as the head
    /// arrives) is still stored under the request's key: the credentials on the wire were those
    /// of the lookup.
    final class SetsACookieWithTheAnswer: HTTPTransport, @unchecked Sendable {
        let loggedIn = Locked(false)

        func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws -> StreamedResponse {
            let url = try #require(request.url)
            loggedIn.withLock { $0 = true }
            let response = try #require(
                HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Cache-Control": "max-age=60"]))
            return StreamedResponse(response: response, body: BodyStream(Data("public".utf8)))
        }

        func headersAdded(to request: URLRequest) -> HTTPHeaders? {
            loggedIn.withLock { $0 } ? ["Cookie": "session=alice"] : [:]
        }
    }

    @Test func anAnswerWithoutARedirectIsStoredEvenWhenItSetACookie() async throws {
        let transport = SetsACookieWithTheAnswer()
        let router = Router<TestEndpoint>(transport: transport, callbackQueue: DispatchQueue(label: "tests"), cache: .inMemory())
        let page = TestEndpoint(baseURL: try #require(URL(string: "https://api.example.invalid")), path: "page")
        _ = try await router.request(page)
        transport.loggedIn.withLock { $0 = false }
        #expect(try await router.request(page).cacheOutcome == .hit)
    }

    @Test func anAnswerReceivedWithOtherCredentialsThanTheFirstRequestsIsNotStored() async throws {
        let transport = CookieOnlyAtTheTarget()
        let router = Router<TestEndpoint>(transport: transport, callbackQueue: DispatchQueue(label: "tests"), cache: .inMemory())
        let start = TestEndpoint(baseURL: try #require(URL(string: "https://api.example.invalid")), path: "start")
        #expect(String(decoding: try await router.request(start).data, as: UTF8.self) == "session=alice")
        transport.user.withLock { $0 = "bob" }
        let bob = try await router.request(start)
        #expect(String(decoding: bob.data, as: UTF8.self) == "session=bob")
        #expect(bob.cacheOutcome == .network)
    }
}
