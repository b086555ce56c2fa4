import Foundation

extension Response {
    /// The body decoded as `T` with `decoder`.
    ///
    /// An empty body decodes to `nil` when `T` is an `Optional`, and to ``EmptyResponse``; for any
    /// other type it is a decoding error, like any body that does not match.
    ///
    /// ```swift
    /// let movie = try response.decode(Movie.self)
    /// ```
    ///
    /// - Throws: ``NetworkError/decoding(_:_:)`` with the `DecodingError` (its coding path says
    ///   where decoding stopped) and this response (its body says what arrived).
    @inlinable  // specialised for `T` in the caller: JSONDecoder's generic path costs about 1 µs more
    public func decode<T: Decodable>(_ type: T.Type = T.self, using decoder: JSONDecoder = JSONDecoder()) throws(NetworkError) -> T {
        if data.isEmpty {
            if let empty = EmptyResponse() as? T { return empty }
            if let nilType = T.self as? any ExpressibleByNilLiteral.Type, let none = nilType.init(nilLiteral: ()) as? T {
                return none
            }
        }
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw .decoding(Self.locatingSyntaxError(error, in: data), self)
        }
    }

    /// `error`, with where the JSON broke added when it is a syntax error.
    ///
    /// On Linux `JSONDecoder` says only "The given data was not valid JSON", without position or
    /// underlying error; `JSONSerialization` says where ("Invalid value around character 8."),
    /// so it reads the same bytes again, on this failure path only.
    @usableFromInline
    static func locatingSyntaxError(_ error: any Error, in data: Data) -> any Error {
        guard case DecodingError.dataCorrupted(let context) = error, context.codingPath.isEmpty,
            context.underlyingError == nil
        else { return error }
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return error
        } catch let syntax as NSError {
            guard let location = syntax.userInfo[NSDebugDescriptionErrorKey] as? String else { return error }
            return DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "\(context.debugDescription) \(location)", underlyingError: syntax))
        }
    }
}

extension NetworkError {
    /// Where decoding stopped, as `"results.[3].title"`, when this is a decoding failure.
    public var codingPath: String? {
        guard case .decoding(let error as DecodingError, _) = self else { return nil }
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
            context = c
        @unknown default:
            return nil
        }
        return context.codingPath.dottedPath
    }
}
