import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Parameters of a request: names mapped to values of any `Sendable` type.
///
/// Values may be `String`, `Bool`, any integer or floating-point type, `Decimal`, `NSNumber`,
/// `URL`, `UUID`, `NSNull`, optionals of these, arrays of parameter values and nested
/// `Parameters` dictionaries. Anything else is rejected with
/// ``ParameterEncodingError/unsupportedValue(keyPath:type:)`` rather than silently dropped, and
/// NaN or an infinity with ``ParameterEncodingError/invalidJSONValue(keyPath:reason:)`` by both
/// encoders.
///
/// Because the values are `any Sendable`, a nested literal of mixed types needs its type:
///
/// ```swift
/// let parameters: Parameters = ["page": 1, "filter": ["min": 1, "tag": "x"] as Parameters]
/// ```
public typealias Parameters = [String: any Sendable]

/// Writes parameters into a `URLRequest`: into its URL query, its body, or both.
///
/// Conform to provide an encoding the package does not ship (XML, protobuf, a signed query).
///
/// ```swift
/// var request = URLRequest(url: URL(string: "https://example.com/search")!)
/// try URLParameterEncoder().encode(urlRequest: &request, with: ["q": "swift"])
/// // request.url == https://example.com/search?q=swift
/// ```
public protocol ParameterEncoder: Sendable {
    /// Encodes `parameters` into `urlRequest`.
    ///
    /// - Parameters:
    ///   - urlRequest: The request to modify in place.
    ///   - parameters: The parameters to encode.
    /// - Throws: ``ParameterEncodingError`` when the request or a parameter cannot be encoded.
    func encode(urlRequest: inout URLRequest, with parameters: Parameters) throws
}
