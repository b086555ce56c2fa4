import Foundation
import MovieDB
import NetworkLayer
import Testing
import TestSupport

/// MovieService's HTTP cache against Tests/Fixtures/fake_tmdb.py, which answers like TMDB with
/// `Cache-Control: public, max-age=300`, and an `ETag` on details and configuration. What the
/// cache saved is read from the fake's log: a request the cache answered never reaches it.
///
/// The cache's clock is moved by hand, so the server's `Date` headers fall behind it: a response
/// revalidated after the clock moved already looks as old as the move (RFC 9111 §4.2.3), and no
/// test relies on its freshness after that.
@Suite("MovieService caching against the fake TMDB", .needsFakeTMDB)
struct CachingAgainstFakeTMDBTests {
    private let clock = ManualClock()

    /// A service whose memory cache runs on ``clock``.
    private func service() throws -> MovieService {
        MovieService(
            configuration: try FakeTMDB.configuration(.accessToken("test-token")),
            cache: try HTTPCache(configuration: .init(clock: clock.read)))
    }

    @Test("A second details() within max-age is answered by the cache and sends nothing")
    func detailsWithinMaxAge() async throws {
        let id = try await FakeTMDB.unusedMovieID(in: 700000...799999)
        let service = try service()

        let first = try await service.details(id: id)
        // Half of max-age, not all but 10 s of it: the clock is real time plus the moves, and a
        // second request held back for 10 s beside the other suites found the entry stale.
        clock.advance(by: FakeTMDB.maxAge / 2)
        let second = try await service.details(id: id)

        #expect(second == first)
        #expect(second.title == "Movie \(id)")
        let recorded = try await FakeTMDB.recordedRequests(path: "/3/movie/\(id)")
        #expect(recorded.map(\.status) == [200])
    }

    @Test("After max-age, details() revalidates with If-None-Match; the 304 serves the stored body")
    func detailsRevalidatedAfterMaxAge() async throws {
        let id = try await FakeTMDB.unusedMovieID(in: 700000...799999)
        let service = try service()

        let first = try await service.details(id: id)
        clock.advance(by: FakeTMDB.maxAge + 1)
        let revalidated = try await service.details(id: id)

        #expect(revalidated == first)
        let recorded = try await FakeTMDB.recordedRequests(path: "/3/movie/\(id)")
        #expect(recorded.map(\.status) == [200, 304])
        #expect(recorded.map(\.ifNoneMatch) == [nil, "\"movie-\(id)-v1\""])
    }

    @Test("configuration() is cached, then revalidated with its ETag")
    func configurationIsCached() async throws {
        let before = try await FakeTMDB.recordedRequests(path: "/3/configuration").count
        let service = try service()

        let first = try await service.configuration()
        let second = try await service.configuration()
        clock.advance(by: FakeTMDB.maxAge + 1)
        let third = try await service.configuration()

        #expect(first.images.secureBaseUrl == "https://image.tmdb.org/t/p/")
        #expect(first.images.posterSizes.last == "original")
        #expect(second == first)
        #expect(third == first)
        let recorded = try await FakeTMDB.recordedRequests(path: "/3/configuration").dropFirst(before)
        #expect(recorded.map(\.status) == [200, 304])
        #expect(recorded.last?.ifNoneMatch == "\"configuration-v1\"")
    }

    @Test("A popular page is fetched again, whole, once its max-age has passed: never served stale")
    func popularPageIsNotServedStale() async throws {
        let page = try await FakeTMDB.unusedPopularPage(in: 4...500)
        let service = try service()

        _ = try await service.popular(page: page)
        clock.advance(by: FakeTMDB.maxAge / 2)
        _ = try await service.popular(page: page)
        let cachedCount = try await FakeTMDB.recordedRequests(path: "/3/movie/popular", query: ["page": "\(page)"]).count
        clock.advance(by: FakeTMDB.maxAge / 2 + 1)
        let refetched = try await service.popular(page: page)

        #expect(refetched.page == page)
        #expect(cachedCount == 1)
        let recorded = try await FakeTMDB.recordedRequests(path: "/3/movie/popular", query: ["page": "\(page)"])
        // No validator on lists: the stale page is not revalidated but fetched in full.
        #expect(recorded.map(\.status) == [200, 200])
        #expect(recorded.map(\.ifNoneMatch) == [nil, nil])
    }

    @Test("A disk cache keeps details for the next service, as for the next run of the CLI")
    func diskCacheOutlivesTheService() async throws {
        let id = try await FakeTMDB.unusedMovieID(in: 700000...799999)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moviedb-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = try FakeTMDB.configuration(.accessToken("test-token"))

        let first = try await MovieService(configuration: configuration, cache: try HTTPCache(configuration: .init(directory: folder)))
            .details(id: id)
        // A new cache on the same folder, with nothing in memory: what it serves is from disk.
        let diskOnly = try HTTPCache(configuration: .init(memoryCapacity: 0, directory: folder))
        let second = try await MovieService(configuration: configuration, cache: diskOnly).details(id: id)

        #expect(second == first)
        #expect(diskOnly.diskUsage > 0)
        #expect(try await FakeTMDB.recordedRequests(path: "/3/movie/\(id)").count == 1)
    }

    @Test("A service made with the defaults caches in memory")
    func defaultServiceCaches() async throws {
        let id = try await FakeTMDB.unusedMovieID(in: 700000...799999)
        let service = MovieService(configuration: try FakeTMDB.configuration(.apiKey("test-key")))

        _ = try await service.details(id: id)
        _ = try await service.details(id: id)

        #expect(try await FakeTMDB.recordedRequests(path: "/3/movie/\(id)").count == 1)
    }

    @Test("Without a cache every details() reaches the server")
    func noCacheSendsEveryTime() async throws {
        let id = try await FakeTMDB.unusedMovieID(in: 700000...799999)
        let service = MovieService(configuration: try FakeTMDB.configuration(.accessToken("test-token")), cache: nil)

        _ = try await service.details(id: id)
        _ = try await service.details(id: id)

        #expect(try await FakeTMDB.recordedRequests(path: "/3/movie/\(id)").count == 2)
    }
}
