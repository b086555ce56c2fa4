import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The header fields of a stored response: names as received, compared case-insensitively,
/// sorted so that the same response always encodes to the same bytes on disk.
struct StoredHeaders: Equatable, Sendable {
    struct Field: Equatable, Sendable {
        let name: String
        let value: String
        /// `name` lower-cased, computed once: lookups compare it many times.
        let lowercasedName: String

        init(name: String, value: String) {
            self.name = name
            self.value = value
            lowercasedName = name.lowercased()
        }
    }

    private(set) var fields: [Field]

    init(_ fields: [Field]) {
        self.fields = fields.sorted { $0.lowercasedName < $1.lowercasedName }
    }

    /// What a cache may keep of `response`'s headers (RFC 9111 §3.1): everything but the
    /// hop-by-hop fields, those that `Connection` names, and `Set-Cookie`.
    ///
    /// `Set-Cookie` is dropped because a response served again from the cache must not set a
    /// cookie again (the cookie may have changed or been removed since), and because it is a
    /// secret that would otherwise sit in the cache's files.
    init(storableFieldsOf response: HTTPURLResponse) {
        var fields: [Field] = []
        for (key, value) in response.allHeaderFields {
            guard let name = key as? String, let value = value as? String else { continue }
            fields.append(Field(name: name, value: value))
        }
        self.init(fields)
        removeUnstorable()
    }

    /// The value of `name`, compared case-insensitively.
    subscript(name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.lowercasedName == wanted }?.value
    }

    /// These fields without those named in `names` (lower-cased), with `fields` added, sorted
    /// once: linear in both, where setting one field at a time was quadratic.
    func replacing(_ names: Set<String>, with fields: [Field]) -> StoredHeaders {
        var result = self
        result.fields.removeAll { names.contains($0.lowercasedName) }
        result.fields.append(contentsOf: fields)
        result.fields.sort { $0.lowercasedName < $1.lowercasedName }
        return result
    }

    /// Removes the fields whose lower-cased name `isRemoved`.
    mutating func remove(where isRemoved: (String) -> Bool) {
        fields.removeAll { isRemoved($0.lowercasedName) }
    }

    /// The fields as `HTTPURLResponse` takes them, without those named in `excluded`
    /// (lower-cased).
    func dictionary(excluding excluded: Set<String> = []) -> [String: String] {
        var result: [String: String] = [:]
        for field in fields where !excluded.contains(field.lowercasedName) { result[field.name] = field.value }
        return result
    }

    /// Bytes of names and values, for the cache's size accounting.
    var byteCount: Int {
        fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }

    /// Removes the fields that RFC 9111 §3.1 says a cache does not store, and `Set-Cookie`.
    mutating func removeUnstorable() {
        var dropped: Set<String> = Self.neverStored
        if let connection = self["Connection"] {
            for name in connection.split(separator: ",") {
                dropped.insert(name.trimmingCharacters(in: .whitespaces).lowercased())
            }
        }
        fields.removeAll { dropped.contains($0.lowercasedName) }
    }

    private static let neverStored: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "trailer",
        "proxy-authenticate", "proxy-authentication-info", "set-cookie", "set-cookie2",
    ]
}
