import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MovieDB
import TestSupport

/// Helpers for Tests/Fixtures/fake_tmdb.py: its URL, its request log, its scripted ids.
enum FakeTMDB {
    /// The fake's base URL, including `/3`.
    static var baseURL: URL {
        get throws {
            guard let url = TestServers.fakeTMDB else { throw URLError(.badURL) }
            return url
        }
    }

    /// A configuration for the fake with `credential`.
    static func configuration(_ credential: TMDBCredential?) throws -> TMDBConfiguration {
        TMDBConfiguration(environment: .custom(try baseURL), credential: credential)
    }

    /// One request as the fake recorded it.
    struct RecordedRequest: Decodable {
        let path: String
        let query: [String: String]
        let authorized: Bool
        /// The status the fake answered with.
        let status: Int?
        /// The `If-None-Match` the request carried: a cache revalidating what it holds.
        let ifNoneMatch: String?

        private enum CodingKeys: String, CodingKey {
            case path, query, authorized, status
            case ifNoneMatch = "if_none_match"
        }
    }

    /// Every API request the fake has received since it started (`GET /__stats`, which is not
    /// itself recorded).
    static func recordedRequests() async throws -> [RecordedRequest] {
        struct Stats: Decodable { let requests: [RecordedRequest] }
        let url = try baseURL.deletingLastPathComponent().appendingPathComponent("__stats")
        let (data, _) = try await URLSession.shared.data(for: URLRequest(url: url))
        return try JSONDecoder().decode(Stats.self, from: data).requests
    }

    /// The recorded requests for `path` (e.g. `/3/movie/550`) whose query has `query`'s pairs.
    static func recordedRequests(path: String, query: [String: String] = [:]) async throws -> [RecordedRequest] {
        try await recordedRequests().filter { request in
            request.path == path && query.allSatisfy { request.query[$0.key] == $0.value }
        }
    }

    /// A movie id in `range` that the fake has not been asked for yet, so that a test of the
    /// "429 once" ids is not confused by an earlier run against the same server.
    static func unusedMovieID(in range: ClosedRange<Int>) async throws -> Int {
        let used = Set(try await recordedRequests().map(\.path))
        for _ in 0..<1000 {
            let id = Int.random(in: range)
            if !used.contains("/3/movie/\(id)") { return id }
        }
        throw CocoaError(.featureUnsupported)
    }

    /// A page of `movie/popular` in `range` that the fake has not been asked for yet.
    static func unusedPopularPage(in range: ClosedRange<Int>) async throws -> Int {
        let used = Set(try await recordedRequests(path: "/3/movie/popular").compactMap { $0.query["page"] })
        for _ in 0..<1000 {
            let page = Int.random(in: range)
            if !used.contains(String(page)) { return page }
        }
        throw CocoaError(.featureUnsupported)
    }

    /// How many seconds the fake lets a client keep an answer (`Cache-Control: public, max-age=300`).
    static let maxAge: TimeInterval = 300

    /// TMDB's message for a wrong key, as the fake (and TMDB) sends it.
    static let invalidKeyMessage = "Invalid API key: You must be granted a valid key."
    /// TMDB's message for an unknown id.
    static let notFoundMessage = "The resource you requested could not be found."
    /// The page-1 titles of `movie/popular`.
    static let popularTitles = ["Popular 1-1", "Popular 1-2", "Popular 1-3", "Amélie 東京 🎬 Popular 1-4"]
}
