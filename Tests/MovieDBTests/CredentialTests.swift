import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MovieDB
import NetworkLayer
import Testing

/// The credential plugin's secrets stay out of every string the service produces. No server:
/// a recording transport fails or answers the way Foundation and TMDB do.
@Suite("MovieService credentials")
struct CredentialTests {
    private static let key = "k3y-\(UUID().uuidString)"
    private static let token = "t0ken-\(UUID().uuidString)"

    /// Every way an error is shown: interpolation, `String(reflecting:)`, the localized text.
    private func renderings(_ error: APIError) -> [String] {
        [
            "\(error)", String(reflecting: error), error.localizedDescription, String(reflecting: error.networkError),
            error.response.map { "\($0)" } ?? "",
        ]
    }

    @Test("An API key is not shown when the transport fails with the URL, as Foundation's errors carry it")
    func apiKeyRedactedFromTransportErrors() async throws {
        let transport = RecordingTransport { request, _ in
            let url = request.url ?? NetworkEnvironment.production.baseURL
            throw URLError(
                .notConnectedToInternet,
                userInfo: [
                    NSURLErrorFailingURLErrorKey: url, "NSErrorFailingURLStringKey": url.absoluteString,
                    NSLocalizedDescriptionKey: "The Internet connection appears to be offline.",
                ])
        }
        let service = MovieService(configuration: TMDBConfiguration(credential: .apiKey(Self.key)), transport: transport)
        let error = try #require(await service.call(.search(query: "alien", page: 1)))

        // The key was sent, so it was there to leak.
        #expect(transport.requests.first?.url?.query?.contains("api_key=\(Self.key)") == true)
        for text in renderings(error) {
            #expect(!text.contains(Self.key), "\(text)")
        }
    }

    @Test("An API key is not shown in the error of a 401")
    func apiKeyRedactedFromStatusErrors() async throws {
        let body = #"{"success": false, "status_code": 7, "status_message": "Invalid API key: You must be granted a valid key."}"#
        let transport = RecordingTransport { _, _ in StubResponse(statusCode: 401, data: Data(body.utf8)) }
        let service = MovieService(configuration: TMDBConfiguration(credential: .apiKey(Self.key)), transport: transport)
        let error = try #require(await service.call(.details(id: 550)))

        guard case .authentication = error else {
            Issue.record("expected .authentication, got \(error)")
            return
        }
        for text in renderings(error) {
            #expect(!text.contains(Self.key), "\(text)")
        }
    }

    @Test("An access token is not shown in the error of a 401")
    func tokenRedactedFromStatusErrors() async throws {
        let transport = RecordingTransport { _, _ in StubResponse(statusCode: 401) }
        let service = MovieService(configuration: TMDBConfiguration(credential: .accessToken(Self.token)), transport: transport)
        let error = try #require(await service.call(.popular(page: 1)))

        #expect(transport.requests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer \(Self.token)")
        for text in renderings(error) {
            #expect(!text.contains(Self.token), "\(text)")
        }
    }

    @Test("A 401 is not retried and not replayed: the plugin has no refresh")
    func unauthorizedIsFinal() async throws {
        let transport = RecordingTransport { _, _ in StubResponse(statusCode: 401) }
        let service = MovieService(configuration: TMDBConfiguration(credential: .accessToken(Self.token)), transport: transport)
        _ = await service.call(.popular(page: 1))

        #expect(transport.requests.count == 1)
    }
}
