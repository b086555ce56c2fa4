import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which header and query values are secrets: never shown in a string the package produces
/// (logs, cURL strings, error and response descriptions), and, for headers, never sent along
/// when a redirect leaves the origin.
///
/// Names are compared case-insensitively. A bracketed form or query key matches by any of its
/// components, so `password` hides `user[password]` and `password[]` too.
///
/// A router's ``Router/redaction`` is the one place that says what is secret: plugins that add
/// credentials add their names to it (``PluginType/redaction``), and the logger hides what it
/// names as well as what its own redaction names. A header it names is a credential everywhere
/// (``isCredentialHeader(_:)``): hidden in what the package shows, removed from a redirect that
/// leaves the origin, and part of the key of the router's ``HTTPCache``, so that a response
/// cached for one value of it is never served to a request with another.
///
/// ```swift
/// var redaction = Redaction.default
/// redaction.headers.insert("x-session")
/// let router = Router<MovieApi>(redaction: redaction)
/// ```
public struct Redaction: Sendable {
    /// Headers whose values are hidden, lower-cased however they are added: every lookup
    /// compares lower-cased names, and `headers.insert("X-Session")` once hid nothing.
    public var headers: Set<String> {
        didSet { headers = Self.lowercased(headers) }
    }
    /// Query parameters and body fields whose values are hidden, lower-cased however they are
    /// added.
    public var queryParameters: Set<String> {
        didSet { queryParameters = Self.lowercased(queryParameters) }
    }
    /// What a hidden value is replaced with.
    public var replacement: String

    /// Creates a redaction; names are lower-cased.
    public init(headers: Set<String> = [], queryParameters: Set<String> = [], replacement: String = "<redacted>") {
        self.headers = Self.lowercased(headers)
        self.queryParameters = Self.lowercased(queryParameters)
        self.replacement = replacement
    }

    /// `names` lower-cased; the same set, not a copy, when they already are.
    private static func lowercased(_ names: Set<String>) -> Set<String> {
        names.allSatisfy { $0 == $0.lowercased() } ? names : Set(names.map { $0.lowercased() })
    }

    /// ``credentialHeaders`` (`Authorization`, `Proxy-Authorization`, `Cookie`, `X-Api-Key`),
    /// `Set-Cookie`, the API key and token headers of common services (`X-Auth-Token`,
    /// `X-Access-Token`, `X-Goog-Api-Key`, `X-Amz-Security-Token`, GitLab's `Private-Token`,
    /// Azure's `Ocp-Apim-Subscription-Key`), which a redirect to another origin therefore drops
    /// and the cache keys by, and query parameters and form fields named like secrets: `api_key`,
    /// `apikey`, `key`, `token`, `access_token`, `refresh_token`, `id_token`, `client_secret`,
    /// `secret`, `password`, `signature`, `sig`, and the signature and credentials of a
    /// pre-signed Amazon S3 or Google Cloud Storage URL (`X-Amz-Signature`, `X-Amz-Credential`,
    /// `X-Amz-Security-Token`, `X-Goog-Signature`, `X-Goog-Credential`), which grant access to
    /// the file until they expire. A body shown on request (a logger's `.bodies`,
    /// `cURLDescription()`, ``NetworkError/description(includingBody:redaction:)``) has the
    /// values of JSON members and form fields of those names replaced too.
    public static let `default` = Redaction(
        headers: credentialHeaders.union([
            "set-cookie", "x-auth-token", "x-access-token", "x-goog-api-key", "x-amz-security-token", "private-token",
            "ocp-apim-subscription-key",
        ]),
        queryParameters: [
            "api_key", "apikey", "key", "token", "access_token", "refresh_token", "id_token",
            "client_secret", "secret", "password", "signature", "sig", "x-amz-signature", "x-amz-credential",
            "x-amz-security-token", "x-goog-signature", "x-goog-credential",
        ])

    /// Hides nothing (for local debugging only). ``credentialHeaders`` are still credentials:
    /// they never follow a redirect to another origin and are part of every cache key, whatever
    /// the redaction says.
    public static let none = Redaction(headers: [], queryParameters: [])

    /// The names of both, with `self`'s replacement text.
    ///
    /// ```swift
    /// let combined = Redaction.default.merging(Redaction(headers: ["X-Auth-Token"]))
    /// ```
    public func merging(_ other: Redaction) -> Redaction {
        var merged = self
        merged.headers.formUnion(other.headers)
        merged.queryParameters.formUnion(other.queryParameters)
        return merged
    }

    /// The package's one list of request headers that carry credentials whatever a redaction
    /// says (lower-cased): `Authorization`, `Proxy-Authorization`, `Cookie` and `X-Api-Key`.
    ///
    /// ``isCredentialHeader(_:)`` adds the names of a redaction's ``headers`` to it; redirects
    /// (``RedirectPolicy``), the cache key (``HTTPCache``) and redaction all ask it. To treat
    /// another header as a credential, name it in the router's redaction (or a plugin's
    /// ``PluginType/redaction``):
    ///
    /// ```swift
    /// let router = Router<MovieApi>(redaction: .default.merging(Redaction(headers: ["X-Auth-Token"])))
    /// ```
    public static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "x-api-key"]

    /// Whether the header `name` carries a credential: one of ``credentialHeaders`` or a name in
    /// ``headers``, compared case-insensitively.
    public func isCredentialHeader(_ name: String) -> Bool {
        isCredentialHeader(lowercased: name.lowercased())
    }

    /// ``isCredentialHeader(_:)`` for a name already lower-cased.
    func isCredentialHeader(lowercased name: String) -> Bool {
        Self.credentialHeaders.contains(name) || headers.contains(name)
    }

    /// Whether the value of the query parameter or form field `name` is hidden: the name itself
    /// or, for a bracketed key such as `user[password]`, any of its components.
    public func hidesParameter(named name: String) -> Bool {
        let lowered = name.lowercased()
        if queryParameters.contains(lowered) { return true }
        guard lowered.contains("[") else { return false }
        return lowered.split(whereSeparator: { $0 == "[" || $0 == "]" }).contains { queryParameters.contains(String($0)) }
    }

    /// `value`, or the replacement when `name` is a secret header. The value of a header that
    /// holds URLs (`Location`, `Content-Location`, `Referer`, the `<…>` targets of `Link`, and
    /// the `url=` of `Refresh`) is shown as ``url(_:)`` shows a URL: a redirect to
    /// `https://alice:pw@h.example/cb?access_token=t` is logged as
    /// `https://h.example/cb?access_token=%3Credacted%3E`.
    public func header(_ name: String, _ value: String) -> String {
        let lowered = name.lowercased()
        if headers.contains(lowered) { return replacement }
        if Self.urlHeaders.contains(lowered) { return shownURL(value) }
        if lowered == "link" { return shownLinkTargets(value) }
        if lowered == "refresh", let target = value.range(of: "url=", options: .caseInsensitive) {
            return value[..<target.upperBound] + shownURL(value[target.upperBound...])
        }
        return value
    }

    /// Response and request headers whose value is a URL, absolute or relative.
    private static let urlHeaders: Set<String> = ["location", "content-location", "referer"]

    /// `text` as ``url(_:)`` shows it; the replacement when it does not parse as a URL.
    private func shownURL<Text: StringProtocol>(_ text: Text) -> String {
        URL(string: String(text)).map { url($0) } ?? replacement
    }

    /// A `Link` value (RFC 8288) with each `<target>` shown as ``url(_:)`` shows it.
    private func shownLinkTargets(_ value: String) -> String {
        var shown = ""
        var rest = value[...]
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            shown += rest[...open]
            shown += shownURL(rest[rest.index(after: open)..<close])
            rest = rest[close...]
        }
        // A target without its ">" is still a URL that may hold a secret.
        if let open = rest.firstIndex(of: "<") {
            return shown + rest[...open] + shownURL(rest[rest.index(after: open)...])
        }
        return shown + rest
    }

    /// `url` as a string with the values of secret query parameters replaced, in its query and
    /// in a fragment of `name=value` pairs (`#access_token=…`), and without `user:password@`.
    public func url(_ url: URL?) -> String {
        guard let url else { return "-" }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return replacement
        }
        // user:password@ in a URL is a secret whatever the configuration.
        if components.user != nil || components.password != nil {
            components.user = nil
            components.password = nil
        }
        // A fragment of `name=value` pairs is read as a query is: an OAuth implicit grant
        // (RFC 6749 §4.2.2) returns `#access_token=…&token_type=bearer` in a redirect's Location.
        if let fragment = components.percentEncodedFragment, fragment.contains("=") {
            components.percentEncodedFragment = pairs(fragment)
        }
        guard let query = components.percentEncodedQuery, !query.isEmpty else {
            return components.string ?? replacement
        }
        components.percentEncodedQuery = pairs(query)
        return components.string ?? replacement
    }

    /// A form body (`application/x-www-form-urlencoded`) with the values of secret fields
    /// replaced, by the same names as query parameters (`password=…`, `client_secret=…`).
    public func formBody(_ body: String) -> String {
        pairs(body)
    }

    /// `key=value&…` with the values of secret keys replaced.
    private func pairs(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = String(pair[..<equals]).removingPercentEncoding ?? String(pair[..<equals])
            return hidesParameter(named: name) ? "\(pair[..<equals])=\(replacementEscaped)" : String(pair)
        }.joined(separator: "&")
    }

    private var replacementEscaped: String {
        replacement.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "redacted"
    }
}
