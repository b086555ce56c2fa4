import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Per-endpoint authorization (`EndPointType.authorizationType`): no token for a login or a
/// public endpoint, or a scheme of the endpoint's own, with the plugin's scheme by default.
@Suite("Per-endpoint authorization")
struct AuthorizationTypeTests {
    private func endpoint(_ authorization: AuthorizationType?, path: String = "x") -> TestEndpoint {
        var endpoint = TestEndpoint.offline(path)
        endpoint.authorizationType = authorization
        return endpoint
    }

    private func prepared(_ plugin: any PluginType, for authorization: AuthorizationType?) async throws -> URLRequest {
        try await plugin.prepare(
            URLRequest(url: URL(string: "https://example.invalid/api/x")!), context: RequestContext(target: endpoint(authorization)))
    }

    @Test func anEndpointThatSaysNothingGetsNoToken() async throws {
        struct Plain: EndPointType {
            var baseURL: URL { URL(string: "https://example.invalid")! }
            var path: String { "x" }
            var httpMethod: HTTPMethod { .get }
            var task: HTTPTask { .request }
            var headers: HTTPHeaders? { nil }
        }
        #expect(Plain().authorizationType == nil)
        let request = try await AccessTokenPlugin(token: { "t" })
            .prepare(URLRequest(url: URL(string: "https://example.invalid/x")!), context: RequestContext(target: Plain()))
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func noAuthorizationSendsNoTokenAndNeverAsksForOne() async throws {
        let asked = CallCounter()
        let plugin = AccessTokenPlugin(token: {
            await asked.increment()
            return "t"
        })
        let request = try await prepared(plugin, for: nil)
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(await asked.count == 0)
    }

    @Test func noAuthorizationAlsoLeavesTheQueryAlone() async throws {
        let request = try await prepared(AccessTokenPlugin(placement: .queryParameter("api_key"), token: { "k" }), for: nil)
        #expect(request.url?.query == nil)
    }

    @Test func anEndpointsSchemeWinsOverThePluginsPlacement() async throws {
        let plugin = AccessTokenPlugin(placement: .queryParameter("api_key"), token: { "k" })
        #expect(try await prepared(plugin, for: .plugin).url?.query == "api_key=k")
        let bearer = try await prepared(plugin, for: .bearer)
        #expect(bearer.value(forHTTPHeaderField: "Authorization") == "Bearer k")
        #expect(bearer.url?.query == nil)
        #expect(try await prepared(plugin, for: .basic).value(forHTTPHeaderField: "Authorization") == "Basic k")
        #expect(try await prepared(plugin, for: .custom("Token")).value(forHTTPHeaderField: "Authorization") == "Token k")
    }

    @Test func aCustomSchemeWithALineBreakIsRejected() async throws {
        await #expect {
            try await prepared(AccessTokenPlugin(token: { "t" }), for: .custom("Evil\r\nX-Injected: 1"))
        } throws: { error in
            guard case NetworkError.invalidRequest(.invalidHeaderValue(name: "Authorization")) = error else { return false }
            return true
        }
    }

    @Test func theTokenPluginHidesAuthorizationWhateverItsPlacement() {
        let plugin = AccessTokenPlugin(placement: .queryParameter("api_key"), token: { "k" })
        #expect(plugin.redaction.headers.contains("authorization"))
        #expect(plugin.redaction.queryParameters.contains("api_key"))
    }

    @Test func schemesAreMoyasWords() {
        #expect(AuthorizationType.bearer.scheme == "Bearer")
        #expect(AuthorizationType.basic.scheme == "Basic")
        #expect(AuthorizationType.custom("DPoP").scheme == "DPoP")
        #expect(AuthorizationType.plugin.scheme == nil)
    }

    // MARK: Over the wire

    @Test(.needsHTTPBin) func httpbinSeesNoTokenOnAPublicEndpointAndTheSchemeElsewhere() async throws {
        let router = Router<TestEndpoint>(
            callbackQueue: DispatchQueue(label: "auth-tests"),
            plugins: [AccessTokenPlugin(placement: .header("X-Api-Key"), token: { "secret-1" })])
        func echoedHeaders(_ authorization: AuthorizationType?) async throws -> [String: String] {
            var endpoint = TestEndpoint.httpbin("headers")
            endpoint.authorizationType = authorization
            return try #require(try jsonObject(try await router.request(endpoint).data)["headers"] as? [String: String])
        }
        let login = try await echoedHeaders(nil)
        #expect(login["X-Api-Key"] == nil)
        #expect(login["Authorization"] == nil)
        #expect(try await echoedHeaders(.plugin)["X-Api-Key"] == "secret-1")
        let custom = try await echoedHeaders(.custom("Token"))
        #expect(custom["Authorization"] == "Token secret-1")
        #expect(custom["X-Api-Key"] == nil)
    }

    @Test(.needsFixtureServer) func anEndpointsBearerSchemeIsRefreshedAndReplayedOn401() async throws {
        // The fixture's /protected accepts only "Bearer fresh-token"; the plugin's own placement
        // is a header, but the endpoint asks for Bearer.
        let refreshes = CallCounter()
        let plugin = AccessTokenPlugin(
            placement: .header("X-Api-Key"), token: { "expired-token" },
            refresh: { expired in
                #expect(expired == "expired-token")
                await refreshes.increment()
                return "fresh-token"
            })
        let router = Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "auth-tests"), plugins: [plugin])
        var endpoint = TestEndpoint.fixture("protected")
        endpoint.authorizationType = .bearer
        let response = try await router.request(endpoint)
        #expect(response.statusCode == 200)
        #expect(response.request.value(forHTTPHeaderField: "Authorization") == "Bearer fresh-token")
        #expect(await refreshes.count == 1)
    }

    @Test(.needsFixtureServer) func aPublicEndpointsFinal401IsNotReplayed() async throws {
        let refreshes = CallCounter()
        let plugin = AccessTokenPlugin(
            token: { "expired-token" },
            refresh: { _ in
                await refreshes.increment()
                return "fresh-token"
            })
        let router = Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "auth-tests"), plugins: [plugin])
        var endpoint = TestEndpoint.fixture("protected")
        endpoint.authorizationType = nil
        await #expect(throws: NetworkError.self) { try await router.request(endpoint) }
        #expect(await refreshes.count == 0)
    }
}
