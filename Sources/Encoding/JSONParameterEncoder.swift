import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Encodes parameters as a JSON body, with `Content-Type: application/json` unless the request
/// already has a `Content-Type`.
///
/// Every value is checked before anything is written, so a value JSON cannot hold
/// (`Double.nan`, `.infinity`, a `Date`, a custom struct) is a thrown
/// ``ParameterEncodingError`` naming its key path, never a crash or a silently dropped key.
/// Keys are sorted by default, so the same parameters always give the same bytes.
///
/// ```swift
/// var request = URLRequest(url: URL(string: "https://api.example.com/movies")!)
/// request.httpMethod = "POST"
/// try JSONParameterEncoder().encode(urlRequest: &request, with: ["title": "Up", "year": 2009])
/// // body: {"title":"Up","year":2009}
/// ```
///
/// A top-level array goes through ``encode(urlRequest:withJSONArray:)``, and any `Encodable`
/// value through ``encode(urlRequest:encodable:encoder:)``.
public struct JSONParameterEncoder: ParameterEncoder {
    /// Options for the written JSON.
    public struct OutputFormatting: OptionSet, Sendable, Hashable {
        /// The raw bit mask.
        public let rawValue: Int
        /// Creates options from a raw bit mask.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Object keys in ascending order at every level.
        public static let sortedKeys = OutputFormatting(rawValue: 1 << 0)
        /// Two-space indentation and one member per line.
        public static let prettyPrinted = OutputFormatting(rawValue: 1 << 1)
    }

    /// The content type set when the request has none.
    public static let contentType = "application/json"

    /// How the JSON is written; `[.sortedKeys]` by default.
    public var outputFormatting: OutputFormatting

    /// Creates an encoder.
    ///
    /// - Parameter outputFormatting: How the JSON is written; `[.sortedKeys]` by default.
    public init(outputFormatting: OutputFormatting = [.sortedKeys]) {
        self.outputFormatting = outputFormatting
    }

    /// Encodes `parameters` as a JSON object into the body of `urlRequest`.
    ///
    /// Empty parameters leave the request untouched (no `{}` body is invented).
    ///
    /// - Throws: ``ParameterEncodingError/invalidJSONValue(keyPath:reason:)`` for a non-finite
    ///   number; ``ParameterEncodingError/unsupportedValue(keyPath:type:)`` for a value of a type
    ///   JSON cannot hold.
    public func encode(urlRequest: inout URLRequest, with parameters: Parameters) throws {
        guard !parameters.isEmpty else { return }
        setBody(try data(from: parameters), on: &urlRequest)
    }

    /// Encodes `array` as a top-level JSON array into the body of `urlRequest`.
    ///
    /// ```swift
    /// try JSONParameterEncoder().encode(urlRequest: &request, withJSONArray: [1, "two", ["x": 3] as Parameters])
    /// // body: [1,"two",{"x":3}]
    /// ```
    ///
    /// - Throws: the same errors as ``encode(urlRequest:with:)``; key paths start at the index,
    ///   as in `"[2].price"`.
    public func encode(urlRequest: inout URLRequest, withJSONArray array: [any Sendable]) throws {
        setBody(try data(from: array), on: &urlRequest)
    }

    /// Encodes any `Encodable` value into the body of `urlRequest` with `encoder`.
    ///
    /// ```swift
    /// let encoder = JSONEncoder()
    /// encoder.keyEncodingStrategy = .convertToSnakeCase
    /// try JSONParameterEncoder().encode(urlRequest: &request, encodable: NewList(name: "Watch"), encoder: encoder)
    /// ```
    ///
    /// The encoder's own settings apply; ``outputFormatting`` does not.
    ///
    /// - Throws: ``ParameterEncodingError/encodableFailed(type:codingPath:description:)`` when
    ///   `encoder` fails (for example on `Double.nan` with the default strategy).
    public func encode<Value: Encodable>(
        urlRequest: inout URLRequest, encodable value: Value, encoder: JSONEncoder = JSONEncoder()
    ) throws {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch let error as EncodingError {
            throw ParameterEncodingError(encoding: error, of: Value.self)
        } catch {
            throw ParameterEncodingError.encodableFailed(
                type: String(describing: Value.self), codingPath: "", description: "\(error)")
        }
        setBody(data, on: &urlRequest)
    }

    /// The JSON bytes for `value`: a `Parameters` dictionary, an array, or a single JSON value.
    ///
    /// - Throws: the same errors as ``encode(urlRequest:with:)``.
    public func data(from value: any Sendable) throws -> Data {
        var writer = JSONWriter(
            sortedKeys: outputFormatting.contains(.sortedKeys),
            prettyPrinted: outputFormatting.contains(.prettyPrinted))
        try writer.write(value)
        return Data(writer.output)
    }

    private func setBody(_ data: Data, on urlRequest: inout URLRequest) {
        urlRequest.setHeaderIfAbsent(Self.contentType, named: "Content-Type")
        urlRequest.httpBody = data
    }
}

extension ParameterEncodingError {
    init<Value>(encoding error: EncodingError, of type: Value.Type) {
        switch error {
        case .invalidValue(_, let context):
            self = .encodableFailed(
                type: String(describing: type),
                codingPath: context.codingPath.dottedPath,
                description: context.debugDescription)
        @unknown default:
            self = .encodableFailed(type: String(describing: type), codingPath: "", description: "\(error)")
        }
    }
}
