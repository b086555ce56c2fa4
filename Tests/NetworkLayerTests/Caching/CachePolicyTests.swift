import Foundation
import Testing
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The per-request policies, the same on every platform.
@Suite("HTTP cache: policies")
struct CachePolicyTests {
    let clock = TestClock()
    let fresh = ["Cache-Control": "max-age=60", "ETag": #""v1""#]

    @Test func reloadIgnoringLocalCacheDataSendsButStillStores() throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(fresh)
        exchange(cache, makeRequest(), origin: origin)
        let reload = exchange(cache, makeRequest(), policy: .reloadIgnoringLocalCacheData, origin: origin)
        #expect(reload.outcome == .network)
        #expect(reload.sent?.value(forHTTPHeaderField: "If-None-Match") == nil)
        #expect(exchange(cache, makeRequest(), origin: origin).body == "response 2")
    }

    @Test func reloadRevalidatingCacheDataValidatesAFreshResponse() throws {
        let cache = try memoryCache(clock)
        let origin = FakeOrigin { request, number in
            number == 1 ? makeResponse(to: request, headers: fresh, body: "stored") : makeResponse(to: request, status: 304)
        }
        exchange(cache, makeRequest(), origin: origin)
        let second = exchange(cache, makeRequest(), policy: .reloadRevalidatingCacheData, origin: origin)
        #expect(second.sent?.value(forHTTPHeaderField: "If-None-Match") == #""v1""#)
        #expect(second.outcome == .revalidated)
        #expect(second.body == "stored")
    }

    @Test func returnCacheDataElseLoadServesAStaleResponse() throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(fresh)
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 3_600)
        let second = exchange(cache, makeRequest(), policy: .returnCacheDataElseLoad, origin: origin)
        #expect(second.outcome == .staleHit)
        #expect(second.body == "response 1")
    }

    @Test func returnCacheDataElseLoadLoadsWhenNothingIsStored() throws {
        let cache = try memoryCache(clock)
        let first = exchange(cache, makeRequest(), policy: .returnCacheDataElseLoad, origin: countingOrigin(fresh))
        #expect(first.outcome == .network)
    }

    @Test func returnCacheDataDontLoadServesAStaleResponse() throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(fresh)
        exchange(cache, makeRequest(), origin: origin)
        clock.advance(by: 3_600)
        #expect(exchange(cache, makeRequest(), policy: .returnCacheDataDontLoad, origin: origin).outcome == .staleHit)
        #expect(origin.count == 1)
    }

    @Test func returnCacheDataDontLoadWithNothingStoredIsNotCachedAndSendsNothing() throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(fresh)
        #expect(exchange(cache, makeRequest(), policy: .returnCacheDataDontLoad, origin: origin).notCached)
        #expect(origin.count == 0)
    }

    @Test func bypassNeitherReadsNorStores() throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(fresh)
        exchange(cache, makeRequest(), origin: origin)
        let bypassed = exchange(cache, makeRequest(), policy: .bypass, origin: origin)
        #expect(bypassed.outcome == .network)
        #expect(bypassed.body == "response 2")
        #expect(exchange(cache, makeRequest(), origin: origin).body == "response 1")
    }

    @Test func bypassStillInvalidatesAfterAnUnsafeMethod() throws {
        let cache = try memoryCache(clock)
        let origin = countingOrigin(fresh)
        exchange(cache, makeRequest(), origin: origin)
        exchange(cache, makeRequest(method: "POST"), policy: .bypass, origin: origin)
        #expect(exchange(cache, makeRequest(), origin: origin).outcome == .network)
    }

    @Test func urlRequestPoliciesMapToTheirMeaning() {
        #expect(HTTPCache.Policy(URLRequest.CachePolicy.useProtocolCachePolicy) == .useProtocolCachePolicy)
        #expect(HTTPCache.Policy(URLRequest.CachePolicy.reloadIgnoringLocalCacheData) == .reloadIgnoringLocalCacheData)
        #expect(HTTPCache.Policy(URLRequest.CachePolicy.reloadIgnoringLocalAndRemoteCacheData) == .reloadIgnoringLocalCacheData)
        #expect(HTTPCache.Policy(URLRequest.CachePolicy.reloadRevalidatingCacheData) == .reloadRevalidatingCacheData)
        #expect(HTTPCache.Policy(URLRequest.CachePolicy.returnCacheDataElseLoad) == .returnCacheDataElseLoad)
        #expect(HTTPCache.Policy(URLRequest.CachePolicy.returnCacheDataDontLoad) == .returnCacheDataDontLoad)
    }

    @Test func errorsSayWhatWasWrong() {
        #expect(HTTPCacheError.notCached.localizedDescription.contains("not in the cache"))
        let unusable = HTTPCacheError.unusableDirectory(path: "/data/cache", reason: "it is not a folder")
        #expect(unusable.localizedDescription == "The cache folder \"/data/cache\" cannot be used: it is not a folder.")
    }
}
