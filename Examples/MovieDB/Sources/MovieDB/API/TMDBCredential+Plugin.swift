import NetworkLayer

extension TMDBCredential {
    /// The plugin that sends this credential with every request: an access token as
    /// `Authorization: Bearer …`, an API key as the `api_key` query parameter.
    ///
    /// A plugin rather than a header or parameter of ``MovieApi``: the router adds the plugin's
    /// header or parameter to its ``Redaction`` (hidden in every error and log line, and the
    /// header kept from redirects to other hosts), and the key goes through the library's
    /// `URLParameterEncoder`, escaped like every other parameter (`k+y` becomes `k%2By`).
    ///
    /// ```swift
    /// let router = Router<MovieApi>(plugins: [TMDBCredential.apiKey(key).plugin])
    /// ```
    public var plugin: AccessTokenPlugin {
        switch self {
        case .accessToken(let token):
            return AccessTokenPlugin(token: { token })
        case .apiKey(let key):
            return AccessTokenPlugin(placement: .queryParameter("api_key"), token: { key })
        }
    }
}
