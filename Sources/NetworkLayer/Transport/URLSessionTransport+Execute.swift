import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// Sends `request` (with `body`, as ``upload(_:body:progress:)`` sends it) with a
    /// delegate-driven task and returns when the head has arrived; the body's chunks go to the
    /// stream as Foundation delivers them.
    ///
    /// FoundationNetworking cannot pause a transfer: a reader that falls
    /// ``BodyStream/hardLimit`` bytes behind fails the stream with
    /// ``StreamError/consumerTooSlow(bufferedBytes:)``. With a session of your own
    /// (``init(session:)``) the body is received whole first, and a `body` is sent from memory.
    public func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws
        -> StreamedResponse
    {
        let request = try readyForFoundation(request, body: body)
        guard let (session, delegate) = ownedTransferSession else {
            return try await executeWhole(request, body: body, progress: progress)
        }
        guard !Task.isCancelled else { throw URLError.cancelledBeforeSending }
        let source = try body.map(UploadSource.init)
        let call = StreamTaskCall(method: request.httpMethod, progress: progress, upload: source?.streamed)
        // Made, resumed and cancelled off the caller's thread (`SessionDelegate.launch`). The
        // buffer takes nothing more from the moment it is cancelled, so the reader is free at once.
        let makeTask = keepingSessions { source?.task(for: request, on: session) ?? session.dataTask(with: request) }
        let head = try await awaitCallback { deliver in
            call.start(deliver)
            let stop = delegate.launch(call, making: makeTask)
            call.buffer.connect(onResume: {}, onCancel: stop)
            return stop
        }.get()
        return StreamedResponse(response: head, body: BodyStream(call.buffer))
    }
}
