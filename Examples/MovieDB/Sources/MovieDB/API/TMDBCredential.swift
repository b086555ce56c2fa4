/// How requests prove who is asking. TMDB accepts either kind; the example never hard-codes one.
public enum TMDBCredential: Sendable, Equatable {
    /// An API Read Access Token, sent as `Authorization: Bearer <token>` (TMDB's recommendation:
    /// it stays out of URLs, and so out of logs and proxies).
    case accessToken(String)
    /// A v3 API key, sent as the `api_key` query parameter of every request.
    case apiKey(String)
}
