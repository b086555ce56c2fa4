import Foundation
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The fixture server's caching routes (Tests/Fixtures/cache_routes.py) do what the cache tests
/// of the router will rely on: the headers of each rule, 304s to matching validators, and a hit
/// counter per key. Fetched with a URLSession that has no URLCache, so every request arrives.
@Suite("Fixture server: caching routes", .needsFixtureServer, .serialized)
struct CacheFixtureRoutesTests {
    let key = UUID().uuidString

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    private func fetch(_ path: String, method: String = "GET", headers: [String: String] = [:]) async throws -> (
        status: Int, headers: HTTPURLResponse, json: [String: Any]
    ) {
        let base = try #require(TestServers.fixture)
        var request = URLRequest(url: try #require(URL(string: base.absoluteString + path)))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        // A completion-handler task: data(for:) can deadlock on Linux (DESIGN.md).
        let (data, response): (Data, HTTPURLResponse) = try await withCheckedThrowingContinuation { continuation in
            Self.session.dataTask(with: request) { data, response, error in
                if let http = response as? HTTPURLResponse {
                    continuation.resume(returning: (data ?? Data(), http))
                } else {
                    continuation.resume(throwing: error ?? URLError(.badServerResponse))
                }
            }.resume()
        }
        let json = data.isEmpty ? [:] : try jsonObject(data)
        return (response.statusCode, response, json)
    }

    private func stats() async throws -> [String: Any] {
        try await fetch("/cache/stats/\(key)").json
    }

    @Test func maxAgeSaysItsLifetimeAndEveryRequestIsCounted() async throws {
        let first = try await fetch("/cache/max-age/\(key)?seconds=120")
        let second = try await fetch("/cache/max-age/\(key)?seconds=120")
        #expect(first.headers.value(forHTTPHeaderField: "Cache-Control") == "max-age=120")
        #expect(first.json["hit"] as? Int == 1)
        #expect(second.json["hit"] as? Int == 2)
        #expect(try await stats()["hits"] as? Int == 2)
    }

    @Test func etagAnswers304ToAMatchingIfNoneMatchAndAnUnsafeMethodChangesIt() async throws {
        let first = try await fetch("/cache/etag/\(key)")
        let etag = try #require(first.headers.value(forHTTPHeaderField: "ETag"))
        let revalidated = try await fetch("/cache/etag/\(key)", headers: ["If-None-Match": etag])
        #expect(revalidated.status == 304)
        #expect(revalidated.headers.value(forHTTPHeaderField: "ETag") == etag)
        _ = try await fetch("/cache/etag/\(key)", method: "POST")
        let changed = try await fetch("/cache/etag/\(key)", headers: ["If-None-Match": etag])
        #expect(changed.status == 200)
        #expect(changed.json["version"] as? Int == 2)
        let counts = try await stats()
        #expect(counts["not_modified"] as? Int == 1)
        #expect(counts["last_if_none_match"] as? String == etag)
    }

    @Test func lastModifiedAnswers304ToIfModifiedSince() async throws {
        let first = try await fetch("/cache/last-modified/\(key)")
        let lastModified = try #require(first.headers.value(forHTTPHeaderField: "Last-Modified"))
        #expect(try await fetch("/cache/last-modified/\(key)", headers: ["If-Modified-Since": lastModified]).status == 304)
        #expect(try await fetch("/cache/last-modified/\(key)", headers: ["If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT"]).status == 200)
    }

    @Test func noCacheCarriesAnETagAndRevalidates() async throws {
        let first = try await fetch("/cache/no-cache/\(key)")
        #expect(first.headers.value(forHTTPHeaderField: "Cache-Control") == "no-cache")
        let etag = try #require(first.headers.value(forHTTPHeaderField: "ETag"))
        #expect(try await fetch("/cache/no-cache/\(key)", headers: ["If-None-Match": etag]).status == 304)
    }

    @Test func varyEchoesTheLanguageItVariesOn() async throws {
        let french = try await fetch("/cache/vary/\(key)", headers: ["Accept-Language": "fr"])
        #expect(french.headers.value(forHTTPHeaderField: "Vary") == "Accept-Language")
        #expect(french.json["language"] as? String == "fr")
    }

    @Test func theOtherRulesSendTheirHeaders() async throws {
        #expect(try await fetch("/cache/no-store/\(key)").headers.value(forHTTPHeaderField: "Cache-Control") == "no-store")
        #expect(try await fetch("/cache/private/\(key)").headers.value(forHTTPHeaderField: "Cache-Control") == "private, max-age=60")
        let aged = try await fetch("/cache/age/\(key)?age=40&max_age=50")
        #expect(aged.headers.value(forHTTPHeaderField: "Age") == "40")
        #expect(aged.headers.value(forHTTPHeaderField: "Cache-Control") == "max-age=50")
        let expiring = try await fetch("/cache/expires/\(key)?seconds=90")
        #expect(expiring.headers.value(forHTTPHeaderField: "Expires") != nil)
        #expect(expiring.headers.value(forHTTPHeaderField: "Cache-Control") == nil)
        #expect(try await stats()["hits"] as? Int == 4)
    }
}
