import Foundation

/// Why the environment does not describe a usable configuration.
public enum TMDBConfigurationError: Error, Sendable, Equatable, LocalizedError {
    /// `TMDB_BASE_URL` is not an absolute http(s) URL; the value is kept for the message.
    case invalidBaseURL(String)

    /// One sentence naming the variable and the value.
    public var errorDescription: String? {
        switch self {
        case .invalidBaseURL(let value):
            return "\(TMDBConfiguration.baseURLVariable) \"\(value)\" is not an http(s) URL such as https://api.themoviedb.org/3."
        }
    }
}
