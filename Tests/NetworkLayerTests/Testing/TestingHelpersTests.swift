import Foundation
import Testing
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The public initialisers a user's tests call: a `Response` from a status and a body, and a
/// `RequestContext` for an endpoint, so that a plugin is tested by calling its hooks.
/// (`import NetworkLayer` without `@testable`: only public API.)
@Suite("Testing helpers")
struct TestingHelpersTests {
    enum Api: EndPointType {
        case login
        case profile

        var baseURL: URL { URL(string: "https://example.invalid/api")! }
        var path: String { self == .login ? "login" : "me" }
        var httpMethod: HTTPMethod { self == .login ? .post : .get }
        var task: HTTPTask { .request }
        var headers: HTTPHeaders? { nil }
        var authorizationType: AuthorizationType? { self == .login ? nil : .plugin }
    }

    /// A user's plugin: turns a 404 into an empty 200 for one endpoint.
    struct MissingProfileIsEmpty: PluginType {
        func process(_ result: Result<Response, NetworkError>, context: RequestContext) -> Result<Response, NetworkError> {
            guard case .failure(.unacceptableStatusCode(let response)) = result, response.statusCode == 404,
                context.target as? Api == .profile
            else { return result }
            return Result { try Response(statusCode: 200, data: Data("{}".utf8), request: response.request) }
                .mapError { $0 as? NetworkError ?? .underlying($0) }
        }
    }

    @Test func aResponseFromAStatusAndABody() throws {
        let response = try Response(statusCode: 404, data: Data("gone".utf8), headers: ["Retry-After": "5"])
        #expect(response.statusCode == 404)
        #expect(response.text == "gone")
        #expect(response.header("retry-after") == "5")
        #expect(response.request.url == URL(string: "http://localhost/"))
        #expect(response.httpResponse.url == response.request.url)
        #expect(response.fileURL == nil)
    }

    @Test func aResponseKeepsTheRequestItAnswers() throws {
        var request = URLRequest(url: URL(string: "https://example.invalid/api/me")!)
        request.httpMethod = "DELETE"
        let response = try Response(statusCode: 204, request: request)
        #expect(response.request.httpMethod == "DELETE")
        #expect(response.httpResponse.url == request.url)
        #expect(response.data.isEmpty)
    }

    @Test(arguments: [0, 99, 599, 999, -1])
    func anyStatusMakesAResponse(_ status: Int) throws {
        #expect(try Response(statusCode: status).statusCode == status)
    }

    @Test func aContextForAnEndpoint() {
        let context = RequestContext(target: Api.profile, id: 7, attempt: 2)
        #expect(context.target as? Api == .profile)
        #expect(context.id == 7)
        #expect(context.attempt == 2)
        #expect(context.redaction.headers.contains("authorization"))
        #expect(context.elapsed >= 0)
    }

    @Test func aPluginsPrepareIsCalledDirectly() async throws {
        let plugin = AccessTokenPlugin(token: { "t-1" })
        let request = URLRequest(url: URL(string: "https://example.invalid/api/me")!)
        let profile = try await plugin.prepare(request, context: RequestContext(target: Api.profile))
        #expect(profile.value(forHTTPHeaderField: "Authorization") == "Bearer t-1")
        let login = try await plugin.prepare(request, context: RequestContext(target: Api.login))
        #expect(login.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func aPluginsProcessIsCalledDirectly() throws {
        let notFound = try Response(statusCode: 404, data: Data("nope".utf8))
        let plugin = MissingProfileIsEmpty()
        let profile = plugin.process(.failure(.unacceptableStatusCode(notFound)), context: RequestContext(target: Api.profile))
        #expect(try profile.get().statusCode == 200)
        let login = plugin.process(.failure(.unacceptableStatusCode(notFound)), context: RequestContext(target: Api.login))
        #expect(login.error?.statusCode == 404)
    }

    @Test func anActivityPluginsHooksAreCalledDirectly() throws {
        let changes = ChangeLog()
        let plugin = NetworkActivityPlugin { change, _ in changes.append(change) }
        // Sent once: began in willSend, ended in didReceive.
        let sent = RequestContext(target: Api.profile, attempt: 1)
        plugin.willSend(URLRequest(url: Api.profile.baseURL), context: sent)
        #expect(plugin.requestsInFlight == 1)
        plugin.didReceive(.success(try Response(statusCode: 200)), context: sent)
        // Never sent (attempt 0): both at once.
        plugin.didReceive(.failure(.cancelled), context: RequestContext(target: Api.profile))
        #expect(changes.all == [.began, .ended, .began, .ended])
        #expect(plugin.requestsInFlight == 0)
    }
}

private final class ChangeLog: @unchecked Sendable {
    private var changes: [NetworkActivityPlugin.Change] = []
    private let lock = NSLock()
    func append(_ change: NetworkActivityPlugin.Change) { lock.lock(); changes.append(change); lock.unlock() }
    var all: [NetworkActivityPlugin.Change] { lock.lock(); defer { lock.unlock() }; return changes }
}

extension Result {
    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
