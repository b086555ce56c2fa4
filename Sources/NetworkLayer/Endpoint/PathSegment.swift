/// A value from user data made safe to stand as exactly one segment of an endpoint's path.
///
/// Everything but the unreserved characters (`A–Z a–z 0–9 - . _ ~`) is percent-encoded, so an
/// id cannot add a query or a fragment:
///
/// ```swift
/// var path: String {
///     switch self {
///     case .user(let name): return "users/\(PathSegment(name))"
///     }
/// }
/// // name "a/b?c#d"   -> users/a%2Fb%3Fc%23d
/// // name "../admin"  -> users/..%2Fadmin: refused when the request is built
/// // name ".."        -> users/%2E%2E: refused when the request is built
/// ```
///
/// No escape keeps dots from climbing the path: servers such as nginx decode `%2E` and `%2F`
/// before they resolve `..`. So a path with a segment that decodes to `.` or `..` fails with
/// ``RequestBuildingError/invalidPath(_:reason:)``, and such a value never reaches the server.
public struct PathSegment: Sendable, Hashable, CustomStringConvertible {
    /// The segment, percent-encoded.
    public let description: String

    /// Encodes `value`'s description as one path segment.
    public init(_ value: some CustomStringConvertible) {
        let text = value.description
        if text == "." || text == ".." {
            description = String(repeating: "%2E", count: text.count)
        } else {
            description = PercentEscaping.escapeAllReserved(text)
        }
    }
}
