import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request driven by ``SessionDelegate`` (a body kept in memory, an upload or a download):
/// collects the response, hands its body to a ``ResponseBodySink`` (which writes a download's 2xx
/// body to its file as it arrives), reports progress, and hands the outcome to its completion
/// exactly once. A body kept in memory that passes its limit ends the call at once
/// (``ResponseSizeLimit``).
final class SessionTaskCall: SessionTaskHandler, @unchecked Sendable {
    private let progress: TransferProgressHandler
    /// The request's method: a `HEAD` response has no body to count.
    private let method: String?
    /// The body of a streamed upload, opened anew each time libcurl asks for it.
    let upload: StreamedUpload?

    /// What the callbacks change. Delegate callbacks of one task arrive in order, but the
    /// completion is set from the calling thread and the call may be stopped from any.
    private struct State {
        var completion: CallbackTransport.Completion?
        /// Cancelled when the body kept in memory passes its limit, or the download's file
        /// cannot be opened or written.
        var task: URLSessionTask?
        var response: HTTPURLResponse?
        /// Under the lock with the rest, so that a cancellation closes the file between two
        /// chunks, never during one.
        var sink: ResponseBodySink
        var stopped = false

        /// Ends the call: nothing more is written or kept; returns who still waits for the outcome.
        mutating func stop() -> CallbackTransport.Completion? {
            stopped = true
            sink.close()
            task = nil
            let waiting = completion
            completion = nil
            return waiting
        }
    }

    private let state: Locked<State>

    init(
        target: ResponseBodySink.Target, method: String?, maximumBodySize: Int, progress: @escaping TransferProgressHandler,
        upload: StreamedUpload? = nil
    ) {
        state = Locked(State(sink: ResponseBodySink(target: target, maximumBodySize: maximumBodySize)))
        self.method = method
        self.progress = progress
        self.upload = upload
    }

    /// Sets what receives the outcome; before the task is made, so that a stop before then still
    /// delivers `URLError(.cancelled)`.
    func start(_ completion: @escaping CallbackTransport.Completion) {
        state.withLock { $0.completion = completion }
    }

    /// Sets the task the call belongs to (stopped when the body passes its limit or the
    /// download's file cannot be written); before the task is resumed, so before any callback.
    func attach(_ task: URLSessionTask) {
        state.withLock { state in
            if !state.stopped { state.task = task }
        }
    }

    /// Whether the call has ended: stopped, or past a limit.
    var isStopped: Bool {
        state.withLock { $0.stopped }
    }

    func answerRedirect(_ answer: () -> Void) {
        state.withLock { state in
            if !state.stopped { answer() }
        }
    }

    /// Stops writing at once and delivers `URLError(.cancelled)`: Foundation may still deliver
    /// chunks it had queued after `cancel()`, and a download resumed right away must find the
    /// file as it was left.
    func stop() {
        end(with: URLError(.cancelled))
    }

    /// Stops the call and delivers `error` now, if nothing was delivered yet; later callbacks
    /// of the task do nothing.
    private func end(with error: any Error) {
        state.withLock { $0.stop() }?(.failure(error))
    }

    func bodyCannotBeSentAgain() {
        end(with: URLError.bodyNotSentAgain)
    }

    func didSend(_ sent: Int64, of total: Int64?) {
        // A streamed body's length is unknown to Foundation, not to us.
        progress(sent, total ?? upload?.size)
    }

    func didReceive(_ response: URLResponse) {
        let after = state.withLock { state -> FollowUp in
            guard let http = response as? HTTPURLResponse, !state.stopped else { return .nothing }
            state.response = http
            do {
                try state.sink.begin(http)
                return .nothing
            } catch {
                // The download's file cannot be opened: the task ends now with that error, as on
                // CurlTransport, rather than receiving a body it would drop.
                return .end(error, state.task)
            }
        }
        act(on: after)
    }

    var hasFinalHead: Bool {
        state.withLock { state in state.response.map { !(100..<200).contains($0.statusCode) } ?? false }
    }

    /// What a callback leads to, done once the lock is released.
    private enum FollowUp {
        case nothing
        case progress(Int64, Int64?)
        /// The download's file could not be written: the task is cancelled, and its end delivers
        /// the sink's failure.
        case cancel(URLSessionTask?)
        /// The body kept in memory passed its limit, or the file could not be opened: the call
        /// ends now with this error.
        case end(any Error, URLSessionTask?)
    }

    func didReceive(_ data: Data) {
        let after = state.withLock { state -> FollowUp in
            if state.stopped { return .nothing }
            do {
                guard let (received, expected) = try state.sink.take(data) else { return .nothing }
                return .progress(received, expected)
            } catch is DownloadError {
                // A full disk or a file-size limit: nothing more is written, and the task's end
                // delivers this error.
                state.stopped = true
                return .cancel(state.task)
            } catch {
                return .end(error, state.task)
            }
        }
        act(on: after)
    }

    /// Reports or cancels outside the lock: a progress handler or a cancellation may call back in.
    private func act(on after: FollowUp) {
        switch after {
        case .nothing:
            break
        case .progress(let done, let total):
            progress(done, total)
        case .cancel(let task):
            task?.cancelWithoutWaiting()
        case .end(let error, let task):
            end(with: error)
            task?.cancelWithoutWaiting()
        }
    }

    /// Hands the outcome over on the session's delegate queue. Handing it to a global queue
    /// instead, to free the serial delegate queue for the other tasks' callbacks, changed nothing
    /// with 16 requests in flight (`Benchmarks router`, Router / raw: 0.82 and 0.87 against 0.87
    /// and 0.84 inline, 2026-11-26), and costs a thread hop one at a time.
    func complete(error: (any Error)?, challengeResponse: HTTPURLResponse?) {
        let (completion, response, failure, finished) = state.withLock { state in
            let completion = state.completion
            state.completion = nil
            state.task = nil
            return (completion, state.response, state.sink.failure, state.sink.finish())
        }
        guard let completion else { return }
        if let failure {
            completion(.failure(failure))
            return
        }
        completion(
            TaskOutcome.result(
                body: finished.body, response: response, error: error, challenge: challengeResponse, method: method,
                bodyBytes: finished.bodyBytes))
    }
}

/// What a finished `URLSessionTask` means for the router, decided in one place for data tasks
/// with a completion handler and for delegate-driven uploads and downloads alike.
enum TaskOutcome {
    /// The body and response, or the error, of a task that finished.
    ///
    /// - Parameters:
    ///   - challenge: The 401 that ``SessionDelegate`` cancelled the authentication challenge
    ///     of; the cancellation then means that response, not a cancelled request.
    ///   - bodyBytes: The body's length as received (in memory, or written to a file), for
    ///     ``BodyFraming``.
    static func result(
        body: Data, response: URLResponse?, error: (any Error)?, challenge: HTTPURLResponse?,
        method: String?, bodyBytes: Int64
    ) -> Result<(Data, ResponseHead), any Error> {
        if let error {
            if let challenge, (error as? URLError)?.code == .cancelled { return .success((body, .made(challenge))) }
            return .failure(URLError.normalized(error))
        }
        guard let http = response as? HTTPURLResponse else { return .failure(URLError(.badServerResponse)) }
        do {
            try BodyFraming.check(http, received: bodyBytes, method: method)
            return .success((body, .made(http)))
        } catch {
            return .failure(error)
        }
    }
}

/// An upload body that FoundationNetworking reads as a stream (chunked on the wire), opened
/// from its start each time it is asked for.
struct StreamedUpload: Sendable {
    /// The body's length in bytes, for progress.
    let size: Int64
    let open: @Sendable () -> InputStream?

    init(size: Int64, open: @escaping @Sendable () -> InputStream?) {
        self.size = size
        self.open = open
    }
}
