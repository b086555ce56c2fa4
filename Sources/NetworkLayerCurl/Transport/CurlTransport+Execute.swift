import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension CurlTransport {
    /// Sends `request` (with `body`, read as it is sent, as ``upload(_:body:progress:)`` does)
    /// and returns when the head has arrived; the body's chunks go to the stream as libcurl
    /// reads them. A reader that falls behind pauses the transfer (libcurl stops reading from
    /// the socket, and the server is slowed by TCP's flow control), so memory stays bounded
    /// however slow the reader is: about `BodyStream.highWaterMark` (1 MiB) for an uncompressed
    /// body. A compressed one (libcurl asks for gzip, deflate, br and zstd) can hold more while
    /// paused: libcurl decodes the whole chunk it has read and keeps what the stream did not
    /// take, up to 64 MiB (its `curl_easy_pause` documentation, "Memory use"); a reader that
    /// stopped after one chunk of a 512 MiB gzip body held 33 MiB (measured 2026-11-26). Send
    /// `Accept-Encoding: identity` on a stream whose reader may stall for long. A stream goes
    /// over HTTP/1.1 on a connection of its own: multiplexed on an HTTP/2 connection, a paused
    /// stream kept receiving while libcurl read the connection for the other streams, up to its
    /// 32 MiB window (+32 MiB of RSS per unread stream with libcurl 7.88; measured 2026-11-26).
    ///
    /// - Throws: As ``send(_:)``; for a `body`, as ``upload(_:body:progress:)``.
    public func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws
        -> StreamedResponse
    {
        var curlRequest = try prepare(request, body: body)
        curlRequest.mayPauseForLong = true
        let call = CurlStreamCall(url: curlRequest.originalURL, sendProgress: progress)
        guard !Task.isCancelled else { throw URLError.cancelledBeforeSending }
        let head = try await awaitCallback { deliver in
            call.start(deliver)
            return start(curlRequest, call: call)
        }.get()
        return StreamedResponse(response: head, body: BodyStream(call.buffer))
    }
}

/// One streamed response of ``CurlTransport``: the bytes sent to a progress handler, the head to
/// its caller, the body into a buffer that pauses the transfer when the reader falls behind.
///
final class CurlStreamCall: CurlTransferDelegate, Sendable {
    private let url: URL
    /// Receives the bytes of the request body handed to the connection.
    private let sendProgress: TransferProgressHandler
    let buffer = BodyBuffer(canPause: true)

    private struct State {
        var head: (@Sendable (Result<HTTPURLResponse, any Error>) -> Void)?
        /// The transport's engine owner, kept until the transfer ends.
        var owner: AnyObject?

        /// Takes who waits for the head, if anyone still does.
        mutating func takeHead() -> (@Sendable (Result<HTTPURLResponse, any Error>) -> Void)? {
            let waiting = head
            head = nil
            return waiting
        }
    }

    private let state = Locked(State())

    init(url: URL, sendProgress: @escaping TransferProgressHandler = { _, _ in }) {
        self.url = url
        self.sendProgress = sendProgress
    }

    /// Sets what receives the head (or the failure before it).
    func start(_ head: @escaping @Sendable (Result<HTTPURLResponse, any Error>) -> Void) {
        state.withLock { $0.head = head }
    }

    func keep(_ owner: AnyObject) {
        state.withLock { $0.owner = owner }
    }

    /// The transfer could not start.
    func transferDidFail(before error: any Error) {
        state.withLock { $0.takeHead() }?(.failure(error))
        buffer.finish(throwing: error)
    }

    /// The transfer has started: the buffer can now pause, resume and stop it.
    func attach(_ handle: CurlTransferHandle) {
        buffer.connect(onResume: { handle.resumeReceiving() }, onCancel: { handle.cancel() })
    }

    func transferDidReceive(head: ResponseHead) -> CurlDisposition {
        let response = head.httpResponse
        state.withLock { $0.takeHead() }?(.success(response))
        return .proceed
    }

    func transferDidReceive(body chunk: UnsafeRawBufferPointer) -> CurlDisposition {
        // The chunk is taken; a pause stops what comes after it, here and now (see
        // ``CurlDisposition/takeAndPause``).
        buffer.write(Data(chunk)) == .pause ? .takeAndPause : .proceed
    }

    func transferDidSend(_ sent: Int64, of total: Int64) {
        sendProgress(sent, total)
    }

    func transferDidComplete(error: URLError?) {
        let head = state.withLock { state in
            state.owner = nil
            return state.takeHead()
        }
        if let head {
            head(.failure(error ?? URLError(.badServerResponse)))
            buffer.finish(throwing: nil)
            return
        }
        buffer.finish(throwing: error)
    }
}
