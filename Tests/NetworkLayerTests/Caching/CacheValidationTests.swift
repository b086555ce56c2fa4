import Foundation
import TestSupport
import Testing
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// RFC 9111 §4.3: stale and `no-cache` responses are validated; a 304 updates the stored one.
@Suite("HTTP cache: validation")
struct CacheValidationTests {
    let clock = TestClock()
    var now: Date { clock.now }

    /// An origin whose first answer is a 200 with `first`, and every later one `later(request)`.
    private func origin(first: [String: String], later: @escaping @Sendable (URLRequest) -> Response) -> FakeOrigin {
        FakeOrigin { request, number in
            number == 1 ? makeResponse(to: request, headers: first, body: "stored body") : later(request)
        }
    }

    private func notModified(_ headers: [String: String] = [:]) -> @Sendable (URLRequest) -> Response {
        { request in makeResponse(to: request, status: 304, headers: headers) }
    }

    @Test func aStaleResponseWithAnETagIsValidatedWithIfNoneMatch() throws {
        let cache = try memoryCache(clock)
        let origin = origin(first: ["Cache-Control": "max-age=10", "ETag": #""v1""#], later: notModified())
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 11)
        let second = exchange(cache, makeRequest(), origin: origin)
        #expect(second.sent?.value(forHTTPHeaderField: "If-None-Match") == #""v1""#)
        #expect(second.sent?.value(forHTTPHeaderField: "If-Modified-Since") == nil)
    }

    @Test func aStaleResponseWithLastModifiedIsValidatedWithIfModifiedSince() throws {
        let cache = try memoryCache(clock)
        let lastModified = httpDate(now - 3_600)
        let origin = origin(first: ["Cache-Control": "max-age=10", "Last-Modified": lastModified], later: notModified())
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 11)
        let second = exchange(cache, makeRequest(), origin: origin)
        #expect(second.sent?.value(forHTTPHeaderField: "If-Modified-Since") == lastModified)
        #expect(second.sent?.value(forHTTPHeaderField: "If-None-Match") == nil)
    }

    @Test func bothValidatorsAreSentWhenTheResponseHasBoth() throws {
        let cache = try memoryCache(clock)
        let first = ["Cache-Control": "no-cache", "ETag": #"W/"v1""#, "Last-Modified": httpDate(now - 60)]
        let origin = origin(first: first, later: notModified())
        exchange(cache, makeRequest(), origin: origin)
        let second = exchange(cache, makeRequest(), origin: origin)
        #expect(second.sent?.value(forHTTPHeaderField: "If-None-Match") == #"W/"v1""#)
        #expect(second.sent?.value(forHTTPHeaderField: "If-Modified-Since") == first["Last-Modified"])
    }

    @Test func aNoCacheResponseIsValidatedEvenWhenFresh() throws {
        let cache = try memoryCache(clock)
        let origin = origin(first: ["Cache-Control": "no-cache, max-age=600", "ETag": #""v1""#], later: notModified())
        exchange(cache, makeRequest(), origin: origin)
        let second = exchange(cache, makeRequest(), origin: origin)
        #expect(origin.count == 2)
        #expect(second.outcome == .revalidated)
    }

    @Test func a304ServesTheStoredBodyWithTheHeadersItUpdated() throws {
        let cache = try memoryCache(clock)
        let first = ["Cache-Control": "max-age=10", "ETag": #""v1""#, "X-Version": "1", "X-Only-First": "kept"]
        let origin = origin(
            first: first, later: notModified(["Cache-Control": "max-age=100", "ETag": #""v1""#, "X-Version": "2", "Content-Length": "0"]))
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 11)
        let second = exchange(cache, makeRequest(), origin: origin)
        #expect(second.outcome == .revalidated)
        #expect(second.response?.statusCode == 200)
        #expect(second.body == "stored body")
        #expect(second.response?.header("X-Version") == "2")
        #expect(second.response?.header("X-Only-First") == "kept")
        #expect(second.response?.header("Cache-Control") == "max-age=100")
        // The 304's Content-Length describes no body; the stored one's stays.
        #expect(second.response?.header("Content-Length") != "0")
    }

    /// Found from outside (2026-11-26): a 304 updated the stored response one field at a time,
    /// each update filtering and sorting every stored field, so many fields on both sides cost
    /// time quadratic in them.
    @Test func a304WithManyFieldsUpdatesInLinearTime() throws {
        let cache = try memoryCache(clock)
        var first = ["Cache-Control": "max-age=10", "ETag": #""v1""#]
        var update = ["Cache-Control": "max-age=100", "ETag": #""v1""#]
        for index in 0..<8_000 {
            first["X-Stored-\(index)"] = "1"
            update["X-Updated-\(index)"] = "2"
        }
        let origin = origin(first: first, later: notModified(update))
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 11)
        let started = Date()
        let second = exchange(cache, makeRequest(), origin: origin)
        #expect(Date().timeIntervalSince(started) < TestTiming.bound(5))
        #expect(second.outcome == .revalidated)
        #expect(second.response?.header("X-Stored-7") == "1")
        #expect(second.response?.header("X-Updated-7") == "2")
        #expect(second.response?.header("Cache-Control") == "max-age=100")
    }

    @Test func afterA304TheStoredResponseIsFreshAgain() throws {
        let cache = try memoryCache(clock)
        let origin = origin(first: ["Cache-Control": "max-age=10", "ETag": #""v1""#], later: notModified(["Cache-Control": "max-age=60"]))
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 11)
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 59)
        let third = exchange(cache, makeRequest(), origin: origin)
        #expect(third.outcome == .hit)
        #expect(third.body == "stored body")
        #expect(origin.count == 2)
    }

    @Test func anAnswerOtherThan304ReplacesTheStoredResponse() throws {
        let cache = try memoryCache(clock)
        let origin = origin(first: ["Cache-Control": "max-age=10", "ETag": #""v1""#]) { request in
            makeResponse(to: request, headers: ["Cache-Control": "max-age=60", "ETag": #""v2""#], body: "new body")
        }
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 11)
        let second = exchange(cache, makeRequest(), origin: origin)
        #expect(second.outcome == .network)
        #expect(second.body == "new body")
        let third = exchange(cache, makeRequest(), origin: origin)
        #expect(third.outcome == .hit)
        #expect(third.body == "new body")
    }

    @Test func a304ForAnotherETagIsNotMergedAndRemovesTheStoredResponse() throws {
        let cache = try memoryCache(clock)
        let origin = origin(first: ["Cache-Control": "max-age=10", "ETag": #""v1""#], later: notModified(["ETag": #""v9""#]))
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 11)
        let second = exchange(cache, makeRequest(), origin: origin)
        #expect(second.outcome == .network)
        #expect(second.response?.statusCode == 304)
        #expect(cache.memoryUsage == 0)
    }

    @Test func aServerErrorDuringValidationLeavesTheStoredResponse() throws {
        let cache = try memoryCache(clock)
        let origin = origin(first: ["Cache-Control": "max-age=10", "ETag": #""v1""#]) { request in
            makeResponse(to: request, status: 503, body: "busy")
        }
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 11)
        #expect(exchange(cache, makeRequest(), origin: origin).response?.statusCode == 503)
        let offline = exchange(cache, makeRequest(), policy: .returnCacheDataDontLoad, origin: origin)
        #expect(offline.body == "stored body")
    }

    @Test func aStaleResponseWithoutValidatorsIsFetchedAgainPlainly() throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(["Cache-Control": "max-age=10"])
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 11)
        let second = exchange(cache, makeRequest(), origin: origin)
        #expect(second.sent?.value(forHTTPHeaderField: "If-None-Match") == nil)
        #expect(second.sent?.value(forHTTPHeaderField: "If-Modified-Since") == nil)
        #expect(second.body == "response 2")
    }

    @Test(arguments: [["Cache-Control": "no-cache"], ["Cache-Control": "max-age=0"], ["Pragma": "no-cache"]])
    func aRequestThatAsksForAReloadValidatesAFreshResponse(headers: [String: String]) throws {
        let cache = try memoryCache(clock)
        let origin = origin(first: ["Cache-Control": "max-age=600", "ETag": #""v1""#], later: notModified())
        exchange(cache, makeRequest(), origin: origin)
        let second = exchange(cache, makeRequest(headers: headers), origin: origin)
        #expect(second.outcome == .revalidated)
    }

    @Test func aFreshImmutableResponseIsNotValidatedOnReload() throws {
        let cache = try memoryCache(clock)
        let origin = origin(first: ["Cache-Control": "max-age=600, immutable", "ETag": #""v1""#], later: notModified())
        exchange(cache, makeRequest(), origin: origin)
        #expect(exchange(cache, makeRequest(headers: ["Cache-Control": "no-cache"]), origin: origin).outcome == .hit)
        #expect(exchange(cache, makeRequest(), policy: .reloadRevalidatingCacheData, origin: origin).outcome == .hit)
    }

    @Test func maxStaleInTheRequestServesAStaleResponse() throws {
        let cache = try memoryCache(clock)
        let origin = origin(first: ["Cache-Control": "max-age=10", "ETag": #""v1""#], later: notModified())
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 40)
        #expect(exchange(cache, makeRequest(headers: ["Cache-Control": "max-stale=30"]), origin: origin).outcome == .staleHit)
        #expect(exchange(cache, makeRequest(headers: ["Cache-Control": "max-stale=29"]), origin: origin).outcome == .revalidated)
    }

    @Test func mustRevalidateOverridesMaxStale() throws {
        let cache = try memoryCache(clock)
        let origin = origin(first: ["Cache-Control": "max-age=10, must-revalidate", "ETag": #""v1""#], later: notModified())
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 11)
        #expect(exchange(cache, makeRequest(headers: ["Cache-Control": "max-stale"]), origin: origin).outcome == .revalidated)
    }

    @Test func minFreshAsksForFreshnessLeft() throws {
        let cache = try memoryCache(clock)
        let origin = origin(first: ["Cache-Control": "max-age=60", "ETag": #""v1""#], later: notModified())
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 30)
        #expect(exchange(cache, makeRequest(headers: ["Cache-Control": "min-fresh=20"]), origin: origin).outcome == .hit)
        #expect(exchange(cache, makeRequest(headers: ["Cache-Control": "min-fresh=40"]), origin: origin).outcome == .revalidated)
    }

    @Test func onlyIfCachedWithNothingUsableIsNotCached() throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(["Cache-Control": "max-age=10"])
        #expect(exchange(cache, makeRequest(headers: ["Cache-Control": "only-if-cached"]), origin: origin).notCached)
        exchange(cache, makeRequest(), origin: origin)
        #expect(exchange(cache, makeRequest(headers: ["Cache-Control": "only-if-cached"]), origin: origin).outcome == .hit)
        clock.advance(by: 11)
        #expect(exchange(cache, makeRequest(headers: ["Cache-Control": "only-if-cached"]), origin: origin).notCached)
        #expect(origin.count == 1)
    }
}
