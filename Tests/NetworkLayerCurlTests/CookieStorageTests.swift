import Foundation
import NetworkLayer
import NetworkLayerCurl
import Testing
import TestSupport
import TransportTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Cookies kept in an `HTTPCookieStorage`: the session's on URLSession, the configuration's
/// `cookieStorage` on curl. Each test has a new, empty, in-memory storage.
@Suite("Cookie storage")
struct CookieStorageTests {
    /// httpbin's `/cookies`: the cookies the request carried, by name.
    private func cookiesReceived(by transport: any HTTPTransport, _ request: URLRequest) async throws -> [String: String] {
        let (data, _) = try await transport.send(request)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["cookies"] as? [String: String])
    }

    @Test(.needsHTTPBin, arguments: TestTransport.all)
    func aSetCookieIsStoredAndSentBackOnTheNextRequest(_ kind: TestTransport) async throws {
        let (transport, storage) = try #require(kind.makeWithCookies())
        let flavor = UUID().uuidString
        // A 302 with Set-Cookie, to /cookies.
        _ = try await transport.send(httpbinRequest("/cookies/set?flavor=\(flavor)"))
        let url = try #require(httpbinRequest("/cookies").url)
        #expect(storage.cookies(for: url)?.first { $0.name == "flavor" }?.value == flavor)
        #expect(try await cookiesReceived(by: transport, httpbinRequest("/cookies"))["flavor"] == flavor)
    }

    /// Curl only: FoundationNetworking sends the stored cookies with a request's own `Cookie`
    /// too (and `URLSessionTransport.headersAdded(to:)` reports them so).
    @Test(.needsHTTPBin)
    func aRequestsOwnCookieHeaderIsSentInsteadOfTheStoredCookies() async throws {
        let (transport, storage) = try #require(TestTransport.curl.makeWithCookies())
        let url = try #require(httpbinRequest("/cookies").url)
        let stored = try #require(
            HTTPCookie(properties: [.domain: url.host ?? "", .path: "/", .name: "stored", .value: "1"]))
        storage.setCookie(stored)
        var request = httpbinRequest("/cookies")
        request.setValue("own=2", forHTTPHeaderField: "Cookie")
        #expect(try await cookiesReceived(by: transport, request) == ["own": "2"])
    }

    /// Two Set-Cookie fields, the first with an `Expires` date (which has a comma), on a 404.
    @Test(.needsFixtureServer, arguments: TestTransport.all)
    func everySetCookieOfAnErrorStatusIsStored(_ kind: TestTransport) async throws {
        let (transport, storage) = try #require(kind.makeWithCookies())
        let (_, response) = try await transport.send(fixtureRequest("/set-cookies?status=404"))
        #expect(response.statusCode == 404)
        let url = try #require(fixtureRequest("/").url)
        let cookies = storage.cookies(for: url) ?? []
        #expect(Set(cookies.map(\.name)) == ["expiring", "plain"])
        let expiring = try #require(cookies.first { $0.name == "expiring" })
        #expect(expiring.value == "1")
        #expect(expiring.expiresDate == Date(timeIntervalSince1970: 4_096_250_880))
        #expect(cookies.first { $0.name == "plain" }?.value == "2")
    }

    @Test func curlReportsTheCookieItWillAddToTheCache() throws {
        let storage = try #require(URLSessionConfiguration.ephemeral.httpCookieStorage)
        let url = try #require(URL(string: "http://127.0.0.1:9/whoami"))
        try storage.setCookie(#require(HTTPCookie(properties: [.domain: "127.0.0.1", .path: "/", .name: "session", .value: "alice"])))
        let transport = CurlTransport(configuration: .init(cookieStorage: storage))
        #expect(transport.headersAdded(to: URLRequest(url: url)) == ["Cookie": "session=alice"])
        var own = URLRequest(url: url)
        own.setValue("session=bob", forHTTPHeaderField: "Cookie")
        #expect(transport.headersAdded(to: own) == [:])
        #expect(CurlTransport().headersAdded(to: URLRequest(url: url)) == [:])
    }
}
