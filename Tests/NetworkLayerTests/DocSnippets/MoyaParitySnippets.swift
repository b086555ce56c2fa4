// Code of the articles' sections on what matches Moya: response mapping, per-endpoint
// authorization, the credentials and activity plugins, downloads named by the response,
// testing a plugin, and legacy parameters. See GettingStartedSnippets.swift for how these
// regions keep the articles compiling; the tests at the end run.
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkLayer

// snippet.start account-api
enum AccountApi: EndPointType {
    case login(user: String, password: String)
    case profile
    case avatar(Data)

    var baseURL: URL { URL(string: "https://api.example.com")! }
    var path: String {
        switch self {
        case .login: return "login"
        case .profile: return "me"
        case .avatar: return "me/avatar"
        }
    }
    var httpMethod: HTTPMethod { self == .profile ? .get : .post }
    var task: HTTPTask {
        switch self {
        case .login(let user, let password):
            return .requestParameters(bodyParameters: ["user": user, "password": password], bodyEncoding: .json, urlParameters: nil)
        case .profile:
            return .request
        case .avatar(let image):
            return .uploadData(image, contentType: "image/png")
        }
    }
    var headers: HTTPHeaders? { nil }

    var authorizationType: AuthorizationType? {
        switch self {
        case .login: return nil  // no token at all
        case .profile: return .plugin  // as the plugin was made: Bearer here
        case .avatar: return .custom("Token")  // Authorization: Token <token>
        }
    }
}
// snippet.end

extension AccountApi: Equatable {}

// snippet.start reports-api
enum ReportsApi: EndPointType {
    case report(id: Int, into: URL)

    var baseURL: URL { URL(string: "https://api.example.com")! }
    var path: String {
        switch self {
        case .report(let id, _): return "reports/\(PathSegment(id))"
        }
    }
    var httpMethod: HTTPMethod { .get }
    var task: HTTPTask {
        switch self {
        case .report(_, let folder):
            // Named by Content-Disposition (filename* first), else by the URL: "reports/7" is "7".
            return .download(.directory(folder, options: [.createIntermediateDirectories]))
        }
    }
    var headers: HTTPHeaders? { nil }
}
// snippet.end

// snippet.start spinner
@MainActor final class Spinner {
    var requests = 0 {
        didSet { isVisible = requests > 0 }
    }
    private(set) var isVisible = false
}
// snippet.end

enum MoyaParitySnippets {
    static func mapping(router: Router<MovieApi>) async throws {
        // snippet.start mapping
        let response = try await router.request(.popular(page: 1))
        let movies = try response.filterSuccessfulStatusCodes().map([Movie].self, atKeyPath: "results")
        let firstTitle = try response.mapString(atKeyPath: "results.0.title")
        let json = try response.mapJSON()  // a Sendable JSONValue
        print(movies.count, firstTitle, json["total_pages"]?.intValue ?? 0)

        // The same in one call:
        let results = try await router.request(.popular(page: 1), as: [Movie].self, atKeyPath: "results")
        // snippet.end
        _ = results
    }

    static func emptyBodies(response: Response) throws {
        // snippet.start empty-bodies
        struct Preferences: Decodable {
            let language: String?
            let adult: Bool?
        }
        let preferences = try response.map(Preferences.self, failsOnEmptyData: false)  // {} when empty
        let lists = try response.map([Movie].self, failsOnEmptyData: false)  // [] when empty
        // snippet.end
        _ = (preferences, lists)
    }

    static func authorization() {
        // snippet.start credentials
        let sameForAll = CredentialsPlugin(user: "ada", password: "s3cret")
        let perEndpoint = CredentialsPlugin { target in
            target.path == "health" ? nil : URLCredential(user: "ada", password: "s3cret", persistence: .none)
        }
        // snippet.end
        _ = (sameForAll, perEndpoint)

        // snippet.start account-router
        let router = Router<AccountApi>(plugins: [AccessTokenPlugin(token: { "…" })])
        // snippet.end
        _ = router

        // snippet.start moya-token-origins
        let store = TokenStore()
        let auth = AccessTokenPlugin(
            origins: [URL(string: "https://api.example.com")!],
            token: { await store.current() })
        // snippet.end
        _ = auth
    }

    @MainActor static func activity() {
        // snippet.start activity
        let spinner = Spinner()
        let activity = NetworkActivityPlugin { change, _ in
            Task { @MainActor in spinner.requests += change == .began ? 1 : -1 }
        }
        let router = Router<MovieApi>(plugins: [activity])
        // snippet.end
        _ = router
    }

    static func directory(router: Router<ReportsApi>, downloads: URL) async throws {
        // snippet.start directory-download
        let response = try await router.request(.report(id: 7, into: downloads))
        print(response.fileURL?.lastPathComponent ?? "-")  // "report-7.pdf", from Content-Disposition
        // snippet.end
    }

    static func legacyParameters(data: Data) throws {
        // snippet.start legacy-parameters
        let legacy = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        let parameters = try Parameters(validating: legacy)  // throws, naming "user.born" for a Date
        let task = HTTPTask.requestParameters(bodyParameters: parameters, bodyEncoding: .json, urlParameters: nil)
        // snippet.end
        _ = task
    }
}

// snippet.start moya-style-plugin
struct AuditPlugin: PluginType {
    // Not Moya's prepare(_:target:): that would be a method of its own, never called.
    func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        var request = request
        try request.setHeader("\(context.target.path)", for: "X-Audit-Path")
        return request
    }
}
// snippet.end

@Suite("Doc snippets: testing a plugin")
struct DocSnippetPluginTests {
    // snippet.start plugin-unit-test
    @Test func theLoginSendsNoToken() async throws {
        let plugin = AccessTokenPlugin(token: { "t-1" })
        let request = URLRequest(url: URL(string: "https://api.example.com/login")!)

        let login = try await plugin.prepare(request, context: RequestContext(target: AccountApi.login(user: "ada", password: "…")))
        let profile = try await plugin.prepare(request, context: RequestContext(target: AccountApi.profile))

        #expect(login.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(profile.value(forHTTPHeaderField: "Authorization") == "Bearer t-1")
    }

    @Test func aHandMadeResponseMaps() throws {
        let response = try Response(statusCode: 200, data: Data(#"{"results":[{"id":550,"title":"Fight Club"}]}"#.utf8))
        #expect(try response.map([Movie].self, atKeyPath: "results").first?.title == "Fight Club")
        #expect(throws: NetworkError.self) { try Response(statusCode: 404).filterSuccessfulStatusCodes() }
    }
    // snippet.end

    @Test func theAuditPluginNamesThePath() async throws {
        let prepared = try await AuditPlugin().prepare(
            URLRequest(url: URL(string: "https://api.example.com/me")!), context: RequestContext(target: AccountApi.profile))
        #expect(prepared.value(forHTTPHeaderField: "X-Audit-Path") == "me")
    }
}
