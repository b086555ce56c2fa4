import Foundation
import Testing
@testable import NetworkLayer

/// The memory store's byte limit and least-recently-used eviction.
@Suite("HTTP cache: memory limit and LRU eviction")
struct CacheMemoryStoreTests {
    let clock = TestClock()
    let origin = countingOrigin(["Cache-Control": "max-age=600"])

    private func url(_ number: Int) -> String { "https://api.example.com/items/\(number)" }

    /// The bytes one entry of ``origin`` takes, measured on a cache of its own.
    private func entrySize() throws -> Int {
        let cache = try memoryCache(clock)
        exchange(cache, makeRequest(url(0)), origin: countingOrigin(["Cache-Control": "max-age=600"]))
        return cache.memoryUsage
    }

    /// Which of `urls` the memory store holds, without touching their order of use.
    private func stored(_ cache: HTTPCache, among urls: [String]) throws -> [String] {
        let keys = try #require(cache.memory).keysByRecency
        return keys.compactMap { key in
            urls.first { URL(string: $0).flatMap(RequestKey.normalizedURL).map(SHA256.hash) == key.primary.url }
        }
    }

    @Test func anInMemoryCacheNeedsNoTryAndStoresInMemoryOnly() {
        let cache = HTTPCache.inMemory(capacity: 64 * 1_024)
        #expect(cache.configuration.memoryCapacity == 64 * 1_024)
        #expect(cache.configuration.directory == nil)
        let origin = countingOrigin(["Cache-Control": "max-age=600"])
        exchange(cache, makeRequest(url(1)), origin: origin)
        #expect(exchange(cache, makeRequest(url(1)), origin: origin).outcome == .hit)
        #expect(origin.requests.count == 1)
        #expect(cache.memoryUsage > 0 && cache.diskUsage == 0)
    }

    @Test func theLeastRecentlyUsedEntryIsEvictedFirst() throws {
        let cache = try memoryCache(clock, capacity: 3 * entrySize())
        let urls = (1...4).map(url)
        for url in urls.prefix(3) { exchange(cache, makeRequest(url), origin: origin) }
        #expect(exchange(cache, makeRequest(urls[0]), origin: origin).outcome == .hit)  // 1 is now the most recent
        exchange(cache, makeRequest(urls[3]), origin: origin)
        #expect(try stored(cache, among: urls) == [urls[2], urls[0], urls[3]])
    }

    @Test func theMemoryUsedNeverExceedsTheCapacity() throws {
        let size = try entrySize()
        let capacity = 3 * size + size / 2
        let cache = try memoryCache(clock, capacity: capacity)
        for number in 1...20 { exchange(cache, makeRequest(url(number)), origin: origin) }
        #expect(cache.memoryUsage <= capacity)
        #expect(try #require(cache.memory).count == 3)
        #expect(cache.inconsistencies().isEmpty)
    }

    @Test func anEntryLargerThanTheWholeCapacityIsNotStored() throws {
        let cache = try memoryCache(clock, capacity: try entrySize() - 1)
        exchange(cache, makeRequest(url(1)), origin: origin)
        #expect(cache.memoryUsage == 0)
        #expect(exchange(cache, makeRequest(url(1)), origin: origin).outcome == .network)
    }

    @Test func replacingAnEntryCountsItsBytesOnce() throws {
        let size = try entrySize()
        let cache = try memoryCache(clock)
        exchange(cache, makeRequest(url(1)), origin: origin)
        exchange(cache, makeRequest(url(1)), policy: .reloadIgnoringLocalCacheData, origin: origin)
        #expect(cache.memoryUsage == size)
    }
}
