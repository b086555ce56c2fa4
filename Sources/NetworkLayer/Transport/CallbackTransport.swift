import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport of the package's own, which the router uses directly rather than through the forms
/// over ``HTTPTransport/execute(_:body:progress:)``: it starts a request without a Swift task
/// and reports through a callback, and it may upload and download without a stream in between.
///
/// The router sends a plain request (no plugin, retry, or other stage configured, and a body in
/// memory) through ``start(_:completion:)``, from the caller's thread to the transfer and from the
/// transport's callback to the delivery, with no task hop in between. Uploads and downloads go
/// through ``upload(_:body:progress:)`` and ``download(_:to:progress:)``, which
/// ``URLSessionTransport`` and the libcurl transport implement from their own callbacks:
/// FoundationNetworking cannot pause a transfer, so a download read through a ``BodyStream`` by
/// a disk slower than the network would fail where one written from the delegate does not. A
/// transport that does not implement them (``StubTransport``) has the forms over `execute`.
/// `package`, because the contract is the router's business, not a user's.
package protocol CallbackTransport: HTTPTransport {
    /// Receives the outcome of ``start(_:completion:)``.
    typealias Completion = @Sendable (Result<(Data, ResponseHead), any Error>) -> Void

    /// Starts `request`, and returns what cancels it. `completion` runs exactly once, on any
    /// thread, also after a cancellation (then with `URLError(.cancelled)`), and never before
    /// this method has returned unless the outcome is known at once.
    func start(_ request: URLRequest, completion: @escaping Completion) -> @Sendable () -> Void

    /// As ``HTTPTransport/upload(_:body:progress:)``.
    func upload(_ request: URLRequest, body: UploadBody, progress: @escaping TransferProgressHandler) async throws
        -> (Data, HTTPURLResponse)

    /// As ``HTTPTransport/download(_:to:progress:)``.
    func download(_ request: URLRequest, to file: URL, progress: @escaping TransferProgressHandler) async throws
        -> (Data, HTTPURLResponse)
}

extension CallbackTransport {
    /// ``HTTPTransport/send(_:)`` over ``start(_:completion:)``, through the one bridge.
    ///
    /// - Throws: `URLError.cancelledBeforeSending` at once, with nothing started, when the
    ///   calling task is already cancelled.
    package func sendThroughCallback(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, head) = try await sendKeepingHead(request)
        return (data, head.httpResponse)
    }

    /// As ``sendThroughCallback(_:)``, with the head as the transport gave it: the router's
    /// path, which makes an `HTTPURLResponse` only if someone asks for one (``ResponseHead``).
    package func sendKeepingHead(_ request: URLRequest) async throws -> (Data, ResponseHead) {
        guard !Task.isCancelled else { throw URLError.cancelledBeforeSending }
        return try await awaitCallback { start(request, completion: $0) }.get()
    }

    /// ``HTTPTransport/execute(_:body:progress:)`` over ``start(_:completion:)``: see
    /// ``executeWhole(_:body:progress:)``. The package's transports stream instead; this serves
    /// a callback transport that does not (a test's).
    public func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws
        -> StreamedResponse
    {
        try await executeWhole(request, body: body, progress: progress)
    }

    /// The body put in the request, the response received whole and handed over as one chunk;
    /// a `body`'s bytes are reported sent once the response has come.
    package func executeWhole(_ request: URLRequest, body: UploadBody?, progress: TransferProgressHandler) async throws
        -> StreamedResponse
    {
        var request = request
        if let body { request.httpBody = try body.bytes() }
        let (data, response) = try await sendThroughCallback(request)
        let sent = Int64(request.httpBody?.count ?? 0)
        if body != nil { progress(sent, sent) }
        return StreamedResponse(response: response, body: BodyStream(data))
    }
}

extension URLError {
    /// What a transport throws for a task that was cancelled before it asked to send, without
    /// starting anything: a transfer started and stopped at once can still put the request on
    /// the wire (CurlTransport's thread did, under AddressSanitizer).
    package static var cancelledBeforeSending: URLError {
        URLError(.cancelled, userInfo: [NSLocalizedDescriptionKey: "The request was cancelled before it was sent."])
    }
}
