import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Encodes parameters as `application/x-www-form-urlencoded` pairs, into the URL's query
/// (the default) or into the body.
///
/// The defaults match what users of Alamofire's `URLEncoding` rely on, with two differences
/// that make requests reproducible: keys are sorted at every level (Alamofire leaves nested keys
/// in random order), and a value the encoder does not understand is an error rather than its
/// `description`.
///
/// | Parameter                          | Encoded (defaults)             |
/// |------------------------------------|--------------------------------|
/// | `["q": "a b+c"]`                   | `q=a%20b%2Bc`                  |
/// | `["f": ["min": 1] as Parameters]`  | `f%5Bmin%5D=1` (`f[min]=1`)    |
/// | `["ids": [1, 2]]`                  | `ids%5B%5D=1&ids%5B%5D=2`      |
/// | `["on": true]`                     | `on=1`                         |
/// | `["ratio": 1.0]`                   | `ratio=1.0`                    |
/// | `["page": Int?.none]`              | *(key left out)*               |
///
/// Numbers use Swift's shortest round-trip formatting on every platform: `1.0` is `1.0`,
/// `0.1` is `0.1`, `1e-7` is `1e-07`; a `Decimal` prints its `description`. NaN and the
/// infinities are an error, as in a JSON body: both encoders accept the same values.
///
/// ```swift
/// var request = URLRequest(url: URL(string: "https://api.example.com/search?lang=en")!)
/// try URLParameterEncoder().encode(urlRequest: &request, with: ["q": "swift & linux", "page": 2])
/// // https://api.example.com/search?lang=en&page=2&q=swift%20%26%20linux
/// ```
public struct URLParameterEncoder: ParameterEncoder {
    /// Where the encoded pairs go.
    public enum Destination: Sendable, Equatable {
        /// Appended to the URL's query, after any query already there.
        case queryString
        /// The request body, with `Content-Type: application/x-www-form-urlencoded; charset=utf-8`
        /// unless the request already has a `Content-Type`.
        case httpBody
    }

    /// How array elements are keyed.
    public enum ArrayEncoding: Sendable, Equatable {
        /// `key[]=a&key[]=b` (the default, as Rails, PHP and Alamofire expect).
        case brackets
        /// `key=a&key=b`.
        case noBrackets
        /// `key[0]=a&key[1]=b`.
        case indexInBrackets
    }

    /// How `Bool` values are written.
    public enum BoolEncoding: Sendable, Equatable {
        /// `1` and `0` (the default, as Alamofire).
        case numeric
        /// `true` and `false`.
        case literal
    }

    /// How `nil` optionals and `NSNull` are written.
    public enum NilEncoding: Sendable, Equatable {
        /// The pair is left out (the default), so `["page": Int?.none]` adds nothing.
        case dropKey
        /// The key is written with an empty value: `page=`.
        case emptyValue
    }

    /// The content type set on form bodies when the request has none.
    public static let formContentType = "application/x-www-form-urlencoded; charset=utf-8"

    /// Where the pairs go; `.queryString` by default.
    public var destination: Destination
    /// How arrays are keyed; `.brackets` by default.
    public var arrayEncoding: ArrayEncoding
    /// How booleans are written; `.numeric` by default.
    public var boolEncoding: BoolEncoding
    /// How `nil` is written; `.dropKey` by default.
    public var nilEncoding: NilEncoding

    /// Creates an encoder.
    ///
    /// - Parameters:
    ///   - destination: Where the pairs go; `.queryString` by default.
    ///   - arrayEncoding: How arrays are keyed; `.brackets` by default.
    ///   - boolEncoding: How booleans are written; `.numeric` by default.
    ///   - nilEncoding: How `nil` is written; `.dropKey` by default.
    public init(
        destination: Destination = .queryString,
        arrayEncoding: ArrayEncoding = .brackets,
        boolEncoding: BoolEncoding = .numeric,
        nilEncoding: NilEncoding = .dropKey
    ) {
        self.destination = destination
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.nilEncoding = nilEncoding
    }

    /// Encodes `parameters` into the query or body of `urlRequest`.
    ///
    /// Empty parameters leave the request untouched. Into the query, the new pairs are
    /// appended after `&` to any query the URL already has, before any fragment.
    ///
    /// - Throws: ``ParameterEncodingError/missingURL`` when encoding into the query of a request
    ///   without URL; ``ParameterEncodingError/unsupportedValue(keyPath:type:)`` for a value the
    ///   encoder cannot write; ``ParameterEncodingError/invalidJSONValue(keyPath:reason:)`` for
    ///   NaN or an infinity, as ``JSONParameterEncoder`` does;
    ///   ``ParameterEncodingError/nestingTooDeep(keyPath:limit:)`` beyond 512 levels.
    public func encode(urlRequest: inout URLRequest, with parameters: Parameters) throws {
        guard !parameters.isEmpty else { return }
        let query = try self.query(from: parameters)

        switch destination {
        case .queryString:
            guard let url = urlRequest.url else { throw ParameterEncodingError.missingURL }
            guard !query.isEmpty else { return }
            urlRequest.url = try Self.url(url, appendingQuery: query)
        case .httpBody:
            urlRequest.setHeaderIfAbsent(Self.formContentType, named: "Content-Type")
            urlRequest.httpBody = Data(query.utf8)
        }
    }

    /// The percent-escaped `key=value` pairs for `parameters`, joined by `&`, keys sorted.
    ///
    /// ```swift
    /// try URLParameterEncoder().query(from: ["b": 2, "a": "x y"])   // "a=x%20y&b=2"
    /// ```
    ///
    /// - Throws: ``ParameterEncodingError/unsupportedValue(keyPath:type:)`` for a value the
    ///   encoder cannot write; ``ParameterEncodingError/invalidJSONValue(keyPath:reason:)`` for
    ///   NaN or an infinity; ``ParameterEncodingError/nestingTooDeep(keyPath:limit:)`` beyond
    ///   512 levels.
    public func query(from parameters: Parameters) throws -> String {
        var output: [UInt8] = []
        output.reserveCapacity(parameters.count * 24)
        var keyPath = ParameterKeyPath()
        func append(_ key: String, _ value: Any) throws {
            keyPath.push(key: key)
            try appendPairs(key: key, value: value, keyPath: &keyPath, to: &output)
            keyPath.pop()
        }
        if parameters.count == 1, let (key, value) = parameters.first {
            // One pair has no order, and sorting would allocate an array (a `page` alone is common).
            try append(key, value)
        } else {
            for (key, value) in parameters.sorted(by: { $0.key < $1.key }) { try append(key, value) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private func appendPairs(
        key: String, value: Any, keyPath: inout ParameterKeyPath, to output: inout [UInt8]
    ) throws {
        switch ParameterValue(value) {
        case .string(let string):
            appendPair(key: key, value: string, to: &output)
        case .number(let number, let isFinite):
            // As the JSON encoder: `nan` and `inf` are no number a server agrees on.
            guard isFinite else { throw ParameterEncodingError.nonFiniteNumber(number, at: keyPath) }
            appendPair(key: key, value: number, to: &output)
        case .bool(let bool):
            let text: String
            switch boolEncoding {
            case .numeric: text = bool ? "1" : "0"
            case .literal: text = bool ? "true" : "false"
            }
            appendPair(key: key, value: text, to: &output)
        case .null:
            if nilEncoding == .emptyValue { appendPair(key: key, value: "", to: &output) }
        case .dictionary(let dictionary):
            try keyPath.checkDepth()
            for (nestedKey, nestedValue) in dictionary.sorted(by: { $0.key < $1.key }) {
                keyPath.push(key: nestedKey)
                try appendPairs(key: "\(key)[\(nestedKey)]", value: nestedValue, keyPath: &keyPath, to: &output)
                keyPath.pop()
            }
        case .array(let array):
            try keyPath.checkDepth()
            for (index, element) in array.enumerated() {
                let elementKey: String
                switch arrayEncoding {
                case .brackets: elementKey = key + "[]"
                case .noBrackets: elementKey = key
                case .indexInBrackets: elementKey = "\(key)[\(index)]"
                }
                keyPath.push(index: index)
                try appendPairs(key: elementKey, value: element, keyPath: &keyPath, to: &output)
                keyPath.pop()
            }
        case .unsupported(let type):
            throw ParameterEncodingError.unsupportedValue(keyPath: keyPath.rendered, type: type)
        }
    }

    private func appendPair(key: String, value: String, to output: inout [UInt8]) {
        if !output.isEmpty { output.append(UInt8(ascii: "&")) }
        PercentEscaping.append(key, escapedTo: &output)
        output.append(UInt8(ascii: "="))
        PercentEscaping.append(value, escapedTo: &output)
    }

    /// `url` with `query` appended to its existing query, keeping any fragment last.
    static func url(_ url: URL, appendingQuery query: String) throws -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw ParameterEncodingError.invalidURL(ErrorText.url(url.absoluteString))
        }
        if let existing = components.percentEncodedQuery, !existing.isEmpty {
            components.percentEncodedQuery = existing + "&" + query
        } else {
            components.percentEncodedQuery = query
        }
        guard let result = components.url else {
            throw ParameterEncodingError.invalidURL(ErrorText.url(url.absoluteString))
        }
        return result
    }
}
