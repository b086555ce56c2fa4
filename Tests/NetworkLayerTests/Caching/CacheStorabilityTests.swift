import Foundation
import Testing
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// RFC 9111 §3: which responses the cache keeps.
@Suite("HTTP cache: what is stored")
struct CacheStorabilityTests {
    let clock = TestClock()
    let fresh = ["Cache-Control": "max-age=600"]

    /// Whether a second identical request is answered by the cache.
    private func isStored(
        method: String = "GET", status: Int = 200, headers: [String: String], requestHeaders: [String: String] = [:]
    ) throws -> Bool {
        let cache = try memoryCache(clock)
        let origin = FakeOrigin { request, number in
            makeResponse(to: request, status: status, headers: headers, body: "response \(number)")
        }
        let request = makeRequest(method: method, headers: requestHeaders)
        exchange(cache, request, origin: origin)
        return exchange(cache, request, origin: origin).outcome == .hit
    }

    @Test func aFreshGETResponseIsStored() throws {
        #expect(try isStored(headers: fresh))
    }

    @Test func aHEADResponseIsStoredApartFromTheGETOne() throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(fresh)
        exchange(cache, makeRequest(method: "HEAD"), origin: origin)
        #expect(exchange(cache, makeRequest(method: "HEAD"), origin: origin).outcome == .hit)
        #expect(exchange(cache, makeRequest(method: "GET"), origin: origin).outcome == .network)
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "QUERY"])
    func onlyGETAndHEADResponsesAreStored(method: String) throws {
        #expect(try !isStored(method: method, headers: fresh))
    }

    @Test func noStoreInTheResponseIsNeverStored() throws {
        #expect(try !isStored(headers: ["Cache-Control": "max-age=600, no-store"]))
    }

    @Test func noStoreInTheRequestIsNeverStored() throws {
        #expect(try !isStored(headers: fresh, requestHeaders: ["Cache-Control": "no-store"]))
    }

    @Test func varyStarIsNeverStored() throws {
        #expect(try !isStored(headers: ["Cache-Control": "max-age=600", "Vary": "Accept, *"]))
    }

    @Test func partialContentIsNotStored() throws {
        #expect(try !isStored(status: 206, headers: fresh))
    }

    @Test func aStatusThatIsNotHeuristicallyCacheableNeedsExplicitFreshness() throws {
        #expect(try !isStored(status: 302, headers: ["Last-Modified": httpDate(clock.now - 86_400 * 30)]))
        #expect(try isStored(status: 302, headers: ["Cache-Control": "max-age=60"]))
        #expect(try isStored(status: 500, headers: ["Cache-Control": "max-age=60"]))
        #expect(try !isStored(status: 500, headers: [:]))
    }

    @Test func aHeuristicallyCacheableErrorIsStored() throws {
        #expect(try isStored(status: 404, headers: fresh))
    }

    @Test func privateResponsesAreStoredByThisPrivateCache() throws {
        #expect(try isStored(headers: ["Cache-Control": "private, max-age=600"]))
    }

    @Test func setCookieAndHopByHopHeadersAreNotKept() throws {
        let cache = try memoryCache(clock)
        let headers = [
            "Cache-Control": "max-age=600", "Set-Cookie": "session=secret", "Connection": "close, X-Hop",
            "X-Hop": "1", "Keep-Alive": "timeout=5", "X-Kept": "yes",
        ]
        let origin = countingOrigin(headers)
        exchange(cache, makeRequest(), origin: origin)
        let hit = exchange(cache, makeRequest(), origin: origin)
        #expect(hit.outcome == .hit)
        #expect(hit.response?.header("X-Kept") == "yes")
        for name in ["Set-Cookie", "Connection", "X-Hop", "Keep-Alive"] {
            #expect(hit.response?.header(name) == nil, "\(name) was kept")
        }
    }

    @Test func aBodyOverTheEntryLimitIsNotStored() throws {
        let cache = try memoryCache(clock) { $0.maximumEntrySize = 10 }
        let origin = FakeOrigin { request, _ in makeResponse(to: request, headers: ["Cache-Control": "max-age=600"], body: "eleven byte") }
        exchange(cache, makeRequest(), origin: origin)
        #expect(exchange(cache, makeRequest(), origin: origin).outcome == .network)
        #expect(cache.memoryUsage == 0)
    }

    @Test func aDownloadedBodyIsNotStored() throws {
        let cache = try memoryCache(clock)
        let request = makeRequest()
        guard case .send(let sent, let pending) = cache.lookup(request) else {
            Issue.record("an empty cache answered")
            return
        }
        let answer = makeResponse(to: sent, headers: fresh)
        let download = Response(request: sent, httpResponse: answer.httpResponse, data: Data(), fileURL: URL(fileURLWithPath: "/tmp/x"))
        _ = cache.complete(pending, with: download)
        #expect(cache.memoryUsage == 0)
    }

    @Test(arguments: ["If-None-Match", "If-Modified-Since", "Range"])
    func aRequestWithItsOwnConditionalPassesThroughUntouched(header: String) throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(fresh)
        exchange(cache, makeRequest(), origin: origin)
        let own = exchange(cache, makeRequest(headers: [header: "x"]), origin: origin)
        #expect(own.outcome == .network)
        #expect(own.sent?.value(forHTTPHeaderField: header) == "x")
        // ...and its answer does not replace the stored one.
        #expect(exchange(cache, makeRequest(), origin: origin).body == "response 1")
    }

    @Test func aNonHTTPURLIsPassedThrough() throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(fresh)
        exchange(cache, makeRequest("ftp://example.com/file"), origin: origin)
        #expect(exchange(cache, makeRequest("ftp://example.com/file"), origin: origin).outcome == .network)
    }
}
