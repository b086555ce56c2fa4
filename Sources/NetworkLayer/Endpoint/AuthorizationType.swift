/// How one endpoint is authorized, by ``EndPointType/authorizationType``: Moya's
/// `AuthorizationType`, plus ``plugin``; `nil` (no credential) by default.
///
/// `nil` means no credential at all: ``AccessTokenPlugin`` and ``CredentialsPlugin`` leave the
/// request alone, so a login or a public endpoint never sends a token.
///
/// ```swift
/// extension MovieApi {
///     var authorizationType: AuthorizationType? {
///         switch self {
///         case .login, .configuration: return nil       // no token at all
///         case .upload: return .custom("Token")        // Authorization: Token <token>
///         default: return .plugin                      // as the plugin was made (bearer, a header, the query)
///         }
///     }
/// }
/// ```
///
/// An endpoint that does not implement the requirement gets `nil`: no credential unless the
/// endpoint asks for one, as in Moya, where only a target that conforms to
/// `AccessTokenAuthorizable` gets a token. (Before, the default was ``plugin``: every endpoint,
/// a third party's in a ``MultiTarget`` included, got the token. Implement the requirement on
/// the endpoints of your own API.)
public enum AuthorizationType: Sendable, Hashable {
    /// As the plugin was made: ``AccessTokenPlugin/placement`` for a token (`Bearer`, another
    /// header, or a query parameter), Basic for ``CredentialsPlugin``.
    case plugin
    /// `Authorization: Bearer <token>`, whatever the token plugin's placement.
    case bearer
    /// `Authorization: Basic <token>` from ``AccessTokenPlugin``, whose token is then the
    /// Base64 of `user:password` (as in Moya); or the credentials of ``CredentialsPlugin``.
    case basic
    /// `Authorization: <scheme> <token>`, e.g. `.custom("Token")` or `.custom("DPoP")`.
    case custom(String)

    /// The scheme written before the token, `nil` for ``plugin``: `"Bearer"`, `"Basic"`, or the
    /// custom one.
    public var scheme: String? {
        switch self {
        case .plugin: return nil
        case .bearer: return "Bearer"
        case .basic: return "Basic"
        case .custom(let scheme): return scheme
        }
    }
}

extension EndPointType {
    /// `nil`: no token and no credentials, unless the endpoint implements the requirement.
    public var authorizationType: AuthorizationType? { nil }
}
