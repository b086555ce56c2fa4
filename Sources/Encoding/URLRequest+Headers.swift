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
        allHTTPHeaderFields.flatMap { HeaderName.value(of: name, in: $0) }
    }

    /// Sets the header `name` to `value` unless the request has it in any letter case: what an
    /// encoder does for `Content-Type`. One write of the header fields, as the name is written:
    /// FoundationNetworking's `setValue(_:forHTTPHeaderField:)` capitalises the name and copies
    /// every field, about 0.75 µs a call on Linux.
    package mutating func setHeaderIfAbsent(_ value: String, named name: String) {
        var fields = allHTTPHeaderFields ?? [:]
        guard !fields.keys.contains(where: { HeaderName.same($0, name) }) else { return }
        fields[name] = value
        allHTTPHeaderFields = fields
    }
}

/// The one rule for comparing header names in the package (`HTTPHeaders`, requests, responses,
/// both transports).
package enum HeaderName {
    /// Whether two field names are the same field: RFC 9110 §5.1 compares them
    /// case-insensitively, and a valid name is ASCII, so only ASCII letters fold.
    package static func same(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8) { left, right in
            left == right || (left | 0x20 == right | 0x20 && (0x61...0x7A).contains(left | 0x20))
        }
    }

    /// The value of the field `name` in `fields`, in any letter case: the spelling asked for
    /// first, as it usually is, then a scan.
    package static func value(of name: String, in fields: [String: String]) -> String? {
        if let exact = fields[name] { return exact }
        for (field, value) in fields where same(field, name) { return value }
        return nil
    }
}
