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

/// How to read an API's error body, so failures carry the server's own message.
///
/// ```swift
/// struct TMDBError: Decodable { let status_code: Int; let status_message: String }
/// let manager = NetworkManager(router: router, errorMessage: .json(TMDBError.self, \.status_message))
/// ```
public struct ErrorMessage: Sendable {
    private let read: @Sendable (Data) -> String?

    /// Reads the message with a closure of your own; return `nil` when there is none.
    public init(_ read: @escaping @Sendable (Data) -> String?) {
        self.read = read
    }

    /// Reads no message.
    public static let none = ErrorMessage { _ in nil }

    /// Decodes the body as `Body` with `decoder` (a plain `JSONDecoder` unless given; pass the
    /// API's decoder when `Body` relies on a key strategy) and takes the message at `message`.
    public static func json<Body: Decodable & Sendable>(
        _ type: Body.Type, _ message: KeyPath<Body, String> & Sendable, decoder: JSONDecoder = JSONDecoder()
    ) -> ErrorMessage {
        ErrorMessage { data in
            (try? decoder.decode(Body.self, from: data))?[keyPath: message]
        }
    }

    /// The message in `data`, if any.
    public func message(in data: Data) -> String? {
        data.isEmpty ? nil : read(data)
    }
}
