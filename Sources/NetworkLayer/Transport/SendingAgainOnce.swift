import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request on a session that ``URLSessionTransport`` owns, started again on a new task when
/// FoundationNetworking cannot send its in-memory body a second time.
///
/// When a kept-alive connection turns out closed before any answer (a server's keep-alive timer
/// fired as the request arrived), libcurl sends the request again on a new connection and asks
/// for the body from its start. FoundationNetworking can give it only for a streamed body; an
/// in-memory one (`httpBody`, an upload of `Data`, a file small enough to be sent with its
/// length) would go without it, and client and server would both wait for ever. The delegate
/// stops such a task at once (``SessionDelegate``), and this starts the request anew, once, as
/// libcurl would have: nothing of it was answered, and `CurlTransport` sends it again the same
/// way. A second such failure ends the request with ``URLError/bodyNotSentAgain``.
final class SendingAgainOnce: Sendable {
    private enum State {
        /// The task running now, by what stops it.
        case running(@Sendable () -> Void)
        case stopped
    }

    private let state = Locked<State>(.running({}))
    private let delegate: SessionDelegate
    private let make: @Sendable () -> (call: SessionTaskCall, task: @Sendable () -> URLSessionTask)
    private let completion: URLSessionTransport.Completion

    /// Starts the request at once; `make` returns a new call for it, and what makes its task
    /// (on the delegate's queue, ``SessionDelegate/launch(_:making:)``).
    init(
        delegate: SessionDelegate, completion: @escaping URLSessionTransport.Completion,
        make: @escaping @Sendable () -> (call: SessionTaskCall, task: @Sendable () -> URLSessionTask)
    ) {
        self.delegate = delegate
        self.make = make
        self.completion = completion
        attempt(isLast: false)
    }

    /// Stops whichever task is running; the completion receives `URLError(.cancelled)`.
    func stop() {
        let stopRunning = state.withLock { state -> (@Sendable () -> Void)? in
            guard case .running(let stop) = state else { return nil }
            state = .stopped
            return stop
        }
        stopRunning?()
    }

    private func attempt(isLast: Bool) {
        let (call, makeTask) = make()
        let delivered: URLSessionTransport.Completion = { [self] result in
            guard case .failure(let error) = result, URLError.isBodyNotSentAgain(error), !isLast else {
                completion(result)
                return
            }
            let stopped = state.withLock { state in
                if case .stopped = state { return true }
                return false
            }
            if stopped {
                completion(.failure(URLError(.cancelled)))
            } else {
                attempt(isLast: true)
            }
        }
        call.start(delivered)
        let stopTask = delegate.launch(call, making: makeTask)
        let stoppedMeanwhile = state.withLock { state -> Bool in
            guard case .running = state else { return true }
            state = .running(stopTask)
            return false
        }
        if stoppedMeanwhile { stopTask() }
    }
}

extension URLError {
    private static let bodyNotSentAgainKey = "NetworkLayerBodyNotSentAgain"

    /// A kept-alive connection closed before answering, and FoundationNetworking could not send
    /// the request's in-memory body again on a new one (`.networkConnectionLost`).
    static var bodyNotSentAgain: URLError {
        URLError(
            .networkConnectionLost,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "The server closed the connection before answering, and the request body could not be sent again.",
                bodyNotSentAgainKey: true,
            ])
    }

    static func isBodyNotSentAgain(_ error: any Error) -> Bool {
        (error as? URLError)?.userInfo[bodyNotSentAgainKey] != nil
    }
}
