import Foundation

/// Fails a response whose status the endpoint does not accept
/// (``EndPointType/acceptableStatusCodes``) with ``NetworkError/unacceptableStatusCode(_:)``,
/// which keeps the whole response.
struct ValidationStage: RequestStage {
    /// The most of a streamed response's error body kept in the error: 1 MiB. The server
    /// controls it, and a stream may not end.
    static let streamedErrorBodyLimit = 1 << 20

    func send(_ exchange: Exchange, next: @escaping Next) async throws(NetworkError) -> Response {
        var response = try await next(exchange)
        if !exchange.acceptableStatusCodes.contains(response.statusCode), let streamed = exchange.streamedBody?.take() {
            // The error's body is read here, so that the error keeps what the server said.
            let body = await streamed.collect(upTo: Self.streamedErrorBodyLimit)
            response = response.withBody(body)
        }
        return try Self.validate(response, acceptable: exchange.acceptableStatusCodes)
    }

    static func validate(_ response: Response, acceptable: Set<Int>) throws(NetworkError) -> Response {
        guard acceptable.contains(response.statusCode) else { throw .unacceptableStatusCode(response) }
        return response
    }
}
