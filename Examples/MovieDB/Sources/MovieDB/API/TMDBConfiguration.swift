import Foundation

/// Where the API is and how to authenticate: everything about a request that is not the
/// endpoint itself.
///
/// A value passed to ``MovieService``, which turns it into its router's configuration (the
/// environment into an `EndpointMapping`, the credential into a plugin), never global mutable
/// state, so two services with different keys or hosts can live side by side (a test and the
/// app, or a staging and a production client).
///
/// ```swift
/// let configuration = TMDBConfiguration(environment: .production, credential: .accessToken(token))
/// ```
public struct TMDBConfiguration: Sendable, Equatable {
    /// The deployment to talk to; ``NetworkEnvironment/production`` by default.
    public var environment: NetworkEnvironment
    /// The credential sent with every request; `nil` means offline (bundled sample data).
    public var credential: TMDBCredential?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - environment: The deployment; `.production` by default.
    ///   - credential: The token or key; `nil` answers every request from sample data.
    public init(environment: NetworkEnvironment = .production, credential: TMDBCredential?) {
        self.environment = environment
        self.credential = credential
    }

    /// The environment's base URL.
    public var baseURL: URL { environment.baseURL }

    /// Whether requests are answered from bundled sample data, because there is no credential
    /// to send: without one, TMDB would only answer 401.
    public var isOffline: Bool { credential == nil }
}
