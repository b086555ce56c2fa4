import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// The value of the header `name`, compared case-insensitively (RFC 9110 §5.1).
    ///
    /// Written out rather than left to `value(forHTTPHeaderField:)` so that the comparison is
    /// the same on every Foundation.
    package func headerValue(named name: String) -> String? {
        guard let fields = allHTTPHeaderFields else { return nil }
        if let exact = fields[name] { return exact }
        for (field, value) in fields where field.caseInsensitiveCompare(name) == .orderedSame {
            return value
        }
        return nil
    }
}
