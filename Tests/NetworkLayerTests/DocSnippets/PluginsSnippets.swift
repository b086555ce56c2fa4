// Code of the DocC article "Plugins, retries and authentication"; see GettingStartedSnippets.swift.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkLayer

// snippet.start user-agent-plugin
struct UserAgentPlugin: PluginType {
    func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        var request = request
        try request.setHeader("MovieApp/1.0", for: "User-Agent")
        return request
    }
}
// snippet.end

// snippet.start metrics-plugin
struct MetricsPlugin: PluginType {
    func didReceive(_ result: Result<Response, NetworkError>, context: RequestContext) {
        let outcome = (try? result.get()).map { "\($0.statusCode)" } ?? "failed"
        print(
            "request \(context.id) to \(context.target.path): \(outcome) after",
            "\(context.attempt) attempt(s), \(context.elapsed) s")
    }
}
// snippet.end

// snippet.start token-store
actor TokenStore {
    private var token = "initial"
    func current() -> String { token }
    func refresh(_ expired: String) async throws -> String {
        token = "refreshed"  // ask the auth server here
        return token
    }
}
// snippet.end

enum PluginsSnippets {
    static func routers() {
        // snippet.start plugins
        let store = TokenStore()
        let router = Router<MovieApi>(
            plugins: [
                UserAgentPlugin(),
                AccessTokenPlugin(
                    token: { await store.current() },
                    refresh: { expired in try await store.refresh(expired) }),
                NetworkLoggerPlugin(options: [.headers]),  // to stderr; secrets redacted
                MetricsPlugin(),
            ],
            retryPolicy: RetryPolicy())
        // snippet.end
        _ = router

        // snippet.start pinned-token
        let pinned = AccessTokenPlugin(
            origins: [URL(string: "https://api.example.com")!],
            token: { await store.current() })
        // snippet.end
        _ = pinned

        // snippet.start api-key
        let apiKey = "…"
        let keyInQuery = AccessTokenPlugin(placement: .queryParameter("api_key"), token: { apiKey })
        let keyInHeader = AccessTokenPlugin(placement: .header("X-Api-Key"), token: { apiKey })
        // snippet.end
        _ = (keyInQuery, keyInHeader)

        // snippet.start retry-policies
        let defaults = RetryPolicy()  // 2 retries, 0.5 s × 2ⁿ ± 20 %, Retry-After honoured
        let patient = RetryPolicy(retryLimit: 5, maximumDelay: 10)
        let custom = RetryPolicy { attempt in
            attempt.response?.statusCode == 409 ? .retry(after: 0.2) : nil  // nil: the rules above
        }
        // snippet.end
        _ = (defaults, patient, custom)

        // snippet.start logger
        let logger = NetworkLoggerPlugin(
            options: [.headers, .bodies],
            redaction: Redaction(
                headers: ["Authorization", "X-Session"],
                queryParameters: ["api_key"])
        ) { line in
            print(line)
        }
        // snippet.end
        _ = logger
    }
}
