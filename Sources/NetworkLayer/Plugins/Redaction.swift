import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which header and query values are secrets, so that logs and cURL strings never show them.
///
/// Names are compared case-insensitively.
///
/// ```swift
/// var redaction = Redaction.default
/// redaction.headers.insert("x-api-key")
/// let logger = NetworkLoggerPlugin(redaction: redaction)
/// ```
public struct Redaction: Sendable {
    /// Headers whose values are hidden (lower-cased).
    public var headers: Set<String>
    /// Query parameters whose values are hidden (lower-cased).
    public var queryParameters: Set<String>
    /// What a hidden value is replaced with.
    public var replacement: String

    /// Creates a redaction; names are lower-cased.
    public init(headers: Set<String>, queryParameters: Set<String>, replacement: String = "<redacted>") {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryParameters = Set(queryParameters.map { $0.lowercased() })
        self.replacement = replacement
    }

    /// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-Api-Key`, and query
    /// parameters named like secrets: `api_key`, `apikey`, `key`, `token`, `access_token`,
    /// `refresh_token`, `id_token`, `client_secret`, `secret`, `password`, `signature`, `sig`.
    public static let `default` = Redaction(
        headers: ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"],
        queryParameters: [
            "api_key", "apikey", "key", "token", "access_token", "refresh_token", "id_token",
            "client_secret", "secret", "password", "signature", "sig",
        ])

    /// Hides nothing (for local debugging only).
    public static let none = Redaction(headers: [], queryParameters: [])

    /// `value`, or the replacement when `name` is a secret header.
    public func header(_ name: String, _ value: String) -> String {
        headers.contains(name.lowercased()) ? replacement : value
    }

    /// `url` as a string with the values of secret query parameters replaced.
    public func url(_ url: URL?) -> String {
        guard let url else { return "-" }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let query = components.percentEncodedQuery, !query.isEmpty
        else {
            return url.absoluteString
        }
        components.percentEncodedQuery = query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = String(pair[..<equals]).removingPercentEncoding ?? String(pair[..<equals])
            return queryParameters.contains(name.lowercased()) ? "\(pair[..<equals])=\(replacementEscaped)" : String(pair)
        }.joined(separator: "&")
        return components.string ?? url.absoluteString
    }

    private var replacementEscaped: String {
        replacement.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "redacted"
    }
}
