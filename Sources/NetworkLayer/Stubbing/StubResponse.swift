import Foundation

/// A canned answer: status, headers and body.
///
/// ```swift
/// var sampleResponse: StubResponse {
///     StubResponse(statusCode: 200, headers: ["Content-Type": "application/json"], data: Data(#"{"page":1}"#.utf8))
/// }
/// ```
public struct StubResponse: Sendable {
    /// The status code; 200 by default.
    public var statusCode: Int
    /// The response headers; none by default. Names that differ only in letter case are one
    /// field, answered with their values joined by ", " in the order of their spellings, as a
    /// repeated field is on the wire.
    public var headers: HTTPHeaders
    /// The body.
    public var data: Data
    /// The lengths of the chunks a streamed request receives the body in (see
    /// ``Router/stream(_:options:)``); `nil` (the default) for one chunk.
    public var chunkLengths: [Int]?

    /// Creates a canned answer.
    public init(statusCode: Int = 200, headers: HTTPHeaders = [:], data: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.data = data
        self.chunkLengths = nil
    }

    /// Creates a canned answer whose body a streamed request receives in `chunks`, as given.
    ///
    /// ```swift
    /// StubResponse(headers: ["Content-Type": "text/event-stream"], chunks: [
    ///     Data("data: hel".utf8), Data("lo\n\n".utf8),
    /// ])
    /// ```
    public init(statusCode: Int = 200, headers: HTTPHeaders = [:], chunks: [Data]) {
        self.init(statusCode: statusCode, headers: headers, data: chunks.reduce(into: Data()) { $0.append($1) })
        self.chunkLengths = chunks.map(\.count)
    }
}

/// Whether and how a router answers an endpoint from its ``EndPointType/sampleResponse``
/// instead of the network.
public enum StubBehavior: Sendable, Equatable {
    /// Send the request for real (the default).
    case never
    /// Answer at once from the sample response.
    case immediate
    /// Answer from the sample response after `seconds`; cancelling during the wait gives
    /// ``NetworkError/cancelled``.
    case delayed(seconds: TimeInterval)
}

extension EndPointType {
    /// ``sampleData`` with status 200 and no headers.
    public var sampleResponse: StubResponse {
        StubResponse(statusCode: 200, data: sampleData)
    }
}
