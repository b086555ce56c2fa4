import Foundation
import Testing
import TestSupport
@testable import NetworkLayer

/// Many tasks storing, reading and invalidating at once, in memory and on disk, with capacities
/// small enough that eviction runs all the time. Also run under ThreadSanitizer (Scripts/test).
@Suite("HTTP cache: concurrency", .timeLimit(.minutes(1)))
struct CacheConcurrencyTests {
    static let operations = 1_000
    static let urls = 40

    private static func url(_ number: Int) -> String { "https://api.example.com/items/\(number)" }

    /// Every answer names its URL and a version, so a body served for the wrong key shows.
    private static let origin = FakeOrigin { request, number in
        makeResponse(
            to: request, headers: ["Cache-Control": "max-age=600", "ETag": "\"\(number)\""],
            body: "\(request.url?.path ?? "?") version \(number) " + String(repeating: "x", count: number % 500))
    }

    /// One operation of the mix: a request through the cache (stored or served), a reload, a
    /// POST that invalidates, or an invalidation by hand. Returns a problem, if it saw one.
    private static func operate(_ cache: HTTPCache, _ number: Int) -> String? {
        let url = url(number * 7 % urls)
        switch number % 6 {
        case 0:
            exchange(cache, makeRequest(url, method: "POST"), origin: origin)
        case 1:
            cache.invalidate(URL(string: url)!)
        case 2:
            exchange(cache, makeRequest(url), policy: .reloadIgnoringLocalCacheData, origin: origin)
        default:
            let answer = exchange(cache, makeRequest(url), origin: origin)
            guard let body = answer.body, body.hasPrefix(URL(string: url)!.path + " version ") else {
                return "a request for \(url) got \(answer.body?.prefix(40) ?? "nothing")"
            }
        }
        return nil
    }

    private func run(_ cache: HTTPCache) async {
        let problems = await withTaskGroup(of: String?.self) { group in
            for number in 0..<Self.operations {
                group.addTask { Self.operate(cache, number) }
            }
            var problems: [String] = []
            for await problem in group { if let problem { problems.append(problem) } }
            return problems
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        #expect(cache.inconsistencies().isEmpty, "\(cache.inconsistencies())")
        // Whatever is left is served for its own URL only.
        for number in 0..<Self.urls {
            let answer = exchange(cache, makeRequest(Self.url(number)), policy: .returnCacheDataDontLoad, origin: Self.origin)
            if let body = answer.body {
                #expect(body.hasPrefix(URL(string: Self.url(number))!.path + " version "))
            }
        }
    }

    @Test func aThousandConcurrentOperationsInMemoryLeaveAConsistentCache() async throws {
        let cache = try HTTPCache(configuration: .init(memoryCapacity: 16 * 1_024))
        await run(cache)
    }

    @Test func aThousandConcurrentOperationsInMemoryAndOnDiskLeaveAConsistentCache() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try HTTPCache(configuration: .init(memoryCapacity: 8 * 1_024, directory: folder, diskCapacity: 24 * 1_024))
        await run(cache)
        let reopened = try HTTPCache(configuration: .init(memoryCapacity: 0, directory: folder, diskCapacity: 24 * 1_024))
        #expect(reopened.diskUsage == cache.diskUsage)
        #expect(reopened.inconsistencies().isEmpty)
    }
}
