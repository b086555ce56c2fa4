import Foundation

/// HTTP header fields, with names compared case-insensitively (RFC 9110 §5.1): `"accept"` and
/// `"Accept"` are one field, and setting one replaces the other.
///
/// Written as a dictionary literal, as the tutorial's `[String: String]` was, and read by name
/// or in order:
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "application/json"]
/// headers["X-Request-ID"] = UUID().uuidString
/// headers["accept"]                      // "application/json"
/// for (name, value) in headers { print(name, value) }
/// ```
///
/// The fields keep the order they were first set in; setting a field again keeps its place and
/// takes the new spelling of its name. Names and values are checked when a request is built
/// (``RequestBuildingError/invalidHeaderName(_:)``, ``RequestBuildingError/invalidHeaderValue(name:)``),
/// not here.
public struct HTTPHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence, CustomStringConvertible {
    /// One field: its name as last set, and its value.
    public typealias Element = (name: String, value: String)

    private var fields: [Element] = []

    /// No fields.
    public init() {}

    /// The fields of `dictionary`. Of two names that differ only in letter case, the one that
    /// sorts last wins, so that the outcome does not depend on the dictionary's order.
    public init(_ dictionary: [String: String]) {
        for (name, value) in dictionary.sorted(by: { $0.key < $1.key }) { self[name] = value }
    }

    /// The fields of the literal, in its order; a name given twice keeps the last value.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// The value of the field `name`, compared case-insensitively; setting `nil` removes it.
    public subscript(name: String) -> String? {
        get { index(of: name).map { fields[$0].value } }
        set {
            switch (index(of: name), newValue) {
            case (let index?, let value?): fields[index] = (name, value)
            case (let index?, nil): fields.remove(at: index)
            case (nil, let value?): fields.append((name, value))
            case (nil, nil): break
            }
        }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Whether there is no field.
    public var isEmpty: Bool { fields.isEmpty }

    /// The fields as a dictionary, for APIs that take one (`HTTPURLResponse(headerFields:)`).
    public var dictionary: [String: String] {
        Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// These fields with `other`'s set over them.
    ///
    /// ```swift
    /// let sent = endpointHeaders.merging(["Authorization": "Bearer \(token)"])
    /// ```
    public func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var merged = self
        for (name, value) in other { merged[name] = value }
        return merged
    }

    /// The fields in order.
    public func makeIterator() -> IndexingIterator<[Element]> {
        fields.makeIterator()
    }

    /// Equal when they hold the same fields, names compared case-insensitively, in any order.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.name] == $0.value }
    }

    /// The fields as `name: value` lines, the values of credential headers hidden
    /// (``Redaction/default``), so that printing an endpoint's headers shows no token.
    public var description: String {
        fields.map { "\($0.name): \(Redaction.default.header($0.name, $0.value))" }.joined(separator: "\n")
    }

    private func index(of name: String) -> Int? {
        fields.firstIndex { HeaderName.same($0.name, name) }
    }
}
