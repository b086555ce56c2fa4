import Foundation
import MovieDB
import NetworkLayer
import Testing
import TestSupport

/// The movie-db command run in-process: offline (an empty environment), or with a stub
/// transport playing the server. No test here opens a socket.
@Suite("movie-db in-process")
struct CommandLineTests {
    private static let offlineNotice =
        "movie-db: no TMDB_ACCESS_TOKEN or TMDB_API_KEY set; showing bundled sample data (offline)."

    @Test("Offline, popular prints an aligned table of the samples, a footer and the notice")
    func offlinePopularTable() async throws {
        let run = await runCommand(["popular"])

        #expect(run.status == 0)
        #expect(run.errorLines == [Self.offlineNotice])
        let lines = run.outputLines
        try #require(lines.count == 10)
        #expect(lines[0] == "     ID  TITLE                              YEAR  RATING")
        #expect(lines[1] == "    550  Fight Club                         1999     8.4")
        #expect(lines[6] == "    194  Amélie                             2001     7.9")
        #expect(lines[8] == "1316092  Untitled Denis Villeneuve Project  -          -")
        #expect(lines[9] == "page 1 of 1 (8 results)")
        // Every row starts its title where the heading does.
        let titleColumn = lines[0].distance(from: lines[0].startIndex, to: try #require(lines[0].range(of: "TITLE")).lowerBound)
        for line in lines[1..<9] {
            #expect(line.dropFirst(titleColumn - 2).hasPrefix("  "))
            #expect(line.dropFirst(titleColumn).first != " ")
        }
    }

    @Test("Offline, --json prints the sample page as JSON, wherever the flag is")
    func offlineJSON() async throws {
        for arguments in [["popular", "--json"], ["--json", "popular"], ["popular", "--json", "--page", "1"]] {
            let run = await runCommand(arguments)
            #expect(run.status == 0)
            #expect(run.errorLines == [Self.offlineNotice])
            let object = try jsonObject(Data(run.standardOutput.utf8))
            let results = try #require(object["results"] as? [[String: Any]])
            #expect(results.compactMap { $0["title"] as? String }.prefix(2) == ["Fight Club", "Inception"])
            #expect(results.first?["id"] as? Int == 550)
            #expect(object["total_results"] as? Int == 8)
            #expect(object["page"] as? Int == 1)
        }
    }

    @Test("Offline, search takes several words and --json in between")
    func offlineSearch() async throws {
        let run = await runCommand(["search", "dark", "--json", "knight"])
        #expect(run.status == 0)
        let results = try #require(try jsonObject(Data(run.standardOutput.utf8))["results"] as? [[String: Any]])
        #expect(results.compactMap { $0["title"] as? String } == ["The Dark Knight"])
    }

    @Test("Offline, movie prints labelled details")
    func offlineDetails() async {
        let run = await runCommand(["movie", "550"])
        #expect(run.status == 0)
        #expect(
            run.outputLines.prefix(4) == [
                "Fight Club (1999)", "Tagline:  Mischief. Mayhem. Soap.", "Runtime:  139 min", "Rating:   8.4 / 10",
            ])
        #expect(run.outputLines.contains("Genres:   Drama"))
        #expect(run.outputLines.contains { $0.hasPrefix("Overview: A ticking-time-bomb insomniac") })
    }

    @Test("Offline, videos prints a table of sites and links")
    func offlineVideos() async {
        let run = await runCommand(["videos", "550"])
        #expect(run.status == 0)
        #expect(
            run.outputLines == [
                "SITE     TYPE        NAME               URL",
                "YouTube  Trailer     Official Trailer   https://www.youtube.com/watch?v=BdJKm16Co6M",
                "Vimeo    Featurette  Behind the Scenes  https://vimeo.com/76979871",
            ])
    }

    @Test("Help goes to stdout with status 0", arguments: [["--help"], ["-h"], ["help"], ["popular", "--help"]])
    func help(arguments: [String]) async {
        let run = await runCommand(arguments)
        #expect(run.status == 0)
        #expect(run.standardOutput == MovieDBCommand.usage)
        #expect(run.standardOutput.hasPrefix("USAGE: movie-db <command>"))
        #expect(run.standardError.isEmpty)
    }

    @Test("No arguments print the usage on stderr with status 2")
    func noArguments() async {
        let run = await runCommand([])
        #expect(run.status == 2)
        #expect(run.standardError == MovieDBCommand.usage)
        #expect(run.standardOutput.isEmpty)
    }

    @Test(
        "A wrong command line prints one error line and a hint, with status 2",
        arguments: [
            (["frobnicate"], "movie-db: unknown command 'frobnicate'"),
            (["popular", "--page", "abc"], "movie-db: invalid page 'abc': expected a whole number from 1 to 500"),
            (["popular", "--page", "0"], "movie-db: invalid page '0': expected a whole number from 1 to 500"),
            (["popular", "--page"], "movie-db: --page needs a number"),
            (["popular", "--verbose"], "movie-db: unknown option '--verbose'"),
            (["popular", "extra"], "movie-db: unexpected argument 'extra' after 'popular'"),
            (["movie"], "movie-db: 'movie' needs a movie id"),
            (["movie", "fight-club"], "movie-db: invalid movie id 'fight-club': expected a positive whole number"),
            (["recommended", "-3"], "movie-db: invalid movie id '-3': expected a positive whole number"),
            (["videos", "550", "--page", "2"], "movie-db: 'videos' does not take --page"),
            (["search"], "movie-db: 'search' needs a query"),
            (["--json"], "movie-db: missing command"),
        ])
    func usageErrors(arguments: [String], message: String) async {
        let run = await runCommand(arguments)
        #expect(run.status == 2)
        #expect(run.errorLines == [message, "Run 'movie-db --help' for usage."])
        #expect(run.standardOutput.isEmpty)
    }

    @Test("A bad TMDB_BASE_URL is a usage error, before anything is sent")
    func badBaseURL() async {
        let run = await runCommand(["popular"], environment: ["TMDB_BASE_URL": "localhost:8080", "TMDB_API_KEY": "k"])
        #expect(run.status == 2)
        #expect(
            run.errorLines == [
                "movie-db: TMDB_BASE_URL \"localhost:8080\" is not an http(s) URL such as https://api.themoviedb.org/3."
            ])
    }

    @Test("A server error prints exactly one line with TMDB's message, with status 1")
    func serverErrorIsOneLine() async {
        let body = #"{"success":false,"status_code":7,"status_message":"Invalid API key: You must be granted a valid key."}"#
        let transport = StubTransport(StubResponse(statusCode: 401, data: Data(body.utf8)))
        let run = await runCommand(["popular"], environment: ["TMDB_API_KEY": "wrong"], transport: transport)

        #expect(run.status == 1)
        #expect(run.errorLines == ["movie-db: Not authorized (401: Invalid API key: You must be granted a valid key.)."])
        #expect(run.standardOutput.isEmpty)
    }

    @Test("A body that does not decode gives one line, which does not quote the body")
    func decodingErrorIsOneLine() async {
        let transport = StubTransport(StubResponse(statusCode: 200, data: Data("<html>\n<body>oops</body>\n</html>".utf8)))
        let run = await runCommand(["movie", "550"], environment: ["TMDB_ACCESS_TOKEN": "t"], transport: transport)

        #expect(run.status == 1)
        #expect(run.errorLines.count == 1)
        #expect(run.errorLines.first?.hasPrefix("movie-db: The 200 response (32-byte body) could not be decoded") == true)
        #expect(run.errorLines.first?.contains("oops") == false, "error strings show no body (issue 23)")
    }

    @Test("A movie the server sends but we cannot read is reported under the table, not hidden")
    func skippedMoviesAreReported() async {
        let body = #"""
            {"page": 1, "total_pages": 1, "total_results": 2, "results": [
              {"id": 1, "title": "Readable", "release_date": "2020-05-01", "vote_average": 6.04, "vote_count": 9},
              {"id": "not a number", "title": "Odd"}]}
            """#
        let transport = StubTransport(StubResponse(data: Data(body.utf8)))
        let run = await runCommand(["popular"], environment: ["TMDB_ACCESS_TOKEN": "t"], transport: transport)

        #expect(run.status == 0)
        #expect(run.standardError.isEmpty)
        #expect(
            run.outputLines == [
                "ID  TITLE     YEAR  RATING",
                " 1  Readable  2020     6.0",
                "page 1 of 1 (2 results; 1 on this page could not be read and is not shown)",
            ])
    }
}
