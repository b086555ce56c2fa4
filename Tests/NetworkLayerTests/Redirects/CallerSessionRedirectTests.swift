import Foundation
import Testing
import TestSupport

@testable import NetworkLayer

/// A session of the caller's (`URLSessionTransport(session:)`) follows the package's redirect
/// rules too: Foundation would follow the redirect itself, credentials and all.
@Suite(.needsFixtureServer, .needsHTTPBin)
struct CallerSessionRedirectTests {
    private func router(_ session: URLSession) -> Router<TestEndpoint> {
        Router<TestEndpoint>(transport: URLSessionTransport(session: session), callbackQueue: DispatchQueue(label: "caller-session"))
    }

    private func crossOrigin(_ headers: HTTPHeaders = [:]) throws -> TestEndpoint {
        try TestEndpoint.crossOriginRedirect(headers: headers)
    }

    @Test(arguments: ["no delegate", "a delegate that follows"])
    func credentialsDoNotFollowARedirectToAnotherOrigin(_ kind: String) async throws {
        let session =
            kind == "no delegate"
            ? URLSession(configuration: .ephemeral)
            : URLSession(configuration: .ephemeral, delegate: FollowingDelegate(), delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let response = try await router(session).request(
            try crossOrigin(["Authorization": "Bearer secret-token", "Cookie": "session=abc", "X-Visible": "yes"]))
        let object = try #require(try JSONSerialization.jsonObject(with: response.data) as? [String: Any])
        let headers = try #require(object["headers"] as? [String: Any])
        let names = Set(headers.keys.map { $0.lowercased() })
        #expect(!names.contains("authorization"))
        #expect((headers["Cookie"] as? String)?.contains("session=abc") != true)
        #expect(names.contains("x-visible"))
        // The router followed it: the redirect counts in the metrics.
        #expect(response.metrics?.redirects == 1)
    }
}

/// A caller's delegate that follows every redirect as Foundation would.
private final class FollowingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(request)
    }
}
