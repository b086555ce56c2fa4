import Foundation

extension Router {
    /// Sends `route` and decodes the value under `keyPath` of its body, as
    /// ``Response/map(_:atKeyPath:using:failsOnEmptyData:)`` does.
    ///
    /// ```swift
    /// let movies = try await router.request(.popular(page: 1), as: [Movie].self, atKeyPath: "results")
    /// ```
    ///
    /// - Parameters:
    ///   - route: The endpoint to send.
    ///   - type: The type to decode.
    ///   - keyPath: Where the value is: `"data.items"`, `"results.0"`.
    ///   - decoder: The decoder; a new `JSONDecoder` by default.
    ///   - failsOnEmptyData: Whether an empty body is an error; `true` by default.
    /// - Throws: ``NetworkError``; ``NetworkError/decoding(_:_:)`` keeps the `DecodingError`
    ///   (a missing key path is `keyNotFound` at the last member found) and the response.
    public func request<T: Decodable>(
        _ route: EndPoint, as type: T.Type, atKeyPath keyPath: String, decoder: JSONDecoder = JSONDecoder(),
        failsOnEmptyData: Bool = true
    ) async throws(NetworkError) -> T {
        try await request(route).map(T.self, atKeyPath: keyPath, using: decoder, failsOnEmptyData: failsOnEmptyData)
    }
}
