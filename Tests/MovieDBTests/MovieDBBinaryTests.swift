import Foundation
import MovieDB
import Testing
import TestSupport

/// The built movie-db executable, run as a user would, against the fake TMDB.
@Suite("movie-db executable", .needsMovieDBBinary, .timeLimit(.minutes(1)))
struct MovieDBBinaryTests {
    /// The child's whole environment: the fake's URL and a credential, nothing inherited.
    private func environment(_ credential: [String: String] = ["TMDB_ACCESS_TOKEN": "test-token"]) throws -> [String: String] {
        credential.merging(["TMDB_BASE_URL": try FakeTMDB.baseURL.absoluteString]) { own, _ in own }
    }

    @Test("popular prints a table of the page-1 titles", .needsFakeTMDB)
    func popularTable() async throws {
        let run = try await runMovieDBBinary(["popular"], environment: environment())

        #expect(run.status == 0)
        #expect(run.standardError.isEmpty)
        #expect(run.outputLines.first?.split(separator: " ") == ["ID", "TITLE", "YEAR", "RATING"])
        for title in FakeTMDB.popularTitles {
            #expect(run.outputLines.contains { $0.contains(title) }, "missing \(title)")
        }
        #expect(run.outputLines.contains("1001  Popular 1-1              2024     7.3"))
        #expect(run.outputLines.last == "page 1 of 3 (55 results)")
    }

    @Test("popular --json prints JSON whose results are the page's movies", .needsFakeTMDB)
    func popularJSON() async throws {
        let run = try await runMovieDBBinary(["popular", "--json"], environment: environment())

        #expect(run.status == 0)
        let object = try jsonObject(Data(run.standardOutput.utf8))
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.compactMap { $0["title"] as? String } == FakeTMDB.popularTitles)
        #expect(results.compactMap { $0["id"] as? Int } == [1001, 1002, 1003, 1004])
        #expect(object["total_pages"] as? Int == 3)
        #expect(object["total_results"] as? Int == 55)
    }

    @Test("movie 404404 prints one line saying it could not be found, and exits 1", .needsFakeTMDB)
    func missingMovie() async throws {
        let run = try await runMovieDBBinary(["movie", "404404"], environment: environment())

        #expect(run.status == 1)
        #expect(run.standardOutput.isEmpty)
        #expect(run.errorLines.count == 1)
        #expect(run.errorLines.first?.contains("could not be found") == true)
    }

    @Test("A wrong TMDB_API_KEY prints TMDB's invalid-key message and fails", .needsFakeTMDB)
    func wrongKey() async throws {
        let run = try await runMovieDBBinary(["popular"], environment: environment(["TMDB_API_KEY": "wrong"]))

        #expect(run.status != 0)
        #expect(run.errorLines == ["movie-db: Not authorized (401: \(FakeTMDB.invalidKeyMessage))."])
    }

    @Test("Without credentials it shows the samples and sends nothing, even with TMDB_BASE_URL set", .needsFakeTMDB)
    func offline() async throws {
        let base = try FakeTMDB.baseURL.absoluteString
        let popular = try await runMovieDBBinary(["popular"], environment: ["TMDB_BASE_URL": base])

        #expect(popular.status == 0)
        #expect(
            popular.errorLines == [
                "movie-db: no TMDB_ACCESS_TOKEN or TMDB_API_KEY set; showing bundled sample data (offline)."
            ])
        #expect(popular.outputLines.contains { $0.contains("Fight Club") && $0.contains("1999") })
        #expect(popular.outputLines.last == "page 1 of 1 (8 results)")

        // A marker only this run can send: other tests may use the server at the same time.
        let marker = "offline-\(UUID().uuidString)"
        let search = try await runMovieDBBinary(["search", marker], environment: ["TMDB_BASE_URL": base])
        #expect(search.status == 0)
        let recorded = try await FakeTMDB.recordedRequests()
        #expect(!recorded.contains { $0.query["query"] == marker })
    }

    @Test("--help prints the usage and exits 0")
    func help() async throws {
        let run = try await runMovieDBBinary(["--help"], environment: [:])
        #expect(run.status == 0)
        #expect(run.standardOutput == MovieDBCommand.usage)
    }

    @Test("An unknown subcommand exits 2 with an error and a hint")
    func unknownSubcommand() async throws {
        let run = try await runMovieDBBinary(["trending"], environment: [:])
        #expect(run.status == 2)
        #expect(run.errorLines == ["movie-db: unknown command 'trending'", "Run 'movie-db --help' for usage."])
        #expect(run.standardOutput.isEmpty)
    }
}
