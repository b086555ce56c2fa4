/// An HTTP request method.
///
/// A struct with static members rather than an enum, so that methods the package does not
/// list (WebDAV's `PROPFIND`, say) are still expressible: `HTTPMethod(rawValue: "PROPFIND")`.
///
/// ```swift
/// var httpMethod: HTTPMethod { .get }
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// `CONNECT`.
    public static let connect = HTTPMethod(rawValue: "CONNECT")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `OPTIONS`.
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// `PATCH`.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `QUERY` (a safe, idempotent request with a body; IETF draft).
    public static let query = HTTPMethod(rawValue: "QUERY")
    /// `TRACE`.
    public static let trace = HTTPMethod(rawValue: "TRACE")

    /// The method as sent on the request line, e.g. `"GET"`.
    public let rawValue: String

    /// Creates a method from its name as sent on the request line.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a method from a string literal: `let method: HTTPMethod = "PROPFIND"`.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The method name.
    public var description: String { rawValue }

    /// Whether a request with this method may carry a body. `GET` and `HEAD` may not: Foundation
    /// fails a `GET` with a body (error -1103), and servers ignore or reject one.
    public var allowsRequestBody: Bool {
        self != .get && self != .head
    }
}
