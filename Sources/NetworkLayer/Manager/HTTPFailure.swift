import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response whose status an endpoint does not accept, with what the server said about it.
public struct HTTPFailure: Sendable, CustomStringConvertible {
    /// The whole response: status, headers, body and the request that was sent.
    public let response: Response
    /// The server's own message, decoded from the body with the manager's ``ErrorMessage``, as
    /// the server sent it; ``description`` shows it cut and with the request's secrets hidden.
    public let serverMessage: String?

    /// Creates a failure.
    public init(response: Response, serverMessage: String?) {
        self.response = response
        self.serverMessage = serverMessage
    }

    /// The HTTP status code.
    public var statusCode: Int { response.statusCode }

    /// The parsed `Retry-After` header, sent with 429 and 503.
    public var retryAfter: RetryAfter? { response.retryAfter }

    /// `"404: The resource you requested could not be found."`, or the status text when the
    /// server sent no message. The server controls the message, so it is shown as a body
    /// excerpt is (at most ``NetworkError/bodyExcerptLimit`` bytes, on one line), with the
    /// request's own secrets replaced where the server repeats them (a refused token): those of
    /// the router's ``Router/redaction``.
    public var description: String {
        guard let serverMessage else { return "\(statusCode): \(HTTPURLResponse.localizedString(forStatusCode: statusCode))" }
        let redaction = response.redaction ?? .default
        return "\(statusCode): \(NetworkError.excerpt(response.hidingSecretsSent(in: serverMessage, by: redaction)))"
    }
}
