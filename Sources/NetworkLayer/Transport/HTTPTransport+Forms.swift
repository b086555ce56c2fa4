import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The four ways of using a transport's one call (`execute`), written once for every transport:
// the body collected in memory, sent from outside the request, written to a file, or handed on
// as it arrives.
extension HTTPTransport {
    /// Sends `request` and returns the body, collected in memory, with the response of whatever
    /// status.
    ///
    /// - Throws: As ``execute(_:body:progress:)``; `URLError(.dataLengthExceedsMaximum)` once the
    ///   body passes ``maximumResponseSize`` (the transfer is stopped then).
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await TransportForms.collect(execute(request, body: nil, progress: { _, _ in }), limit: maximumResponseSize)
    }

    /// Sends `request` and returns as soon as the head has arrived, with the body to read as it
    /// comes: ``execute(_:body:progress:)`` with the body in the request.
    public func stream(_ request: URLRequest) async throws -> StreamedResponse {
        try await execute(request, body: nil, progress: { _, _ in })
    }

    /// Sends `request` with `body`, reporting bytes sent, and returns the response's body
    /// collected in memory, as ``send(_:)`` does.
    public func upload(_ request: URLRequest, body: UploadBody, progress: @escaping TransferProgressHandler) async throws
        -> (Data, HTTPURLResponse)
    {
        try await TransportForms.collect(execute(request, body: body, progress: progress), limit: maximumResponseSize)
    }

    /// Sends `request` and writes a 2xx body into `file` as it arrives, reporting bytes received:
    /// appended when the status is 206 and its `Content-Range` continues the file, replacing
    /// what is there otherwise. Any other status's body is returned in memory instead, and
    /// `file` is left alone.
    ///
    /// - Throws: As ``send(_:)``; ``DownloadError`` when the file cannot be written or a 206
    ///   does not continue it.
    public func download(_ request: URLRequest, to file: URL, progress: @escaping TransferProgressHandler) async throws
        -> (Data, HTTPURLResponse)
    {
        try await TransportForms.download(
            execute(request, body: nil, progress: { _, _ in }), to: file, limit: maximumResponseSize, progress: progress)
    }
}

/// The consumer of a streamed response behind the forms above: the same ``ResponseBodySink``
/// that the package's transports feed from their own callbacks.
package enum TransportForms {
    /// The body of `streamed` read whole, at most `limit` bytes of it.
    ///
    /// - Throws: The body's error; `URLError(.dataLengthExceedsMaximum)` past `limit`, the rest
    ///   of the transfer stopped.
    package static func collect(_ streamed: StreamedResponse, limit: Int) async throws -> (Data, HTTPURLResponse) {
        try await consume(streamed, into: .memory, limit: limit, progress: { _, _ in })
    }

    /// The body of `streamed` written into `file` when its status is 2xx (see
    /// ``HTTPTransport/download(_:to:progress:)``), and read whole, at most `limit` bytes of it,
    /// otherwise.
    package static func download(
        _ streamed: StreamedResponse, to file: URL, limit: Int, progress: TransferProgressHandler
    ) async throws -> (Data, HTTPURLResponse) {
        try await consume(streamed, into: .file(file), limit: limit, progress: progress)
    }

    private static func consume(
        _ streamed: StreamedResponse, into target: ResponseBodySink.Target, limit: Int, progress: TransferProgressHandler
    ) async throws -> (Data, HTTPURLResponse) {
        var sink = ResponseBodySink(target: target, maximumBodySize: limit)
        do {
            try sink.begin(streamed.response)
            // Leaving the loop early drops the iterator, which stops the transfer.
            for try await chunk in streamed.body {
                if let (received, expected) = try sink.take(chunk) { progress(received, expected) }
            }
        } catch {
            sink.close()
            throw error
        }
        return (sink.finish().body, streamed.response)
    }
}
