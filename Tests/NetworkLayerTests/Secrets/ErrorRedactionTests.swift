import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// No string made from an error shows a credential of the URL: FoundationNetworking's
/// `URLError` carries the whole URL in its user info, and the default description of an enum
/// prints it.
@Suite("Secrets in errors")
struct ErrorRedactionTests {
    /// Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    private func refusedRequestError(over transport: TestTransport) async throws -> NetworkError {
        let base = try #require(URL(string: "http://user:SECRET@127.0.0.1:9"))
        var endpoint = TestEndpoint(baseURL: base, path: "items")
        endpoint.task = .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["api_key": "SECRET2", "page": 1])
        do {
            _ = try await transport.router().request(endpoint)
        } catch {
            return error
        }
        throw CancellationError()
    }

    @Test(arguments: TestTransport.all)
    func everyStringMadeFromATransportErrorIsRedacted(_ transport: TestTransport) async throws {
        let error = try await refusedRequestError(over: transport)
        guard case .transport(let urlError) = error else {
            Issue.record("expected a transport error, got \(error)")
            return
        }
        let strings = [
            "\(error)", String(describing: error), String(reflecting: error), error.localizedDescription,
            error.description, error.debugDescription, "\(urlError)", String(reflecting: urlError),
            urlError.localizedDescription, "\(urlError.userInfo)", urlError.failingURL?.absoluteString ?? "",
            "\(error as any Error)",
        ]
        for string in strings {
            #expect(!string.contains("SECRET"), "leaks a secret: \(string)")
        }
        // A known difference (ChoosingATransport.md, "What differs"): URLSessionTransport keeps
        // the whole URL, which the router redacts; CurlTransport names only scheme://host:port/path.
        switch transport {
        case .urlSession:
            #expect(urlError.failingURL?.absoluteString.contains("page=1") == true, "the failing URL is kept, redacted")
        case .curl:
            #expect(urlError.failingURL?.absoluteString == "http://127.0.0.1:9/items")
        }
        #expect(error.debugDescription.hasPrefix("NetworkError.transport(URLError"))
    }

    /// The response an error keeps describes its request with the router's redaction, its
    /// plugins' secrets included: it used ``Redaction/default``, so `debugDescription` printed
    /// the token of an `AccessTokenPlugin` placed in a query parameter of another name (found
    /// from outside, 2026-11-26).
    @Test func aPluginsQueryTokenIsHiddenInTheDescriptionOfTheResponseAnErrorKeeps() async throws {
        let plugin = AccessTokenPlugin(placement: .queryParameter("session"), token: { "S3CR3T" })
        let router = Router<TestEndpoint>(
            transport: StubTransport(StubResponse(statusCode: 401, data: Data("{}".utf8))), callbackQueue: DispatchQueue(label: "tests"),
            plugins: [plugin])
        do {
            _ = try await router.request(.offline("me"))
            Issue.record("a 401 was accepted")
        } catch {
            let response = try #require(error.response)
            #expect(response.request.url?.query?.contains("S3CR3T") == true, "the token was not sent: the test ran nothing")
            for string in [String(reflecting: error), error.debugDescription, response.description, "\(response)"] {
                #expect(!string.contains("S3CR3T"), "leaks the token: \(string)")
            }
        }
    }

    @Test func aTransportErrorBuiltByAPluginIsRedactedToo() {
        let raw = URLError(
            .timedOut,
            userInfo: [
                NSURLErrorFailingURLErrorKey: URL(string: "https://u:SECRET@example.invalid/?token=SECRET2")!,
                NSLocalizedDescriptionKey: "timed out for https://u:SECRET@example.invalid/?token=SECRET2",
            ])
        let error = NetworkError(NetworkError.transport(raw))
        for string in ["\(error)", String(reflecting: error), error.localizedDescription] {
            #expect(!string.contains("SECRET"), "leaks a secret: \(string)")
        }
        #expect(!NetworkError.transport(raw).localizedDescription.contains("SECRET"))
    }

    @Test(arguments: TestTransport.all)
    func aSecretNamedByTheRoutersRedactionIsHiddenToo(_ transport: TestTransport) async throws {
        let router = transport.router(redaction: Redaction.default.merging(Redaction(queryParameters: ["session"])))
        var endpoint = TestEndpoint(baseURL: try #require(URL(string: "http://127.0.0.1:9")), path: "x")
        endpoint.task = .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["session": "SECRET3"])
        do {
            _ = try await router.request(endpoint)
            Issue.record("expected a failure")
        } catch {
            #expect(!"\(error)".contains("SECRET3"))
            #expect(!String(reflecting: error).contains("SECRET3"))
            if case NetworkError.transport(let urlError) = error {
                #expect(!"\(urlError)".contains("SECRET3"))
            }
        }
    }
}
