import Foundation

/// Fails a response whose status the endpoint does not accept
/// (``EndPointType/acceptableStatusCodes``) with ``NetworkError/unacceptableStatusCode(_:)``,
/// which keeps the whole response.
struct ValidationStage: RequestStage {
    func send(_ exchange: Exchange, next: Next) async throws(NetworkError) -> Response {
        try Self.validate(try await next(exchange), acceptable: exchange.acceptableStatusCodes)
    }

    static func validate(_ response: Response, acceptable: Set<Int>) throws(NetworkError) -> Response {
        guard acceptable.contains(response.statusCode) else { throw .unacceptableStatusCode(response) }
        return response
    }
}
