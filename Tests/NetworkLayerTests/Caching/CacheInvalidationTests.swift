import Foundation
import Testing
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// RFC 9111 §4.4: a successful unsafe request removes what is stored for its URL.
@Suite("HTTP cache: invalidation")
struct CacheInvalidationTests {
    let clock = TestClock()
    let fresh = ["Cache-Control": "max-age=600"]
    let url = "https://api.example.com/items/1"

    /// A cache holding a fresh response for `urls` each, and an origin answering unsafe requests
    /// with `status` and `headers`.
    private func stored(_ urls: [String], unsafeStatus status: Int = 200, unsafeHeaders headers: [String: String] = [:]) throws -> (
        HTTPCache, FakeOrigin
    ) {
        let cache = try memoryCache(clock)
        let origin = FakeOrigin { [fresh] request, number in
            request.httpMethod == "GET"
                ? makeResponse(to: request, headers: fresh, body: "response \(number)")
                : makeResponse(to: request, status: status, headers: headers)
        }
        for url in urls { exchange(cache, makeRequest(url), origin: origin) }
        return (cache, origin)
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "PATCH"])
    func aSuccessfulUnsafeRequestRemovesTheStoredResponse(method: String) throws {
        let (cache, origin) = try stored([url])
        exchange(cache, makeRequest(url, method: method), origin: origin)
        #expect(exchange(cache, makeRequest(url), origin: origin).outcome == .network)
    }

    @Test func itRemovesTheResponsesOfEveryCredentialAndMethod() throws {
        let (cache, origin) = try stored([])
        exchange(cache, makeRequest(url, headers: ["Authorization": "Bearer a"]), origin: origin)
        exchange(cache, makeRequest(url, method: "HEAD"), origin: origin)
        exchange(cache, makeRequest(url), origin: origin)
        exchange(cache, makeRequest(url, method: "POST", headers: ["Authorization": "Bearer b"]), origin: origin)
        #expect(cache.memoryUsage == 0)
    }

    @Test(arguments: [400, 404, 500, 503])
    func aFailedUnsafeRequestRemovesNothing(status: Int) throws {
        let (cache, origin) = try stored([url], unsafeStatus: status)
        exchange(cache, makeRequest(url, method: "POST"), origin: origin)
        #expect(exchange(cache, makeRequest(url), origin: origin).outcome == .hit)
    }

    @Test func aSafeRequestRemovesNothing() throws {
        let (cache, origin) = try stored([url])
        exchange(cache, makeRequest(url, method: "OPTIONS"), origin: origin)
        #expect(exchange(cache, makeRequest(url), origin: origin).outcome == .hit)
    }

    @Test(arguments: ["Location", "Content-Location"])
    func aSameOriginLocationIsRemovedToo(header: String) throws {
        let other = "https://api.example.com/items/2"
        let (cache, origin) = try stored([url, other], unsafeStatus: 201, unsafeHeaders: [header: "/items/2"])
        exchange(cache, makeRequest("https://api.example.com/items", method: "POST"), origin: origin)
        #expect(exchange(cache, makeRequest(other), origin: origin).outcome == .network)
        #expect(exchange(cache, makeRequest(url), origin: origin).outcome == .hit)
    }

    @Test func aLocationOnAnotherOriginIsLeftAlone() throws {
        let other = "https://cdn.example.com/items/2"
        let (cache, origin) = try stored([other], unsafeStatus: 201, unsafeHeaders: ["Location": other])
        exchange(cache, makeRequest("https://api.example.com/items", method: "POST"), origin: origin)
        #expect(exchange(cache, makeRequest(other), origin: origin).outcome == .hit)
    }

    @Test func invalidateRemovesAURLByHand() throws {
        let (cache, origin) = try stored([url, "https://api.example.com/items/2"])
        cache.invalidate(URL(string: url)!)
        #expect(exchange(cache, makeRequest(url), origin: origin).outcome == .network)
        #expect(exchange(cache, makeRequest("https://api.example.com/items/2"), origin: origin).outcome == .hit)
    }

    @Test func removeAllEmptiesTheCache() throws {
        let (cache, _) = try stored([url, "https://api.example.com/items/2"])
        cache.removeAll()
        #expect(cache.memoryUsage == 0)
    }
}
