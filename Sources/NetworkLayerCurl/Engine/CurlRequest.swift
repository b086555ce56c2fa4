import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request as the engine sends it: what libcurl needs, checked and copied out of a
/// `URLRequest` before anything is handed to the engine's thread.
struct CurlRequest: Sendable {
    /// The URL libcurl is given: the request's, without `user:password@` (no credential is sent
    /// but the request's own headers).
    let url: URL
    /// The URL as the caller gave it, for ``redactedURL`` and ``secrets``, which only a failure
    /// needs (URLComponents would cost more than the rest of a request on loopback).
    let originalURL: URL
    let method: String
    /// The request's headers, checked, without `Content-Length` (libcurl frames the body itself).
    let headers: [(name: String, value: String)]
    let body: UploadBody?
    /// The longest silence, in either direction, before the transfer fails with
    /// `URLError(.timedOut)`; `nil` for none.
    let idleTimeout: TimeInterval?
    /// Where the `Set-Cookie` fields of the response heads are stored; `nil` to ignore them.
    let cookieStorage: HTTPCookieStorage?
    /// Whether the transfer may pause for long (a streamed body the reader has not caught up
    /// with): it then gets a connection of its own, over HTTP/1.1, where a pause stops libcurl
    /// reading the socket. On a multiplexed HTTP/2 connection libcurl 7.88 goes on reading for
    /// the other streams and keeps the paused stream's data, up to its 32 MiB window per stream.
    var mayPauseForLong = false

    /// - Parameters:
    ///   - request: The request; its `httpBody` is the body unless `body` is given.
    ///   - body: A body kept outside the request (an upload).
    ///   - cookieStorage: Where the responses' cookies are stored; `nil` to ignore them.
    /// - Throws: `RequestBuildingError` for a method, header name or header value that would
    ///   change the request's framing, or a body on a `HEAD` request; `URLError(.unsupportedURL)`
    ///   for a URL that is not http or https with a host; `URLError(.requestBodyStreamExhausted)` for an `httpBodyStream`, which
    ///   this engine does not read.
    init(_ request: URLRequest, body: UploadBody? = nil, cookieStorage: HTTPCookieStorage? = nil) throws {
        guard let url = request.url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw URLError(
                .unsupportedURL,
                userInfo: [NSLocalizedDescriptionKey: "Only http and https URLs with a host can be sent."])
        }
        if body == nil, request.httpBody == nil, request.httpBodyStream != nil {
            throw URLError(
                .requestBodyStreamExhausted,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "CurlTransport does not read httpBodyStream; send a file or data with upload(_:body:progress:)."
                ])
        }
        // libcurl writes the method and custom headers as they are: a CR LF in any of them would
        // inject another header. The router checks too; a transport used on its own must not
        // rely on it.
        try request.validateHead(body: body)

        self.url = Self.withoutCredentials(url)
        self.originalURL = url
        self.method = request.httpMethod ?? "GET"
        // One array made at its size: a filtered dictionary, a mapped array and a set of
        // lowercased names were three allocations more per request (2026-11-26).
        var headers: [(name: String, value: String)] = []
        if let fields = request.allHTTPHeaderFields {
            headers.reserveCapacity(fields.count)
            for (name, value) in fields where !HeaderName.same(name, "Content-Length") {
                headers.append((name, value))
            }
        }
        self.headers = headers
        // A HEAD that passed the check has an empty body at most, which must not make it a POST.
        self.body = method == HTTPMethod.head.rawValue ? nil : body ?? request.httpBody.map(UploadBody.data)
        let timeout = request.timeoutInterval
        self.idleTimeout = timeout > 0 && timeout.isFinite ? timeout : nil
        self.cookieStorage = cookieStorage
    }

    /// Whether the headers include `name`, in any letter case.
    func hasHeader(_ name: String) -> Bool {
        headers.contains { HeaderName.same($0.name, name) }
    }

    /// Stores the cookies of `setCookieValues`, the `Set-Cookie` field values of one response
    /// head, each parsed on its own (an `Expires` date has a comma, so the values cannot be
    /// joined), in ``cookieStorage``, within ``CookieLimits``.
    func storeCookies(_ setCookieValues: [String]) {
        guard let cookieStorage, !setCookieValues.isEmpty else { return }
        cookieStorage.store(setCookieValues: setCookieValues, from: originalURL)
    }

    /// The request's URL reduced to `scheme://host:port/path`, for error messages.
    var redactedURL: URL? { Self.redacted(originalURL) }

    /// The parts of the URL that may be secret (query, user, password), kept out of messages.
    var secrets: [String] {
        [originalURL.query, originalURL.user, originalURL.password, originalURL.fragment].compactMap { $0 }.filter { $0.count >= 3 }
    }

    private static func withoutCredentials(_ url: URL) -> URL {
        guard url.user != nil || url.password != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.user = nil
        components.password = nil
        return components.url ?? url
    }

    /// `scheme://host:port/path`: never a credential, a query or a fragment, which may hold secrets.
    static func redacted(_ url: URL) -> URL? {
        guard let original = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        var components = URLComponents()
        components.scheme = original.scheme
        components.host = original.host
        components.port = original.port
        components.percentEncodedPath = original.percentEncodedPath
        return components.url
    }
}
