import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MovieDB
import NetworkLayer
import Testing

/// Reading the environment, and what it does to the requests that are sent: the service's
/// router (its environment mapping and credential plugin) seen from a recording transport.
@Suite("Configuration from the environment")
struct ConfigurationTests {
    /// One of each endpoint.
    static let everyEndpoint: [MovieApi] = [
        .popular(page: 2), .newMovies(page: 1), .recommended(id: 550, page: 3), .video(id: 550),
        .details(id: 27205), .search(query: "amélie & co", page: 1), .configuration,
    ]

    /// The request the service sends for `api` with the configuration `variables` describe.
    private func makeRequest(_ api: MovieApi, _ variables: [String: String]) async throws -> URLRequest {
        let transport = RecordingTransport()
        let service = MovieService(
            configuration: try TMDBConfiguration(environmentVariables: variables), transport: transport, retryPolicy: .none,
            cache: nil)
        _ = await service.call(api)
        try #require(transport.requests.count == 1)
        return try #require(transport.requests.first)
    }

    private func queryItems(_ request: URLRequest) throws -> [String: String] {
        let url = try #require(request.url)
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    @Test("TMDB_ACCESS_TOKEN is sent as a Bearer header, and not in the URL")
    func tokenBecomesBearerHeader() async throws {
        let request = try await makeRequest(.popular(page: 1), ["TMDB_ACCESS_TOKEN": "secret-token"])

        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer secret-token")
        #expect(request.url?.absoluteString == "https://api.themoviedb.org/3/movie/popular?page=1")
    }

    @Test(
        "TMDB_API_KEY is sent as api_key on every endpoint, next to its own parameters",
        arguments: ConfigurationTests.everyEndpoint)
    func apiKeyOnEveryEndpoint(api: MovieApi) async throws {
        let request = try await makeRequest(api, ["TMDB_API_KEY": "k+y/1"])
        let items = try queryItems(request)

        #expect(items["api_key"] == "k+y/1")
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(request.url?.path == "/3/" + api.path)
        switch api {
        case .popular(let page), .newMovies(let page), .recommended(_, let page):
            #expect(items["page"] == String(page))
        case .search(let query, let page):
            #expect(items["query"] == query)
            #expect(items["page"] == String(page))
        case .video, .details, .configuration:
            #expect(items.count == 1)
        }
    }

    @Test(
        "Every endpoint keeps its own requirements through the environment mapping: method, Accept, 30 s timeout",
        arguments: ConfigurationTests.everyEndpoint)
    func endpointRequirementsSurviveTheMapping(api: MovieApi) async throws {
        let request = try await makeRequest(api, ["TMDB_ACCESS_TOKEN": "t", "TMDB_BASE_URL": "http://127.0.0.1:8080/3"])

        #expect(request.url?.host == "127.0.0.1")
        #expect(request.url?.path == "/3/" + api.path)
        #expect(request.httpMethod == api.httpMethod.rawValue)
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        // The transport's idle timeout is set a second past the router's deadline.
        #expect(request.timeoutInterval == api.timeout + 1)
        #expect(api.timeout == 30)
    }

    @Test("The api_key value is escaped: a '+' in a key is not read as a space by the server")
    func apiKeyIsEscaped() async throws {
        let request = try await makeRequest(.details(id: 550), ["TMDB_API_KEY": "k+y/1"])
        #expect(request.url?.absoluteString == "https://api.themoviedb.org/3/movie/550?api_key=k%2By/1")
    }

    @Test("A token wins over a key when both are set")
    func tokenWinsOverKey() async throws {
        let configuration = try TMDBConfiguration(environmentVariables: ["TMDB_ACCESS_TOKEN": "t", "TMDB_API_KEY": "k"])
        #expect(configuration.credential == .accessToken("t"))

        let request = try await makeRequest(.details(id: 550), ["TMDB_ACCESS_TOKEN": "t", "TMDB_API_KEY": "k"])
        #expect(try queryItems(request)["api_key"] == nil)
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer t")
    }

    @Test("Values are trimmed, so a key read with $(cat key.txt) works")
    func valuesAreTrimmed() async throws {
        let request = try await makeRequest(.details(id: 550), ["TMDB_ACCESS_TOKEN": "  tok\n"])
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer tok")
    }

    @Test("TMDB_BASE_URL replaces the host and path prefix; its own query is kept")
    func baseURLOverride() async throws {
        let configuration = try TMDBConfiguration(environmentVariables: ["TMDB_BASE_URL": "http://127.0.0.1:8080/tmdb/3/"])
        #expect(configuration.environment == .custom(try #require(URL(string: "http://127.0.0.1:8080/tmdb/3/"))))

        let request = try await makeRequest(
            .details(id: 550), ["TMDB_BASE_URL": "http://127.0.0.1:8080/tmdb/3/", "TMDB_ACCESS_TOKEN": "t"])
        #expect(request.url?.absoluteString == "http://127.0.0.1:8080/tmdb/3/movie/550")

        // The key is the plugin's, appended after the endpoint's own parameters.
        let withQuery = try await makeRequest(
            .popular(page: 4), ["TMDB_BASE_URL": "http://127.0.0.1:8080/3?region=FR", "TMDB_API_KEY": "key"])
        #expect(withQuery.url?.absoluteString == "http://127.0.0.1:8080/3/movie/popular?region=FR&page=4&api_key=key")
    }

    @Test("Without TMDB_BASE_URL the base URL is production")
    func defaultIsProduction() throws {
        let configuration = try TMDBConfiguration(environmentVariables: ["TMDB_API_KEY": "k"])
        #expect(configuration.environment == .production)
        #expect(configuration.baseURL.absoluteString == "https://api.themoviedb.org/3")
    }

    @Test("The illustrative environments have their own hosts")
    func environments() {
        #expect(NetworkEnvironment.production.baseURL.absoluteString == "https://api.themoviedb.org/3")
        #expect(NetworkEnvironment.staging.baseURL.absoluteString == "https://staging-api.themoviedb.org/3")
        #expect(NetworkEnvironment.qa.baseURL.absoluteString == "https://qa-api.themoviedb.org/3")
    }

    @Test(
        "No credential, or only empty ones, means offline",
        arguments: [
            [:], ["TMDB_ACCESS_TOKEN": "", "TMDB_API_KEY": "  "], ["TMDB_BASE_URL": "http://127.0.0.1:1/3"],
        ])
    func noCredentialIsOffline(variables: [String: String]) throws {
        let configuration = try TMDBConfiguration(environmentVariables: variables)
        #expect(configuration.credential == nil)
        #expect(configuration.isOffline)
        #expect(MovieService(configuration: configuration).isOffline)
    }

    @Test(
        "A TMDB_BASE_URL that is not an http(s) URL is rejected",
        arguments: ["api.themoviedb.org/3", "ftp://example.com/3", "http://", "not a url"])
    func invalidBaseURL(value: String) {
        #expect(throws: TMDBConfigurationError.invalidBaseURL(value)) {
            try TMDBConfiguration(environmentVariables: ["TMDB_BASE_URL": value, "TMDB_API_KEY": "k"])
        }
    }

    /// The message is printed: a key pasted into the URL's query or user info stays out of it
    /// (found from outside, 2026-11-26).
    @Test(
        "A rejected TMDB_BASE_URL is shown without its query or user info",
        arguments: [
            ("api.themoviedb.org/3?api_key=SECRET", "api.themoviedb.org/3?…"),
            ("api.themoviedb.org/3#SECRET", "api.themoviedb.org/3?…"),
            ("me:SECRET@api.themoviedb.org/3", "…@api.themoviedb.org/3"),
        ])
    func invalidBaseURLWithASecret(value: String, shown: String) {
        do {
            _ = try TMDBConfiguration(environmentVariables: ["TMDB_BASE_URL": value, "TMDB_API_KEY": "k"])
            Issue.record("accepted \(value)")
        } catch {
            #expect(error == .invalidBaseURL(shown))
            #expect(error.localizedDescription.contains("SECRET") == false, "\(error.localizedDescription)")
        }
    }

    @Test("Ids are path segments and the search query is percent-encoded")
    func pathsAndQueries() async throws {
        let recommended = try await makeRequest(.recommended(id: 550, page: 1), ["TMDB_ACCESS_TOKEN": "t"])
        #expect(recommended.url?.absoluteString == "https://api.themoviedb.org/3/movie/550/recommendations?page=1")
        #expect(recommended.httpMethod == "GET")
        #expect(recommended.httpBody == nil)

        let search = try await makeRequest(.search(query: "amélie & co", page: 1), ["TMDB_ACCESS_TOKEN": "t"])
        #expect(search.url?.absoluteString == "https://api.themoviedb.org/3/search/movie?page=1&query=am%C3%A9lie%20%26%20co")
    }
}
