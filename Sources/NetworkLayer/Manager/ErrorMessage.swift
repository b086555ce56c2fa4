import Foundation

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

    /// The message in `data`, if any: an empty or blank message is none, so that the status
    /// text shows instead (`"404: Not Found"`, not `"404: "`).
    public func message(in data: Data) -> String? {
        guard !data.isEmpty, let message = read(data), message.contains(where: { !$0.isWhitespace }) else { return nil }
        return message
    }
}
