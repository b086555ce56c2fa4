import Foundation
import TestSupport
import Testing
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The key: method, normalised URL, the headers `Vary` names, and a credential fingerprint.
@Suite("HTTP cache: keys, Vary and credentials")
struct CacheKeyTests {
    let clock = TestClock()
    let fresh = ["Cache-Control": "max-age=600"]

    /// An origin that echoes a request header into the body.
    private func echoing(_ header: String, headers: [String: String]) -> FakeOrigin {
        FakeOrigin { request, _ in
            makeResponse(to: request, headers: headers, body: request.value(forHTTPHeaderField: header) ?? "none")
        }
    }

    /// A `Vary` on a header that differs per request (a request ID) made every response a
    /// variant of its own, and every lookup compared them all under the store's lock: 27 ms a
    /// request at 5,000 (found from outside, 2026-11-26). One URL keeps at most 16; the ones
    /// stored first go. Both stores, on disk too.
    @Test(arguments: [false, true])
    func oneURLKeepsAtMostSixteenVariants(onDisk: Bool) throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache =
            onDisk
            ? try HTTPCache(configuration: .init(memoryCapacity: 0, directory: folder, clock: clock.read))
            : try memoryCache(clock)
        let origin = countingOrigin(["Cache-Control": "max-age=600", "Vary": "X-Request-ID"])
        func request(_ number: Int) -> URLRequest { makeRequest(headers: ["X-Request-ID": "r\(number)"]) }
        for number in 1...100 { exchange(cache, request(number), origin: origin) }
        #expect(CacheIndex<Int>.maximumVariants == 16)
        #expect(exchange(cache, request(100), origin: origin).outcome == .hit)
        #expect(exchange(cache, request(85), origin: origin).outcome == .hit, "the 16th newest is kept")
        #expect(exchange(cache, request(84), origin: origin).outcome == .network, "the 17th newest is gone")
        if onDisk {
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".nlcache") }
            #expect(files.count == 16, "\(files.count) files")
        }
        #expect(cache.inconsistencies().isEmpty, "\(cache.inconsistencies())")
    }

    @Test func aResponseIsNeverServedForAnotherCredential() throws {
        let cache = try memoryCache(clock)
        let origin = echoing("Authorization", headers: fresh)
        let alice = makeRequest(headers: ["Authorization": "Bearer alice"])
        let bob = makeRequest(headers: ["Authorization": "Bearer bob"])
        exchange(cache, alice, origin: origin)
        let bobs = exchange(cache, bob, origin: origin)
        #expect(bobs.outcome == .network)
        #expect(bobs.body == "Bearer bob")
        #expect(exchange(cache, alice, origin: origin).body == "Bearer alice")
        #expect(exchange(cache, bob, origin: origin).body == "Bearer bob")
    }

    @Test func anAuthenticatedResponseIsNotServedWithoutTheCredential() throws {
        let cache = try memoryCache(clock)
        let origin = echoing("Authorization", headers: fresh)
        exchange(cache, makeRequest(headers: ["Authorization": "Bearer alice"]), origin: origin)
        #expect(exchange(cache, makeRequest(), origin: origin).outcome == .network)
    }

    @Test func cookiesAndHeadersTheRedactionNamesAreCredentialsToo() throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(fresh)
        exchange(cache, makeRequest(headers: ["Cookie": "id=1"]), origin: origin)
        #expect(exchange(cache, makeRequest(headers: ["Cookie": "id=2"]), origin: origin).outcome == .network)
        let redaction = Redaction(headers: ["X-Session"])
        exchange(cache, makeRequest(headers: ["X-Session": "a"]), redaction: redaction, origin: origin)
        #expect(exchange(cache, makeRequest(headers: ["X-Session": "b"]), redaction: redaction, origin: origin).outcome == .network)
        #expect(exchange(cache, makeRequest(headers: ["X-Session": "a"]), redaction: redaction, origin: origin).outcome == .hit)
    }

    @Test func headersTheTransportAddsArePartOfTheKey() throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(fresh)
        func lookup(_ cookie: String) -> HTTPCache.Lookup { cache.lookup(makeRequest(), addedHeaders: ["Cookie": cookie]) }
        guard case .send(let sent, let pending) = lookup("user=alice") else { Issue.record("sent nothing"); return }
        #expect(sent.value(forHTTPHeaderField: "Cookie") == nil)
        _ = cache.complete(pending, with: origin.respond(to: sent))
        guard case .hit = lookup("user=alice") else { Issue.record("alice's own response not served"); return }
        guard case .send = lookup("user=bob") else { Issue.record("alice's response served to bob"); return }
    }

    @Test func userInfoInTheURLIsACredential() throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(fresh)
        exchange(cache, makeRequest("https://alice:one@api.example.com/items/1"), origin: origin)
        #expect(exchange(cache, makeRequest("https://bob:two@api.example.com/items/1"), origin: origin).outcome == .network)
        #expect(exchange(cache, makeRequest("https://api.example.com/items/1"), origin: origin).outcome == .network)
    }

    @Test func theFingerprintIsADigestNotTheSecret() throws {
        let request = makeRequest(headers: ["Authorization": "Bearer s3cret-token"])
        let key = try #require(RequestKey(request) { $0 == "authorization" })
        #expect(key.primary.credential != .zero)
        #expect(!key.primary.credential.hex.contains("s3cret"))
        #expect(!String(describing: key.primary).contains("s3cret"))
        let none = try #require(RequestKey(makeRequest()) { $0 == "authorization" })
        #expect(none.primary.credential == .zero)
    }

    @Test func varyKeepsOneVariantPerLanguage() throws {
        let cache = try memoryCache(clock)
        let origin = echoing("Accept-Language", headers: ["Cache-Control": "max-age=600", "Vary": "Accept-Language"])
        let english = makeRequest(headers: ["Accept-Language": "en"])
        let french = makeRequest(headers: ["Accept-Language": "fr"])
        exchange(cache, english, origin: origin)
        #expect(exchange(cache, french, origin: origin).outcome == .network)
        #expect(exchange(cache, english, origin: origin).body == "en")
        #expect(exchange(cache, french, origin: origin).body == "fr")
        #expect(exchange(cache, makeRequest(), origin: origin).outcome == .network)
        #expect(origin.count == 3)
    }

    /// Found from outside (2026-11-26): duplicates in a `Vary` were looked for in a list, so a
    /// server's `Vary` of 36,000 names (a 240 KiB head, within both transports' limits) cost
    /// about 30 s of CPU in a debug build each time the response was stored.
    @Test func aLongVaryIsReadInLinearTime() throws {
        let cache = try memoryCache(clock)
        let names = (0..<36_000).map { "v\($0)" } + ["V1", "v2"]
        let origin = countingOrigin(["Cache-Control": "max-age=600", "Vary": names.joined(separator: ",")])
        let started = Date()
        exchange(cache, makeRequest(), origin: origin)
        #expect(exchange(cache, makeRequest(), origin: origin).outcome == .hit)
        #expect(Date().timeIntervalSince(started) < TestTiming.bound(5))
        #expect(CacheRules.varyNames("a, B ,b,, A,c") == ["a", "b", "c"])
        // Past any head limit, for a release build too (the quadratic version took 2.2 s on the
        // 36,000 names above there).
        let many = (0..<300_000).map { "v\($0)" }.joined(separator: ",")
        let parsing = Date()
        #expect(CacheRules.varyNames(many)?.count == 300_000)
        #expect(Date().timeIntervalSince(parsing) < TestTiming.bound(5))
    }

    @Test func varyValuesAreComparedAfterNormalisingWhiteSpace() throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(["Cache-Control": "max-age=600", "Vary": "accept-language"])
        exchange(cache, makeRequest(headers: ["Accept-Language": "en, fr"]), origin: origin)
        #expect(exchange(cache, makeRequest(headers: ["Accept-Language": " en,fr "]), origin: origin).outcome == .hit)
    }

    @Test func aNewVariantForTheSameRequestReplacesTheOldOne() throws {
        let cache = try memoryCache(clock)
        let origin = FakeOrigin { request, number in
            // First Vary: Accept, then Vary: Accept-Language: the old variant must not linger.
            let vary = number == 1 ? "Accept" : "Accept-Language"
            return makeResponse(to: request, headers: ["Cache-Control": "max-age=10", "Vary": vary], body: "response \(number)")
        }
        let request = makeRequest(headers: ["Accept": "json", "Accept-Language": "en"])
        exchange(cache, request, origin: origin)
        clock.advance(by: 11)
        exchange(cache, request, origin: origin)
        #expect(exchange(cache, request, origin: origin).body == "response 2")
        #expect(try #require(cache.memory).count == 1)
    }

    @Test(arguments: [
        "HTTPS://API.Example.COM/items/1", "https://api.example.com:443/items/1", "https://api.example.com/items/1#section",
    ])
    func equivalentURLsShareAnEntry(url: String) throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(fresh)
        exchange(cache, makeRequest(), origin: origin)
        #expect(exchange(cache, makeRequest(url), origin: origin).outcome == .hit)
    }

    @Test(arguments: [
        "https://api.example.com/items/1?a=1", "https://api.example.com/items/1/", "http://api.example.com/items/1",
        "https://api.example.com:8443/items/1", "https://api.example.com/Items/1",
    ])
    func differentURLsDoNotShareAnEntry(url: String) throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(fresh)
        exchange(cache, makeRequest(), origin: origin)
        #expect(exchange(cache, makeRequest(url), origin: origin).outcome == .network)
    }

    @Test func queryOrderIsPartOfTheKey() {
        let first = RequestKey.normalizedURL(URL(string: "https://a.example/x?a=1&b=2")!)
        let second = RequestKey.normalizedURL(URL(string: "https://a.example/x?b=2&a=1")!)
        #expect(first != second)
        #expect(RequestKey.normalizedURL(URL(string: "HTTP://A.example:80")!) == "http://a.example/")
    }

    /// The URL the key is made of, read from the URL's own parse: the same strings as the
    /// `URLComponents` reading it replaced (checked for every row on 2026-11-25), except an
    /// internationalised host, kept in its wire form (`xn--…`) where `URLComponents` decoded it.
    @Test(arguments: [
        ("HTTP://A.example:80", "http://a.example/"),
        ("https://a.example:443/x#fragment", "https://a.example/x"),
        ("http://a.example:8080", "http://a.example:8080/"),
        ("http://[::1]:8080/x?y=1", "http://[::1]:8080/x?y=1"),
        ("http://[FE80::1%25en0]:81/", "http://[fe80::1%25en0]:81/"),
        ("https://user:p%40ss@h.example/a%2Fb?q=%20x", "https://h.example/a%2Fb?q=%20x"),
        ("https://h.example/a/../b/./c", "https://h.example/a/../b/./c"),
        ("https://h.example/?", "https://h.example/"),
        ("https://h.example/caf%C3%A9?q=%E2%9C%93", "https://h.example/caf%C3%A9?q=%E2%9C%93"),
        ("http://xn--caf-dma.example/", "http://xn--caf-dma.example/"),
        ("https://H.EXAMPLE./x;params?a", "https://h.example./x;params?a"),
    ])
    func theKeyedURLIsNormalisedButKeepsPathAndQueryAsTheyAre(url: String, keyed: String) throws {
        #expect(RequestKey.normalizedURL(try #require(URL(string: url))) == keyed)
    }

    @Test func aRelativeURLIsKeyedAsTheAbsoluteOne() throws {
        let base = try #require(URL(string: "https://API.example.com:8443/v3/"))
        let relative = try #require(URL(string: "movie/popular?page=2", relativeTo: base))
        #expect(RequestKey.normalizedURL(relative) == "https://api.example.com:8443/v3/movie/popular?page=2")
    }

    @Test(arguments: ["ftp://h.example/x", "https:///x", "mailto:a@b.example"])
    func aURLThatIsNotHTTPWithAHostHasNoKey(url: String) throws {
        #expect(RequestKey.normalizedURL(try #require(URL(string: url))) == nil)
    }

    @Test func theUserAndPasswordAreACredentialNotPartOfTheURL() throws {
        let plain = try #require(URL(string: "https://h.example/x"))
        let withUser = try #require(URL(string: "https://ada:s3cret@h.example/x"))
        #expect(RequestKey.normalizedURL(plain) == RequestKey.normalizedURL(withUser))
        let otherUser = try #require(URL(string: "https://ada:other@h.example/x"))
        let key = try #require(RequestKey(URLRequest(url: withUser), isCredential: { _ in false }))
        let other = try #require(RequestKey(URLRequest(url: otherUser), isCredential: { _ in false }))
        let none = try #require(RequestKey(URLRequest(url: plain), isCredential: { _ in false }))
        #expect(key.primary.url == none.primary.url)
        #expect(key.primary.credential != none.primary.credential)
        #expect(key.primary.credential != other.primary.credential)
    }
}
