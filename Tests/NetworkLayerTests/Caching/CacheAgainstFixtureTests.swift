import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTPCache in front of a real server (the fixture's caching routes) through
/// URLSessionTransport: each rule shown by the server's hit counter and the body received.
/// The router's own cache stage brings its tests with it.
@Suite("HTTP cache against the fixture server", .needsFixtureServer, .serialized)
struct CacheAgainstFixtureTests {
    let key = UUID().uuidString
    let cache: HTTPCache
    /// One transport for the suite: each owns two URLSessions, and a session per test made the
    /// start of the test run slow enough to break other suites' sub-second deadlines.
    private let transport = Self.sharedTransport
    private static let sharedTransport = URLSessionTransport()

    init() throws {
        cache = try HTTPCache()
    }

    /// One request the way the router's stage will send it.
    private func send(_ path: String, method: String = "GET", headers: [String: String] = [:]) async throws -> (
        body: [String: Any], outcome: CacheOutcome
    ) {
        let base = try #require(TestServers.fixture)
        var request = URLRequest(url: try #require(URL(string: base.absoluteString + path)))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        switch cache.lookup(request) {
        case .hit(let response, let outcome):
            return (try jsonObject(response.data), outcome)
        case .send(let sent, let pending):
            let (data, http) = try await transport.send(sent)
            let (response, outcome) = cache.complete(pending, with: Response(request: sent, httpResponse: http, data: data))
            return (response.data.isEmpty ? [:] : try jsonObject(response.data), outcome)
        case .notCached:
            throw NetworkError.cache(.notCached)
        }
    }

    private func stats() async throws -> [String: Any] {
        let base = try #require(TestServers.fixture)
        let (data, _) = try await transport.send(URLRequest(url: try #require(URL(string: "\(base.absoluteString)/cache/stats/\(key)"))))
        return try jsonObject(data)
    }

    @Test func aFreshResponseIsServedWithoutReachingTheServer() async throws {
        _ = try await send("/cache/max-age/\(key)")
        let second = try await send("/cache/max-age/\(key)")
        #expect(second.outcome == .hit)
        #expect(second.body["hit"] as? Int == 1)
        #expect(try await stats()["hits"] as? Int == 1)
    }

    @Test func aNoStoreResponseReachesTheServerEveryTime() async throws {
        _ = try await send("/cache/no-store/\(key)")
        #expect(try await send("/cache/no-store/\(key)").body["hit"] as? Int == 2)
    }

    @Test func aStaleETagIsRevalidatedAndTheStoredBodyServed() async throws {
        _ = try await send("/cache/etag/\(key)")
        let second = try await send("/cache/etag/\(key)")
        #expect(second.outcome == .revalidated)
        #expect(second.body["hit"] as? Int == 1)
        let counts = try await stats()
        #expect(counts["not_modified"] as? Int == 1)
        #expect(counts["last_if_none_match"] as? String == #""v1""#)
    }

    @Test func aLastModifiedIsRevalidatedWithIfModifiedSince() async throws {
        _ = try await send("/cache/last-modified/\(key)")
        #expect(try await send("/cache/last-modified/\(key)").outcome == .revalidated)
        #expect(try await stats()["not_modified"] as? Int == 1)
    }

    @Test func aPOSTInvalidatesAndTheNextGETGetsTheNewVersion() async throws {
        _ = try await send("/cache/etag/\(key)?max_age=600")
        _ = try await send("/cache/etag/\(key)?max_age=600", method: "POST")
        let after = try await send("/cache/etag/\(key)?max_age=600")
        #expect(after.outcome == .network)
        #expect(after.body["version"] as? Int == 2)
    }

    @Test func varyKeepsAVariantPerLanguage() async throws {
        _ = try await send("/cache/vary/\(key)", headers: ["Accept-Language": "en"])
        _ = try await send("/cache/vary/\(key)", headers: ["Accept-Language": "fr"])
        let english = try await send("/cache/vary/\(key)", headers: ["Accept-Language": "en"])
        #expect(english.outcome == .hit)
        #expect(english.body["language"] as? String == "en")
        #expect(try await stats()["hits"] as? Int == 2)
    }
}
