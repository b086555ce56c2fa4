import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension CurlTransport {
    /// The settings of a ``CurlTransport``, shared by all its requests.
    ///
    /// ```swift
    /// var configuration = CurlTransport.Configuration()
    /// configuration.timeout = 30
    /// configuration.certificateAuthority = .file(URL(fileURLWithPath: "/etc/myapp/ca.pem"))
    /// let transport = CurlTransport(configuration: configuration)
    /// ```
    public struct Configuration: Sendable, Equatable {
        /// The longest a request may take from start to end, in seconds; `nil` (the default)
        /// for no limit other than the request's idle `timeoutInterval` and the router's
        /// deadline. Millisecond precision; a value that is not a positive number means none.
        public var timeout: TimeInterval?

        /// The certificate authorities that server certificates must chain to, and the only
        /// ones; `nil` (the default) for the system's bundle (libcurl's built-in CA file, read
        /// once per transport; its CA directory only where no bundle can be read). Verification
        /// of the certificate and the host name is always on.
        public var certificateAuthority: CertificateAuthority?

        /// Public keys the server's certificate must have one of, each `"sha256//"` followed by
        /// the base64 SHA-256 of the key's DER `SubjectPublicKeyInfo`; empty (the default) for no
        /// pinning. Applies to https only.
        ///
        /// ```sh
        /// openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der \
        ///     | openssl dgst -sha256 -binary | base64
        /// ```
        public var pinnedPublicKeys: [String]

        /// The most connections open to one host at a time; `nil` (the default) for no limit.
        /// Requests beyond it wait for a connection. A request's idle `timeoutInterval` starts
        /// once it has its connection, not while it waits (a queued request used to time out
        /// while the one ahead of it was still receiving); its router's deadline, and
        /// ``timeout`` from the moment it leaves the queue, still bound the wait.
        public var maximumConnectionsPerHost: Int?

        /// The largest response body held in memory, in bytes:
        /// `HTTPTransport.defaultMaximumResponseSize` (32 MiB) by default, as on
        /// `URLSessionTransport`. The transfer stops as soon as a body passes it, whatever the
        /// status, and the router reports `NetworkError.responseTooLarge(limit:)`. Downloads'
        /// 2xx bodies go to their file and streams are read as they arrive: neither is limited.
        public var maximumResponseSize: Int

        /// Where cookies are kept, as a session's `httpCookieStorage`; `nil` (the default) for
        /// no cookies: none is sent but the request's own `Cookie` header, and `Set-Cookie` is
        /// ignored.
        ///
        /// With a storage, a request without a `Cookie` header of its own is sent with the
        /// storage's cookies for its URL, and the `Set-Cookie` fields of every response head
        /// (redirects and error statuses included) are stored, within libcurl's own bounds: at
        /// most 50 cookies from one response and 3,000 in the storage, and 150 in one request's
        /// `Cookie` header of at most 8,190 bytes. The router's cache keys on the
        /// `Cookie` that will be sent (``CurlTransport/headersAdded(to:)``). An in-memory
        /// storage is `URLSessionConfiguration.ephemeral.httpCookieStorage`.
        ///
        /// ```swift
        /// var configuration = CurlTransport.Configuration()
        /// configuration.cookieStorage = URLSessionConfiguration.ephemeral.httpCookieStorage
        /// ```
        public var cookieStorage: HTTPCookieStorage?

        /// Creates a configuration; every parameter has the default its property states.
        public init(
            timeout: TimeInterval? = nil, certificateAuthority: CertificateAuthority? = nil,
            pinnedPublicKeys: [String] = [], maximumConnectionsPerHost: Int? = nil,
            maximumResponseSize: Int = CurlTransport.defaultMaximumResponseSize,
            cookieStorage: HTTPCookieStorage? = nil
        ) {
            self.timeout = timeout
            self.certificateAuthority = certificateAuthority
            self.pinnedPublicKeys = pinnedPublicKeys
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.maximumResponseSize = maximumResponseSize
            self.cookieStorage = cookieStorage
        }

        var engineSettings: CurlEngine.Settings {
            var settings = CurlEngine.Settings()
            if let timeout, timeout > 0, timeout.isFinite {
                // At least 1 ms: libcurl reads 0 as "no timeout".
                settings.totalTimeoutMilliseconds = Int(max(1, min(timeout, 1_000_000_000) * 1000))
            }
            switch certificateAuthority {
            case .file(let url): settings.certificateAuthorityFile = url.path
            case .pem(let data): settings.certificateAuthorityPEM = data
            case nil: break
            }
            if !pinnedPublicKeys.isEmpty {
                settings.pinnedPublicKeys = pinnedPublicKeys.joined(separator: ";")
            }
            if let perHost = maximumConnectionsPerHost, perHost > 0 {
                settings.maximumConnectionsPerHost = perHost
            }
            return settings
        }
    }

    /// Where the certificate authorities of ``Configuration/certificateAuthority`` come from.
    public enum CertificateAuthority: Sendable, Equatable {
        /// A PEM file of one or more certificates.
        case file(URL)
        /// PEM text of one or more certificates.
        case pem(Data)
    }
}
