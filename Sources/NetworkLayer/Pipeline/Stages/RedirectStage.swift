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
            var response = try await next(exchange)
            guard let redirected = try Self.follow(response, from: exchange, policy: policy) else {
                response.redirected = exchange.redirectCount > 0
                return response
            }
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
        try refuseSessionCredentials(across: redirection, from: response.request, through: exchange)
        // A streamed redirect's body is not read.
        exchange.streamedBody?.drop()
        exchange.metrics.didFollowRedirect()
        var next = exchange
        next.redirectCount += 1
        next.request = redirection.request
        if !redirection.keepsBody, next.payload.isUpload { next.payload = .inRequest }
        return next
    }

    /// Throws when `redirection` leaves the origin of `previous` and the transport would put a
    /// credential of its own on the next request: a session whose configuration's
    /// `httpAdditionalHeaders` holds an `Authorization` or a `Cookie` sends it on every request,
    /// and ``Redirection`` can remove only the request's own headers. A transport that cannot
    /// say what it adds (`headersAdded(to:)` is `nil`), and whose session cannot be read
    /// directly, may be such a session wrapped: it is not followed either.
    private static func refuseSessionCredentials(
        across redirection: Redirection, from previous: URLRequest, through exchange: Exchange
    ) throws(NetworkError) {
        guard let current = previous.url, let target = redirection.request.url, !Origin(current).contains(target) else { return }
        let added = exchange.transport.headersAdded(to: redirection.request)
        let session = exchange.transport as? URLSessionTransport
        if added == nil, session == nil {
            let message =
                "The server redirected to another origin, and the transport cannot say which headers it adds to a request"
                + " (its headersAdded(to:) is nil): the redirect is not followed. A transport that wraps another returns the"
                + " wrapped one's headersAdded(to:); one that adds nothing returns [:]."
            throw .transport(URLError(.userAuthenticationRequired, userInfo: [NSLocalizedDescriptionKey: message]))
        }
        // What the transport says it adds, but for the cookies of its storage, which are the
        // target's own; and a session's own headers, which it does not report when it has a
        // delegate or stored credentials, and whose `Cookie` is not its storage's.
        let reported = (added ?? [:]).keys.filter { !HeaderName.same($0, "Cookie") }
        let sessions = session?.sessionHeaderNames ?? []
        let redaction = exchange.context.redaction
        guard let name = (reported + sessions).sorted().first(where: { redaction.isCredentialHeader($0) }) else { return }
        let message =
            "The server redirected to another origin, and the transport adds its own \(name) header to every request:"
            + " the redirect is not followed. Set that header on the endpoint or with a plugin, which the router drops across origins."
        throw .transport(URLError(.userAuthenticationRequired, userInfo: [NSLocalizedDescriptionKey: message]))
    }
}
