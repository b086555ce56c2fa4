import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a finished `URLSessionTask` means for the router, decided in one place for data tasks
/// with a completion handler and for delegate-driven uploads and downloads alike.
enum TaskOutcome {
    /// The body and response, or the error, of a task that finished.
    ///
    /// - Parameters:
    ///   - challenge: The 401 that ``SessionDelegate`` cancelled the authentication challenge
    ///     of; the cancellation then means that response, not a cancelled request.
    ///   - bodyBytes: The body's length as received (in memory, or written to a file), for
    ///     ``BodyFraming``.
    static func result(
        body: Data, response: URLResponse?, error: (any Error)?, challenge: HTTPURLResponse?,
        method: String?, bodyBytes: Int64
    ) -> Result<(Data, ResponseHead), any Error> {
        if let error {
            if let challenge, (error as? URLError)?.code == .cancelled { return .success((body, .made(challenge))) }
            return .failure(URLError.normalized(error))
        }
        guard let http = response as? HTTPURLResponse else { return .failure(URLError(.badServerResponse)) }
        do {
            try BodyFraming.check(http, received: bodyBytes, method: method)
            return .success((body, .made(http)))
        } catch {
            return .failure(error)
        }
    }
}
