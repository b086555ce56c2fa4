import Foundation

extension TMDBConfiguration {
    /// The variable holding an API Read Access Token (sent as a Bearer header).
    public static let accessTokenVariable = "TMDB_ACCESS_TOKEN"
    /// The variable holding a v3 API key (sent as `api_key`); used when no token is set.
    public static let apiKeyVariable = "TMDB_API_KEY"
    /// The variable that replaces the base URL, e.g. with a local fake server.
    public static let baseURLVariable = "TMDB_BASE_URL"

    /// Reads the configuration from environment variables: the one place that knows their names.
    ///
    /// `TMDB_ACCESS_TOKEN` wins over `TMDB_API_KEY`; with neither, the configuration is offline.
    /// `TMDB_BASE_URL` replaces the production URL. Values are trimmed, and empty ones count as
    /// unset, because `export TMDB_API_KEY=$(cat key.txt)` leaves a newline and
    /// `TMDB_API_KEY= movie-db …` means "no key".
    ///
    /// Taking a dictionary rather than reading `ProcessInfo` lets tests pass their own.
    ///
    /// - Parameter variables: The environment, usually `ProcessInfo.processInfo.environment`.
    /// - Throws: ``TMDBConfigurationError/invalidBaseURL(_:)`` when `TMDB_BASE_URL` is not an
    ///   absolute http(s) URL.
    public init(environmentVariables variables: [String: String]) throws(TMDBConfigurationError) {
        func value(_ name: String) -> String? {
            guard let raw = variables[name] else { return nil }
            let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }

        var environment = NetworkEnvironment.production
        if let text = value(Self.baseURLVariable) {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
            else {
                throw .invalidBaseURL(TMDBConfigurationError.shown(text))
            }
            environment = .custom(url)
        }

        let credential: TMDBCredential?
        if let token = value(Self.accessTokenVariable) {
            credential = .accessToken(token)
        } else if let key = value(Self.apiKeyVariable) {
            credential = .apiKey(key)
        } else {
            credential = nil
        }
        self.init(environment: environment, credential: credential)
    }
}
