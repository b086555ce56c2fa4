import Foundation

/// Moya's response mapping: `mapJSON`, `mapString(atKeyPath:)` and `map(_:atKeyPath:using:failsOnEmptyData:)`,
/// with typed errors. Every failure is ``NetworkError/decoding(_:_:)`` with this response, whose
/// `DecodingError` gives the coding path where it stopped (``NetworkError/codingPath``).
extension Response {
    /// The body as a ``JSONValue``.
    ///
    /// Moya returns `Any`, which cannot cross a concurrency domain in Swift 6; ``JSONValue`` can,
    /// and ``JSONValue/foundationObject`` gives the `Any` back for code that casts it.
    ///
    /// ```swift
    /// let json = try response.mapJSON()
    /// print(json["results"]?[0]?["title"]?.stringValue ?? "-")
    /// ```
    ///
    /// - Parameter failsOnEmptyData: Whether an empty body is an error (`true`, the default) or
    ///   ``JSONValue/null`` (`false`).
    /// - Throws: ``NetworkError/decoding(_:_:)`` when the body is not JSON (its message gives the
    ///   character where it broke) or, with `failsOnEmptyData`, when it is empty.
    public func mapJSON(failsOnEmptyData: Bool = true) throws(NetworkError) -> JSONValue {
        if data.isEmpty {
            if failsOnEmptyData { throw .decoding(Self.emptyBody(JSONValue.self), self) }
            return .null
        }
        do {
            return try JSONValue(parsing: data)
        } catch {
            throw .decoding(error, self)
        }
    }

    /// The body as UTF-8 text or, with a key path, the string at that key path of a JSON body.
    ///
    /// ```swift
    /// let token = try response.mapString(atKeyPath: "auth.token")
    /// ```
    ///
    /// - Parameter keyPath: Where the string is, as in ``map(_:atKeyPath:using:failsOnEmptyData:)``;
    ///   `nil` (the default) for the whole body.
    /// - Throws: ``NetworkError/decoding(_:_:)`` when the body is not valid UTF-8 (unlike
    ///   ``text``, which replaces invalid bytes), or when the key path is missing or holds no string.
    public func mapString(atKeyPath keyPath: String? = nil) throws(NetworkError) -> String {
        if let keyPath {
            return try map(String.self, atKeyPath: keyPath)
        }
        guard let string = String(data: data, encoding: .utf8) else {
            throw .decoding(
                DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: [], debugDescription: "The body is not valid UTF-8 text.")),
                self)
        }
        return string
    }

    /// The body, or the value under `keyPath` in it, decoded as `type`.
    ///
    /// The key path names members with dots and array elements by number: `"data.items"`,
    /// `"results.0.title"` or `"results[0].title"`. It is walked by `decoder` itself, without a
    /// `JSONSerialization` round trip, so the decoder's strategies apply to the value found.
    /// Members are matched as the server spells them; with `.convertFromSnakeCase` (or a custom
    /// key strategy), `"total_results"` and `"totalResults"` both match. A key that contains a
    /// dot cannot be named.
    ///
    /// ```swift
    /// let movies = try response.map([Movie].self, atKeyPath: "data.items", using: decoder)
    /// let profile = try response.map(Profile.self, failsOnEmptyData: false)  // {} when the body is empty
    /// ```
    ///
    /// An empty body:
    /// - decodes to `nil` for an `Optional` type and to ``EmptyResponse``, whatever
    ///   `failsOnEmptyData` says, as with ``decode(_:using:)``;
    /// - with `failsOnEmptyData: false`, decodes as if the body were `{}` (a type whose
    ///   properties are all optional) or else `[]` (an array: empty, where Moya gives one element
    ///   made of `{}`), whatever the key path;
    /// - is otherwise an error that says the body was empty.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - keyPath: Where the value is; `nil` (the default) for the whole body.
    ///   - decoder: The decoder; a new `JSONDecoder` by default.
    ///   - failsOnEmptyData: Whether an empty body is an error; `true` by default.
    /// - Throws: ``NetworkError/decoding(_:_:)``. A missing member is `DecodingError.keyNotFound`
    ///   whose coding path is where the walk stopped (``NetworkError/codingPath`` gives it, and
    ///   the message reads `missing key "items" at "data"`); an index past the end is
    ///   `DecodingError.valueNotFound`; an invalid key path is `DecodingError.dataCorrupted`.
    public func map<D: Decodable>(
        _ type: D.Type, atKeyPath keyPath: String? = nil, using decoder: JSONDecoder = JSONDecoder(),
        failsOnEmptyData: Bool = true
    ) throws(NetworkError) -> D {
        if data.isEmpty {
            return try decodeEmptyBody(D.self, using: decoder, failsOnEmptyData: failsOnEmptyData)
        }
        guard let keyPath else { return try decode(D.self, using: decoder) }
        do {
            let path = KeyPathDecoding(components: try KeyPathDecoding.parse(keyPath), keyStrategy: decoder.keyDecodingStrategy)
            return try KeyPathDecoding.$current.withValue(path) {
                try decoder.decode(KeyPathValue<D>.self, from: data).value
            }
        } catch {
            throw .decoding(Self.locatingSyntaxError(error, in: data), self)
        }
    }

    /// What an empty body is as `D`: see ``map(_:atKeyPath:using:failsOnEmptyData:)``.
    private func decodeEmptyBody<D: Decodable>(
        _ type: D.Type, using decoder: JSONDecoder, failsOnEmptyData: Bool
    ) throws(NetworkError) -> D {
        if EmptyResponse.self is D.Type || D.self is any ExpressibleByNilLiteral.Type {
            return try decode(D.self, using: decoder)
        }
        guard !failsOnEmptyData else { throw .decoding(Self.emptyBody(D.self), self) }
        do {
            return try decoder.decode(D.self, from: Data("{}".utf8))
        } catch let objectError {
            if let array = try? decoder.decode(D.self, from: Data("[]".utf8)) { return array }
            throw .decoding(
                DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: [],
                        debugDescription: "The body is empty, and \(D.self) cannot be made from an empty object or array"
                            + " (\(NetworkError.describe(objectError)))",
                        underlyingError: objectError)),
                self)
        }
    }

    private static func emptyBody<D>(_ type: D.Type) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: [],
                debugDescription: "The body is empty; pass failsOnEmptyData: false to accept that for \(D.self)"))
    }
}
