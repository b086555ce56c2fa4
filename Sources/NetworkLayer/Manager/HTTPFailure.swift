import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response whose status an endpoint does not accept, with what the server said about it.
public struct HTTPFailure: Sendable, CustomStringConvertible {
    /// The whole response: status, headers, body and the request that was sent.
    public let response: Response
    /// The server's own message, decoded from the body with the manager's ``ErrorMessage``.
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
    /// server sent no message.
    public var description: String {
        let text = serverMessage ?? HTTPURLResponse.localizedString(forStatusCode: statusCode)
        return "\(statusCode): \(text)"
    }
}
