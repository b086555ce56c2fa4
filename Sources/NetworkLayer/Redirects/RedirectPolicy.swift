/// Whether and how far a router follows redirects (301, 302, 303, 307, 308 with a `Location`).
///
/// The router follows redirects itself rather than leaving it to the transport, so that the same
/// rules hold on every transport and platform:
/// - credentials never leave the origin: when a redirect changes scheme, host or port, every
///   credential header (``Redaction/isCredentialHeader(_:)``: ``Redaction/credentialHeaders``
///   and the names in the router's ``Router/redaction`` and its plugins') is removed, and a
///   redirect that the transport would send one of its own to (a session whose configuration's
///   `httpAdditionalHeaders` holds an `Authorization` or a `Cookie`) fails with
///   `URLError(.userAuthenticationRequired)`, whose description names the header. So does one
///   to another origin through a transport that cannot say what it adds
///   (``HTTPTransport/headersAdded(to:)`` is `nil`, such as a wrapper that does not forward it);
/// - 303, and 301 or 302 after a `POST`, continue with a `GET` without the body; 307 and 308
///   repeat the method and the body (an upload's file is sent again), to another origin too,
///   and from `https` to `http`, as RFC 9110, browsers and `curl -L` do. A body is not a header:
///   a login form's password goes with it. Send such requests with `.doNotFollow`, or check the
///   `Location` yourself, when the server is not fully trusted;
/// - a redirect to anything but `http` or `https` fails with `URLError(.unsupportedURL)`, and
///   one redirect more than ``limit`` with `URLError(.httpTooManyRedirects)`.
///
/// ```swift
/// let router = Router<MovieApi>(redirects: .doNotFollow)   // 3xx arrive as responses
/// ```
public struct RedirectPolicy: Sendable, Equatable {
    /// The most redirects followed for one request; 0 follows none.
    public var limit: Int

    /// Follows at most `limit` redirects per request (negative counts as 0).
    public init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Follows up to 16 redirects, as Apple platforms do. The default.
    public static let follow = RedirectPolicy(limit: 16)

    /// Follows none: a 3xx is the response (and fails validation unless the endpoint accepts it).
    public static let doNotFollow = RedirectPolicy(limit: 0)
}
