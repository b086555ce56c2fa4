import Foundation

/// Why the environment does not describe a usable configuration.
public enum TMDBConfigurationError: Error, Sendable, Equatable, LocalizedError {
    /// `TMDB_BASE_URL` is not an absolute http(s) URL; the value is kept for the message,
    /// without what may hold a secret (``shown(_:)``).
    case invalidBaseURL(String)

    /// `value` without its query, fragment or user info, which may hold the API key or a
    /// password: the message is printed. `"api.themoviedb.org/3?api_key=…"` becomes
    /// `"api.themoviedb.org/3?…"`.
    public static func shown(_ value: String) -> String {
        var shown = Substring(value)
        if let cut = shown.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            shown = shown[..<cut] + "?…"
        }
        if let at = shown.lastIndex(of: "@") {
            shown = "…" + shown[at...]
        }
        return String(shown)
    }

    /// One sentence naming the variable and the value.
    public var errorDescription: String? {
        switch self {
        case .invalidBaseURL(let value):
            return "\(TMDBConfiguration.baseURLVariable) \"\(value)\" is not an http(s) URL such as https://api.themoviedb.org/3."
        }
    }
}
