import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP Basic credentials sent up front (Moya's CredentialsPlugin), against httpbin's
/// /basic-auth/{user}/{password}, which answers 200 to exactly those credentials.
@Suite("Credentials plugin")
struct CredentialsPluginTests {
    private func endpoint(_ path: String, authorization: AuthorizationType? = .plugin) -> TestEndpoint {
        var endpoint = TestEndpoint.httpbin(path)
        endpoint.authorizationType = authorization
        return endpoint
    }

    @Test(.needsHTTPBin) func theRightCredentialsAreAccepted() async throws {
        let router = Router<TestEndpoint>(
            callbackQueue: DispatchQueue(label: "credentials-tests"), plugins: [CredentialsPlugin(user: "ada", password: "pässword 1")])
        let response = try await router.request(endpoint("basic-auth/ada/pässword 1"))
        #expect(response.statusCode == 200)
        #expect(try response.mapJSON()["authenticated"] == .bool(true))
    }

    @Test(.needsHTTPBin) func wrongCredentialsGetThe401AtOnce() async throws {
        // A 401 with WWW-Authenticate: Basic hangs FoundationNetworking without a credential
        // handler; the transport ends it, and the plugin never waits for a challenge.
        let router = Router<TestEndpoint>(
            callbackQueue: DispatchQueue(label: "credentials-tests"), plugins: [CredentialsPlugin(user: "ada", password: "wrong")])
        do {
            _ = try await router.request(endpoint("basic-auth/ada/right"))
            Issue.record("expected a 401")
        } catch {
            #expect(error.statusCode == 401)
        }
    }

    @Test(.needsHTTPBin) func theProviderDecidesPerEndpoint() async throws {
        let plugin = CredentialsPlugin { target in
            target.path.hasPrefix("basic-auth") ? URLCredential(user: "u", password: "p", persistence: .none) : nil
        }
        let router = Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "credentials-tests"), plugins: [plugin])
        #expect(try await router.request(endpoint("basic-auth/u/p")).statusCode == 200)
        let headers = try #require(try jsonObject(try await router.request(endpoint("headers")).data)["headers"] as? [String: String])
        #expect(headers["Authorization"] == nil)
    }

    @Test func anEndpointWithoutAuthorizationOrWithATokenSchemeGetsNoCredentials() async throws {
        let plugin = CredentialsPlugin(user: "u", password: "p")
        for authorization in [nil, AuthorizationType.bearer, .custom("Token")] {
            let request = try await plugin.prepare(
                URLRequest(url: URL(string: "https://example.invalid/x")!),
                context: RequestContext(target: endpoint("x", authorization: authorization)))
            #expect(request.value(forHTTPHeaderField: "Authorization") == nil, "\(String(describing: authorization))")
        }
        let basic = try await plugin.prepare(
            URLRequest(url: URL(string: "https://example.invalid/x")!), context: RequestContext(target: endpoint("x", authorization: .basic)))
        #expect(basic.value(forHTTPHeaderField: "Authorization") == "Basic dTpw")
    }

    @Test func theHeaderIsBase64OfUTF8() throws {
        let header = try CredentialsPlugin.basicAuthorization(URLCredential(user: "Aladdin", password: "open sesame", persistence: .none))
        #expect(header == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")  // RFC 7617, section 2
        let utf8 = try CredentialsPlugin.basicAuthorization(URLCredential(user: "test", password: "123£", persistence: .none))
        #expect(utf8 == "Basic dGVzdDoxMjPCow==")  // RFC 7617, section 2.1
    }

    @Test func aColonInTheUserIsRejected() {
        #expect(throws: CredentialsPlugin.Failure.colonInUser) {
            try CredentialsPlugin.basicAuthorization(URLCredential(user: "a:b", password: "p", persistence: .none))
        }
    }

    @Test func aControlCharacterIsRejected() {
        #expect(throws: CredentialsPlugin.Failure.controlCharacter) {
            try CredentialsPlugin.basicAuthorization(URLCredential(user: "a", password: "p\r\nX: 1", persistence: .none))
        }
    }

    @Test func aRejectedCredentialFailsTheRequestWithoutShowingIt() async throws {
        let router = Router<TestEndpoint>(
            transport: StubTransport(StubResponse()), callbackQueue: DispatchQueue(label: "credentials-tests"),
            plugins: [CredentialsPlugin(user: "a:b", password: "hunter2")])
        do {
            _ = try await router.request(.offline())
            Issue.record("expected the credential to be rejected")
        } catch {
            guard case .underlying(let underlying) = error else {
                Issue.record("expected .underlying, got \(error)")
                return
            }
            #expect(underlying as? CredentialsPlugin.Failure == .colonInUser)
            #expect(!"\(error)".contains("hunter2"))
        }
    }

    @Test func theCredentialsAreRedactedFromLogsAndCURL() async throws {
        let lines = LineLog()
        let plugin = CredentialsPlugin(user: "ada", password: "hunter2")
        let router = Router<TestEndpoint>(
            transport: StubTransport(StubResponse()), callbackQueue: DispatchQueue(label: "credentials-tests"),
            plugins: [plugin, NetworkLoggerPlugin(options: [.headers], redaction: .none) { lines.append($0) }], redaction: .none)
        #expect(router.redaction.headers.contains("authorization"))
        let response = try await router.request(.offline())
        #expect(response.request.value(forHTTPHeaderField: "Authorization")?.hasPrefix("Basic ") == true)
        let secret = try #require(response.request.value(forHTTPHeaderField: "Authorization"))
        #expect(lines.all.joined().lowercased().contains("authorization"), "the logger shows headers")
        #expect(!lines.all.joined().contains(secret.dropFirst("Basic ".count)))
        #expect(!response.request.cURLDescription(redaction: router.redaction).contains(secret.dropFirst("Basic ".count)))
    }
}
