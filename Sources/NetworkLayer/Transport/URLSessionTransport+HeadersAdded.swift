import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// The names of the headers the session puts on every request it sends (its configuration's
    /// `httpAdditionalHeaders`), whatever its delegate or credential storage: a redirect to
    /// another origin is refused when a credential is among them (``RedirectPolicy``).
    package var sessionHeaderNames: [String] {
        (session.configuration.httpAdditionalHeaders ?? [:]).keys.compactMap { $0 as? String }
    }

    /// What the session adds to `request` on the wire: the `Cookie` header made from its
    /// configuration's `httpCookieStorage` for the request's URL (when `httpShouldSetCookies`;
    /// on an owned session, the transport's, see ``URLSessionTransport``), and the
    /// configuration's `httpAdditionalHeaders` the request does not set itself.
    ///
    /// `nil` for a session of the caller's that may answer an authentication challenge with a
    /// credential the request does not show: one with a delegate, or whose credential storage
    /// holds any credential. The router's cache then neither answers nor stores its requests.
    public func headersAdded(to request: URLRequest) -> HTTPHeaders? {
        let configuration = session.configuration
        if ownedTransferSession == nil {
            // An owned session's delegate cancels every challenge (see the type's documentation).
            if session.delegate != nil { return nil }
            if let storage = configuration.urlCredentialStorage, !storage.allCredentials.isEmpty { return nil }
        }
        return headersSessionAdds(to: request)
    }

    /// What the session's configuration adds to `request`, whatever its delegate or credential
    /// storage may add besides: what ``headersAdded(to:)`` returns when it can promise it, and
    /// what a description hides where a server repeats it when it cannot.
    package func headersSessionAdds(to request: URLRequest) -> HTTPHeaders {
        let configuration = session.configuration
        var added: HTTPHeaders = [:]
        // The request's own names are read only for such headers: made into a set on every
        // call, they cost a third of this function on every cache lookup.
        for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
            guard let name = name as? String, request.headerValue(named: name) == nil else { continue }
            added[name] = "\(value)"
        }
        if ownedTransferSession != nil {
            // Only over the configuration's: without a stored cookie the request goes with that
            // one, and assigning nil would remove it from the key of a user's private answer.
            if let cookie = cookieAdded(to: request) { added["Cookie"] = cookie }
        } else if configuration.httpShouldSetCookies, let url = request.url,
            let cookie = configuration.httpCookieStorage?.cookieHeaderFoundationSends(for: url)
        {
            // Not `request.httpShouldHandleCookies`: FoundationNetworking ignores it, and replaces
            // a request's own `Cookie` header with the storage's.
            added["Cookie"] = cookie
        }
        return added
    }
}
