import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Follows redirects by the ``RedirectPolicy`` (see ``Redirection``), so that every transport
/// follows them the same way, credentials kept within the origin.
struct RedirectStage: RequestStage {
    let policy: RedirectPolicy

    func send(_ exchange: Exchange, next: @escaping Next) async throws(NetworkError) -> Response {
        var exchange = exchange
        while true {
            let response = try await next(exchange)
            guard let redirected = try Self.follow(response, from: exchange, policy: policy) else { return response }
            exchange = redirected
        }
    }

    /// The exchange that follows `response`, or `nil` when it is not a redirect to follow.
    ///
    /// - Throws: `URLError(.httpTooManyRedirects)` one redirect past the policy's limit, and
    ///   `URLError(.unsupportedURL)` for a redirect to anything but http(s), as transport errors.
    static func follow(_ response: Response, from exchange: Exchange, policy: RedirectPolicy) throws(NetworkError) -> Exchange? {
        guard policy.limit > 0 else { return nil }
        let redirection: Redirection
        do {
            guard let found = try Redirection.following(response, to: response.request, redaction: exchange.context.redaction)
            else { return nil }
            redirection = found
        } catch {
            throw .transport(error)
        }
        guard exchange.redirectCount < policy.limit else {
            throw .transport(URLError(.httpTooManyRedirects, userInfo: [NSLocalizedDescriptionKey: "More than \(policy.limit) redirects."]))
        }
        // A streamed redirect's body is not read.
        exchange.streamedBody?.drop()
        exchange.metrics.didFollowRedirect()
        var next = exchange
        next.redirectCount += 1
        next.request = redirection.request
        if !redirection.keepsBody, case .upload = next.payload { next.payload = .inRequest }
        return next
    }
}
