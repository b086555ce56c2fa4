import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Who receives `AccessTokenPlugin`'s token, over each transport: only endpoints that ask for
/// one, only at an allowed origin, with what the token source says now. The fixture server
/// (our API) and httpbin (a third party) are two origins: two ports of 127.0.0.1.
@Suite("Access token scope", .needsFixtureServer, .needsHTTPBin)
struct AccessTokenScopeTests {
    /// A third party's endpoint that says nothing about authorization.
    struct ThirdParty: EndPointType {
        var baseURL: URL { TestServers.httpbin ?? URL(fileURLWithPath: "/no-httpbin") }
        var path: String { "headers" }
        var httpMethod: HTTPMethod { .get }
        var task: HTTPTask { .request }
        var headers: HTTPHeaders? { nil }
    }

    /// A third party's endpoint that asks for a bearer token (its own, say).
    struct ThirdPartyAskingForAToken: EndPointType {
        var baseURL: URL { TestServers.httpbin ?? URL(fileURLWithPath: "/no-httpbin") }
        var path: String { "headers" }
        var httpMethod: HTTPMethod { .get }
        var task: HTTPTask { .request }
        var headers: HTTPHeaders? { nil }
        var authorizationType: AuthorizationType? { .bearer }
    }

    /// The headers httpbin's `/headers` or the fixture's `/echo` received.
    private func received(_ response: Response) throws -> [String: String] {
        let headers = try jsonObject(response.data)["headers"] as? [String: String] ?? [:]
        return Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    private func ourEcho() -> TestEndpoint { .fixture("echo") }

    @Test(arguments: TestTransport.all)
    func theTokenSourceIsAskedForEveryRequest(_ transport: TestTransport) async throws {
        let current = Locked("first")
        let router = Router<TestEndpoint>(
            transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"),
            plugins: [AccessTokenPlugin(token: { current.withLock { $0 } })])
        #expect(try received(try await router.request(ourEcho()))["authorization"] == "Bearer first")
        current.withLock { $0 = "refreshed" }
        #expect(try received(try await router.request(ourEcho()))["authorization"] == "Bearer refreshed")
    }

    @Test(arguments: TestTransport.all)
    func aThirdPartyTargetInAMultiTargetGetsNoToken(_ transport: TestTransport) async throws {
        let router = Router<MultiTarget>(
            transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"),
            plugins: [AccessTokenPlugin(token: { "s3cret" })])
        #expect(try received(try await router.request(MultiTarget(ourEcho())))["authorization"] == "Bearer s3cret")
        #expect(try received(try await router.request(MultiTarget(ThirdParty())))["authorization"] == nil)
    }

    @Test(arguments: TestTransport.all)
    func anEndpointAskingForATokenOutsideTheAllowedOriginsGetsNone(_ transport: TestTransport) async throws {
        let api = try #require(TestServers.fixture)
        let router = Router<MultiTarget>(
            transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"),
            plugins: [AccessTokenPlugin(placement: .header("X-Auth-Token"), origins: [api], token: { "s3cret" })])
        #expect(try received(try await router.request(MultiTarget(ourEcho())))["x-auth-token"] == "s3cret")
        let third = try received(try await router.request(MultiTarget(ThirdPartyAskingForAToken())))
        #expect(third["authorization"] == nil)
        #expect(third["x-auth-token"] == nil)
    }

    @Test(arguments: TestTransport.all)
    func anEndpointWithoutAnAuthorizationTypeGetsNone(_ transport: TestTransport) async throws {
        let asked = Locked(0)
        let router = Router<TestEndpoint>(
            transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"),
            plugins: [
                AccessTokenPlugin(token: {
                    asked.withLock { $0 += 1 }
                    return "s3cret"
                })
            ])
        var endpoint = ourEcho()
        endpoint.authorizationType = nil
        #expect(try received(try await router.request(endpoint))["authorization"] == nil)
        #expect(asked.withLock { $0 } == 0)
    }

    @Test(arguments: TestTransport.all)
    func aRedirectToAnotherOriginCarriesNoToken(_ transport: TestTransport) async throws {
        let thirdParty = try #require(TestServers.httpbin).appendingPathComponent("headers").absoluteString
        let escaped = try #require(thirdParty.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let router = Router<TestEndpoint>(
            transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"),
            plugins: [
                AccessTokenPlugin(token: { "bearer-s3cret" }),
                AccessTokenPlugin(placement: .header("X-Auth-Token"), token: { "header-s3cret" }),
                AccessTokenPlugin(placement: .queryParameter("api_key"), token: { "query-s3cret" }),
            ])
        let response = try await router.request(.fixture("redirect-to?url=\(escaped)&status=302"))
        #expect(response.request.url?.port == TestServers.httpbin?.port)
        let headers = try received(response)
        #expect(headers["authorization"] == nil)
        #expect(headers["x-auth-token"] == nil)
        #expect(!(response.request.url?.absoluteString.contains("s3cret") ?? true))
    }
}
