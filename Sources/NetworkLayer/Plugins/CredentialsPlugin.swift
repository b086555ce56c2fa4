import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends HTTP Basic credentials (RFC 7617) with each request: Moya's `CredentialsPlugin`.
///
/// The header goes with the first request, before any challenge. Moya answers the server's
/// challenge through Alamofire instead; on Linux that path is a trap, since FoundationNetworking
/// hangs on a `401` with `WWW-Authenticate: Basic` (see <doc:LinuxNotes>).
///
/// ```swift
/// let credentials = CredentialsPlugin { target in
///     target.path == "health" ? nil : URLCredential(user: "ada", password: "s3cret", persistence: .none)
/// }
/// let router = Router<MovieApi>(plugins: [credentials])
/// ```
///
/// The endpoint's ``EndPointType/authorizationType`` decides first: `nil` (the default for an
/// endpoint that does not implement it) sends nothing, ``AuthorizationType/plugin`` and
/// ``AuthorizationType/basic`` send these credentials, and a token scheme (`.bearer`, `.custom`) is left to ``AccessTokenPlugin``.
/// `Authorization` is in the plugin's ``redaction``, so logs and errors never show the
/// credentials and no redirect to another origin carries them.
public struct CredentialsPlugin: PluginType {
    /// Returns the credentials for an endpoint, or `nil` for none.
    public typealias CredentialsProvider = @Sendable (_ target: any EndPointType) async throws -> URLCredential?

    /// Why credentials cannot be sent; thrown from ``prepare(_:context:)`` and delivered as
    /// ``NetworkError/underlying(_:)``.
    public enum Failure: Error, Sendable, Equatable {
        /// The credential has no user or no password.
        case incompleteCredential
        /// The user contains a colon, which RFC 7617 forbids: the server would split the name there.
        case colonInUser
        /// The user or password contains a control character (CR, LF, NUL …), which RFC 7617 forbids.
        case controlCharacter
    }

    private let provider: CredentialsProvider

    /// Credentials decided per endpoint, Moya's `CredentialsPlugin(credentialsClosure:)`.
    ///
    /// - Parameter credentials: Returns the credential for an endpoint, or `nil` to send none;
    ///   called for every attempt, so that a changed password is used at once. Its `user` and
    ///   `password` are sent; its persistence is ignored.
    public init(credentials: @escaping CredentialsProvider) {
        self.provider = credentials
    }

    /// The same user and password for every endpoint (that does not say otherwise).
    ///
    /// ```swift
    /// let router = Router<MovieApi>(plugins: [CredentialsPlugin(user: "ada", password: "s3cret")])
    /// ```
    public init(user: String, password: String) {
        self.provider = { _ in URLCredential(user: user, password: password, persistence: .none) }
    }

    /// `Authorization`, which carries the credentials.
    public var redaction: Redaction { Redaction(headers: ["Authorization"]) }

    /// Sets `Authorization: Basic <Base64 of user:password>` (UTF-8) when the endpoint asks for
    /// the plugin's scheme or for Basic, and the provider gives a credential.
    ///
    /// - Throws: ``Failure`` for a credential RFC 7617 cannot carry; whatever the provider throws.
    public func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        switch context.target.authorizationType {
        case .plugin?, .basic?: break
        case nil, .bearer?, .custom?: return request
        }
        guard let credential = try await provider(context.target) else { return request }
        var request = request
        try request.setHeader(try Self.basicAuthorization(credential), for: "Authorization")
        return request
    }

    /// `"Basic " + base64("user:password")`.
    static func basicAuthorization(_ credential: URLCredential) throws(Failure) -> String {
        guard let user = credential.user, let password = credential.password else { throw .incompleteCredential }
        guard !user.contains(":") else { throw .colonInUser }
        let isControl = { (scalar: Unicode.Scalar) in scalar.properties.generalCategory == .control }
        guard !user.unicodeScalars.contains(where: isControl), !password.unicodeScalars.contains(where: isControl) else {
            throw .controlCharacter
        }
        return "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }
}

extension CredentialsPlugin.Failure: LocalizedError {
    /// A sentence that says what is wrong with the credential, without showing it.
    public var errorDescription: String? {
        switch self {
        case .incompleteCredential: return "The credential for Basic authentication has no user or no password."
        case .colonInUser: return "The user name for Basic authentication contains a colon, which RFC 7617 does not allow."
        case .controlCharacter: return "The user name or password for Basic authentication contains a control character."
        }
    }
}
