import Foundation
import MovieDB
import NetworkLayer
import Testing
import TestSupport

/// MovieService against Tests/Fixtures/fake_tmdb.py, which answers like TMDB with fixed data
/// and scripted failures.
@Suite("MovieService against the fake TMDB", .needsFakeTMDB)
struct FakeTMDBServiceTests {
    private func service(_ credential: TMDBCredential? = .accessToken("test-token")) throws -> MovieService {
        MovieService(configuration: try FakeTMDB.configuration(credential))
    }

    @Test("The popular page decodes, the awkward movies included")
    func popularPage() async throws {
        let page = try await service().popular()

        #expect(page.results.map(\.title) == FakeTMDB.popularTitles)
        #expect(page.page == 1)
        #expect(page.totalPages == 3)
        #expect(page.totalResults == 55)
        #expect(page.skippedResults == 0)
        #expect(page.results[0].voteAverage == 7.25)
        #expect(page.results[0].year == 2024)
        #expect(page.results[1].posterPath == nil)
        #expect(page.results[1].backdropPath == nil)
        #expect(page.results[2].year == nil)
        #expect(page.results[2].genreIds == [])
        #expect(page.results[3].originalLanguage == "fr")
    }

    @Test("An access token is sent as a Bearer header, not in the query")
    func tokenIsSentAsBearer() async throws {
        let marker = "bearer-\(UUID().uuidString)"
        let page = try await service(.accessToken("test-token")).search(query: marker)
        #expect(page.results.first?.title == "Result for \(marker) 1-1")

        let recorded = try await FakeTMDB.recordedRequests().filter { $0.query["query"] == marker }
        #expect(recorded.count == 1)
        #expect(recorded.first?.path == "/3/search/movie")
        #expect(recorded.first?.authorized == true)
        #expect(recorded.first?.query["api_key"] == nil)
    }

    @Test("An API key is sent as the api_key query parameter")
    func apiKeyIsSentInQuery() async throws {
        let marker = "key-\(UUID().uuidString)"
        _ = try await service(.apiKey("test-key")).search(query: marker, page: 2)

        let recorded = try await FakeTMDB.recordedRequests().filter { $0.query["query"] == marker }
        #expect(recorded.count == 1)
        #expect(recorded.first?.authorized == true)
        #expect(recorded.first?.query == ["api_key": "test-key", "page": "2", "query": marker])
    }

    @Test("A wrong key is an authentication error carrying TMDB's message")
    func wrongKey() async throws {
        let service = try service(.apiKey("wrong"))
        let error = try #require(await apiError { () async throws(APIError) in try await service.popular() })
        guard case .authentication(let failure) = error else {
            Issue.record("expected .authentication, got \(error)")
            return
        }
        #expect(failure.statusCode == 401)
        #expect(failure.serverMessage == FakeTMDB.invalidKeyMessage)
        #expect(error.localizedDescription == "Not authorized (401: \(FakeTMDB.invalidKeyMessage)).")
    }

    @Test("An unknown movie is notFound with TMDB's status_code 34")
    func notFound() async throws {
        let service = try service()
        let error = try #require(await apiError { () async throws(APIError) in try await service.details(id: 404404) })
        guard case .notFound(let failure) = error else {
            Issue.record("expected .notFound, got \(error)")
            return
        }
        #expect(failure.serverMessage == FakeTMDB.notFoundMessage)
        let body = try TMDBCoding.makeDecoder().decode(TMDBError.self, from: failure.response.data)
        #expect(body.statusCode == 34)
    }

    @Test("A 500 is a server error with TMDB's message")
    func serverError() async throws {
        let service = try service()
        let error = try #require(await apiError { () async throws(APIError) in try await service.videos(id: 500500) })
        guard case .serverError(let failure) = error else {
            Issue.record("expected .serverError, got \(error)")
            return
        }
        #expect(failure.statusCode == 500)
        #expect(failure.serverMessage == "Internal error: Something went wrong, contact TMDb.")
    }

    @Test("A 429 with Retry-After: 1 is waited out and retried once, then succeeds")
    func rateLimitedOnce() async throws {
        let id = try await FakeTMDB.unusedMovieID(in: 900000...900999)
        let service = try service()
        let clock = ContinuousClock()
        let start = clock.now
        let details = try await service.details(id: id)
        let elapsed = clock.now - start

        #expect(details.id == id)
        #expect(details.title == "Movie \(id)")
        #expect(elapsed >= .seconds(1))
        let recorded = try await FakeTMDB.recordedRequests().filter { $0.path == "/3/movie/\(id)" }
        #expect(recorded.count == 2)
    }

    @Test("A 429 that persists is rateLimited after two retries, with Retry-After parsed")
    func rateLimitedAlways() async throws {
        let id = try await FakeTMDB.unusedMovieID(in: 901000...901999)
        let service = try service()
        let clock = ContinuousClock()
        let start = clock.now
        let error = try #require(await apiError { () async throws(APIError) in try await service.details(id: id) })
        let elapsed = clock.now - start

        guard case .rateLimited(let failure) = error else {
            Issue.record("expected .rateLimited, got \(error)")
            return
        }
        #expect(failure.retryAfter == .seconds(1))
        #expect(failure.serverMessage == "Your request count (41) is over the allowed limit of 40.")
        #expect(elapsed >= .seconds(2))
        let recorded = try await FakeTMDB.recordedRequests().filter { $0.path == "/3/movie/\(id)" }
        #expect(recorded.count == 3)
    }
}
