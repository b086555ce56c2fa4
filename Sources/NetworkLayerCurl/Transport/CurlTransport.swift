import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport on libcurl directly, for Linux servers and tools that send many requests.
///
/// One multi handle per transport, driven by one thread of its own, sends every request:
/// connections are reused, HTTP/2 is used where the server offers it over https, and no Swift
/// concurrency thread ever waits for the network. Compared with `URLSessionTransport` on
/// Linux it is several times faster on small requests, and it avoids FoundationNetworking's
/// traps: a POST re-sent on a new connection is sent with its body, timeouts have millisecond
/// precision, a body cut short or with a malformed `Content-Length` is an error, and TLS public
/// keys can be pinned.
///
/// ```swift
/// let router = Router<MovieApi>(transport: CurlTransport())
///
/// var configuration = CurlTransport.Configuration()
/// configuration.timeout = 30
/// configuration.pinnedPublicKeys = ["sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE="]
/// let pinned = CurlTransport(configuration: configuration)
/// ```
///
/// What it does not do, by design: follow redirects (a 3xx is returned as it is; the router
/// decides), answer authentication challenges (credentials travel in headers, never in the
/// URL, whose `user:password@` is not sent), or ask for compressed bodies. It keeps cookies only
/// in the ``Configuration/cookieStorage`` it is given (none by default).
/// The request's `timeoutInterval` is an idle timeout: the transfer fails with
/// `URLError(.timedOut)` when no byte moves for that long.
///
/// The transport stops its thread and frees every connection when its last copy goes away, or
/// when ``shutdown()`` is called; requests still running then fail with `URLError(.cancelled)`.
public struct CurlTransport: HTTPTransport {
    /// The settings every request of this transport is sent with.
    public let configuration: Configuration
    private let owner: EngineOwner

    /// Creates a transport with its own connections and thread.
    ///
    /// - Parameter configuration: ``Configuration/init(timeout:certificateAuthority:pinnedPublicKeys:maximumConnectionsPerHost:maximumResponseSize:cookieStorage:)``'s
    ///   defaults unless given: no total timeout, the system's certificate authorities, no pin,
    ///   no cookies.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.owner = EngineOwner(settings: configuration.engineSettings)
    }

    /// Ends the transport for every copy of it and returns once its thread has closed every
    /// connection and freed what it held, OpenSSL's state for the thread included.
    ///
    /// Requests still running fail with `URLError(.cancelled)`, and so does every request sent
    /// afterwards. A request still looking up its host name does not hold the end: libcurl
    /// (7.87 and later) leaves the lookup's thread to finish on its own; an older libcurl waits
    /// for the lookup. Without it the transport ends when its last copy goes away, and its thread
    /// finishes a moment later on its own; a tool or server that is about to exit should call it
    /// first, so that no TLS connection is still being closed while the process's exit-time
    /// cleanup frees OpenSSL. It may be called more than once and from several tasks: each call
    /// returns once the thread has ended.
    ///
    /// ```swift
    /// let transport = CurlTransport()
    /// let router = Router<MovieApi>(transport: transport)
    /// // … requests …
    /// await transport.shutdown()
    /// ```
    public func shutdown() async {
        guard let engine = owner.engine else { return }
        engine.shutdown()
        await engine.waitUntilEnded()
    }

    /// ``Configuration/maximumResponseSize``.
    public var maximumResponseSize: Int { configuration.maximumResponseSize }

    var engine: CurlEngine {
        get throws {
            guard let engine = owner.engine else {
                throw URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "libcurl could not be initialised."])
            }
            return engine
        }
    }

    /// Sends `request` with its `httpBody` and returns the response of whatever status.
    ///
    /// Cancelling the calling task stops the transfer within milliseconds and throws
    /// `URLError(.cancelled)`; a task cancelled before the call sends nothing.
    ///
    /// - Throws: `URLError` with the code Apple platforms use for the same failure
    ///   (`.cannotConnectToHost`, `.networkConnectionLost` for a body cut short,
    ///   `.badServerResponse` for an empty reply or a malformed head, `.timedOut`,
    ///   `.serverCertificateUntrusted`, `.secureConnectionFailed`, `.dataLengthExceedsMaximum`
    ///   past ``Configuration/maximumResponseSize``…); its user info names the URL as
    ///   `scheme://host:port/path` only. `RequestBuildingError` for a header that would change
    ///   the request's framing.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await sendThroughCallback(request)
    }

    /// Prepares `request` on the engine and starts `call` with it; the outcome goes to
    /// `completion`, exactly once, and the returned closure cancels.
    func start(_ request: CurlRequest, call: CurlCall, completion: @escaping Completion) -> @Sendable () -> Void {
        do {
            try checkPins(for: request)
            let engine = try engine
            let transfer = try engine.prepare(request, delegate: call)
            // The owner, and so the engine's thread, stays until the call ends.
            let owner = self.owner
            call.begin({ result in withExtendedLifetime(owner) { completion(result) } }, transfer: transfer, on: engine)
            return { call.cancel() }
        } catch {
            completion(.failure(error))
            return {}
        }
    }

    /// Starts a streamed request; its head and failures go to `call`.
    func start(_ request: CurlRequest, call: CurlStreamCall) -> @Sendable () -> Void {
        do {
            try checkPins(for: request)
            let engine = try engine
            let transfer = try engine.prepare(request, delegate: call)
            // The owner, and so the engine's thread, stays until the transfer ends.
            call.keep(owner)
            let handle = engine.start(transfer)
            call.attach(handle)
            return { handle.cancel() }
        } catch {
            call.transferDidFail(before: error)
            return {}
        }
    }

    /// Throws when a configured pin is not `sha256//` and a base64 SHA-256 digest.
    private func checkPins(for request: CurlRequest) throws {
        if let pin = configuration.pinnedPublicKeys.first(where: { !CurlTransport.isWellFormedPin($0) }) {
            throw CurlFailure.error(
                .secureConnectionFailed,
                "The pinned public key \"\(pin.prefix(60))\" is not \"sha256//\" followed by a base64 SHA-256 digest.",
                url: request.redactedURL)
        }
    }

    static func isWellFormedPin(_ pin: String) -> Bool {
        guard pin.hasPrefix("sha256//") else { return false }
        let digest = pin.dropFirst("sha256//".count)
        guard digest.count == 44, digest.hasSuffix("=") else { return false }
        return Data(base64Encoded: String(digest)).map { $0.count == 32 } ?? false
    }
}

/// Shuts the engine down when the last copy of its transport goes away. The engine's thread
/// holds the engine, not this owner, so the owner's lifetime is the transport's.
private final class EngineOwner: Sendable {
    let engine: CurlEngine?

    init(settings: CurlEngine.Settings) {
        engine = try? CurlEngine(settings: settings)
    }

    deinit {
        engine?.shutdown()
    }
}

extension CurlTransport: CallbackTransport {
    /// Starts `request` on the engine's thread without a Swift task: the router's path for a
    /// plain request.
    package func start(_ request: URLRequest, completion: @escaping Completion) -> @Sendable () -> Void {
        do {
            let curlRequest = try prepare(request)
            let call = CurlCall(target: .memory, maximumBodySize: configuration.maximumResponseSize, url: curlRequest.originalURL)
            return start(curlRequest, call: call, completion: completion)
        } catch {
            completion(.failure(error))
            return {}
        }
    }
}
