import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkLayer

/// What the receiver of a body chunk or a head wants the engine to do next.
enum CurlDisposition: Sendable {
    /// Keep going.
    case proceed
    /// Stop delivering body chunks until ``CurlTransferHandle/resumeReceiving()`` (back-pressure):
    /// libcurl keeps this chunk and delivers it again on resumption, and reads no more from the
    /// connection meanwhile. A paused transfer is not subject to its idle timeout.
    case pause
    /// Keep this chunk, and deliver none after it until ``CurlTransferHandle/resumeReceiving()``:
    /// back-pressure for a receiver that has already taken the chunk. The pause takes effect
    /// before the callback returns, on the engine's thread, so a resumption asked for at any
    /// later moment, from any thread, always comes after it. A pause sent as a command instead
    /// could reach the engine after the reader's resumption and leave the transfer paused for
    /// ever (a paused transfer has no idle timeout).
    case takeAndPause
    /// Stop the transfer; it completes with `URLError(.cancelled)` and the receiver reports its
    /// own reason.
    case abort
}

/// Receives the events of one transfer, in order, on the engine's thread: at most one final
/// response head, then body chunks, with upload progress before and between them, then a
/// completion, exactly once, after which nothing else arrives.
///
/// Every method runs on the one thread that drives all the transport's transfers: it must return
/// quickly and never wait for another transfer.
protocol CurlTransferDelegate: AnyObject, Sendable {
    /// The final response's head (interim `1xx` heads are skipped).
    func transferDidReceive(head: ResponseHead) -> CurlDisposition

    /// The next piece of the body. The bytes are valid during this call only.
    func transferDidReceive(body: UnsafeRawBufferPointer) -> CurlDisposition

    /// Bytes of the request body handed to the connection so far, and the body's size.
    func transferDidSend(_ sent: Int64, of total: Int64)

    /// The end: `nil` when the whole response arrived, the failure otherwise
    /// (`URLError(.cancelled)` after ``CurlTransferHandle/cancel()`` or ``CurlDisposition/abort``).
    func transferDidComplete(error: URLError?)
}

/// Controls one transfer of a ``CurlEngine`` from any thread.
struct CurlTransferHandle: Sendable {
    let engine: CurlEngine
    let id: UInt64

    /// Stops the transfer; its delegate's completion follows with `URLError(.cancelled)` unless it
    /// had already completed. Does nothing after completion.
    func cancel() {
        engine.send(.cancel(id))
    }

    /// Delivers body chunks again after ``CurlDisposition/pause`` or ``CurlDisposition/takeAndPause``.
    func resumeReceiving() {
        engine.send(.resume(id))
    }
}
