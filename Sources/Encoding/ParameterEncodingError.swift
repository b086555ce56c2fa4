import Foundation

/// Why parameters could not be encoded into a request.
///
/// Every case names what was wrong, so that a bad parameter is reported rather than sent
/// half-encoded or dropped.
public enum ParameterEncodingError: Error, Sendable, Equatable {
    /// The request has no URL to add a query to.
    case missingURL

    /// The URL could not be parsed into components, or rebuilt after the query was added. The
    /// URL is shown without its user info, query and fragment, which may hold a secret.
    case invalidURL(String)

    /// A value that JSON cannot represent: NaN or an infinity (`Double`, `Float`, `Decimal`,
    /// or a floating-point `NSNumber`).
    ///
    /// ``URLParameterEncoder`` throws it too, although a query could spell `nan`: both encoders
    /// accept the same values, so an endpoint can move its parameters between the query and a
    /// JSON body without a value that was sent one way failing the other, and a server is never
    /// handed `nan` or `inf` to parse as it likes.
    ///
    /// `keyPath` locates the value, for example `"stats.ratio"` or `"items[2].price"`.
    case invalidJSONValue(keyPath: String, reason: String)

    /// A value whose type the encoder does not know how to write, such as a `Date` or a custom
    /// struct. Convert it first (a `Date` to an ISO 8601 string) or send an `Encodable` body.
    ///
    /// `keyPath` locates the value; `type` is its Swift type name.
    case unsupportedValue(keyPath: String, type: String)

    /// Dictionaries and arrays nested deeper than `limit` levels (512, as `JSONSerialization`
    /// allows). `keyPath` locates where the limit was reached, shortened in the middle when long.
    case nestingTooDeep(keyPath: String, limit: Int)

    /// A `JSONEncoder` failed to encode an `Encodable` value.
    ///
    /// `type` is the value's type, `codingPath` where encoding stopped (dot-separated), and
    /// `description` the encoder's own explanation.
    case encodableFailed(type: String, codingPath: String, description: String)
}

extension ParameterEncodingError: LocalizedError {
    /// A sentence that says what was wrong, suitable for logs.
    public var errorDescription: String? {
        switch self {
        case .missingURL:
            return "The request has no URL to encode parameters into."
        case .invalidURL(let url):
            return "The URL \"\(url)\" could not be combined with the encoded query."
        case .invalidJSONValue(let keyPath, let reason):
            return "The parameter at \"\(keyPath)\" cannot be written as JSON: \(reason)."
        case .unsupportedValue(let keyPath, let type):
            return "The parameter at \"\(keyPath)\" has type \(type), which the encoder does not support."
        case .nestingTooDeep(let keyPath, let limit):
            return "The parameters are nested more than \(limit) levels deep, at \"\(keyPath)\"."
        case .encodableFailed(let type, let codingPath, let description):
            let location = codingPath.isEmpty ? "" : " at \"\(codingPath)\""
            return "Encoding \(type) as JSON failed\(location): \(description)"
        }
    }
}

extension ParameterEncodingError {
    /// The error for NaN and the infinities, from both encoders and `Parameters(validating:)`:
    /// one rule, so that what one accepts the others accept too.
    static func nonFiniteNumber(_ text: String, at keyPath: ParameterKeyPath) -> ParameterEncodingError {
        .invalidJSONValue(keyPath: keyPath.rendered, reason: "\(text) is not a JSON number")
    }
}
