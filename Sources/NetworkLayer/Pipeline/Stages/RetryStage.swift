import Foundation

/// Sends a failed request again as the ``RetryPolicy`` says, after its delay, never after
/// cancellation and never when the delay would end past the request's deadline.
struct RetryStage: RequestStage {
    let policy: RetryPolicy

    func send(_ exchange: Exchange, next: @escaping Next) async throws(NetworkError) -> Response {
        var retryCount = 0
        while true {
            do {
                return try await next(exchange)
            } catch {
                guard !Task.isCancelled else { throw .cancelled }
                // The request a retry sends again, not the one the server last answered: after a
                // 303 that one is a GET, and the policy allowed sending the POST again.
                let failed = RetryPolicy.FailedAttempt(request: exchange.request, error: error, retryCount: retryCount)
                guard let delay = policy.delay(for: failed), Seconds.uptime(after: delay) < exchange.deadline else {
                    throw error
                }
                retryCount += 1
                exchange.metrics.didWait(seconds: delay)
                do {
                    try await Task.sleep(nanoseconds: Seconds.nanoseconds(delay))
                } catch {
                    throw .cancelled
                }
            }
        }
    }
}
