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

    /// `fields` with one entry per field: names that are the same field (a dictionary can hold
    /// `ETag` and `etag`) become one, under the first of their spellings in sorted order, with
    /// their values joined by ", " in that order, as a repeated field is (RFC 9110 §5.3).
    /// Foundation's `HTTPURLResponse` keeps one such value at random, so a response's own
    /// lookup and its `HTTPURLResponse` could disagree. Linear in the number of fields; `fields`
    /// itself when no two names are the same field.
    package static func joiningSpellings(in fields: [String: String]) -> [String: String] {
        guard fields.count > 1 else { return fields }
        var spellings = [String: [(name: String, value: String)]](minimumCapacity: fields.count)
        for (name, value) in fields {
            spellings[folded(name), default: []].append((name, value))
        }
        guard spellings.count < fields.count else { return fields }
        var joined = [String: String](minimumCapacity: spellings.count)
        for group in spellings.values {
            let sorted = group.sorted { $0.name < $1.name }
            guard let first = sorted.first else { continue }
            joined[first.name] = sorted.map(\.value).joined(separator: ", ")
        }
        return joined
    }

    /// `name` with its ASCII letters in lower case: equal for two names exactly when ``same(_:_:)``.
    private static func folded(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
