import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One streamed response driven by ``SessionDelegate``: reports the request body sent, hands
/// over the head when it arrives and writes each chunk into the stream's buffer as it comes.
///
/// FoundationNetworking cannot pause a transfer (`suspend()` starts the request over on resume),
/// so the buffer is told the writer cannot pause: a consumer that falls ``BodyStream/hardLimit``
/// bytes behind fails the stream instead of growing the process without bound.
///
final class StreamTaskCall: SessionTaskHandler, Sendable {
    private let method: String?
    let buffer = BodyBuffer(canPause: false)

    private struct State {
        var head: (@Sendable (Result<HTTPURLResponse, any Error>) -> Void)?
        var response: HTTPURLResponse?
        var received: Int64 = 0
        /// Set when libcurl asked for the request's in-memory body again: the cancellation that
        /// follows is reported as ``URLError/bodyNotSentAgain``.
        var bodyNotSentAgain = false
        var stopped = false
    }

    private let state = Locked(State())

    /// Receives the bytes of the request body sent.
    private let progress: TransferProgressHandler
    /// The body of a streamed upload, opened anew each time libcurl asks for it.
    let upload: StreamedUpload?

    init(method: String?, progress: @escaping TransferProgressHandler = { _, _ in }, upload: StreamedUpload? = nil) {
        self.method = method
        self.progress = progress
        self.upload = upload
    }

    /// Sets what receives the head (or the failure before it); before the task is resumed.
    func start(_ head: @escaping @Sendable (Result<HTTPURLResponse, any Error>) -> Void) {
        state.withLock { $0.head = head }
    }

    /// Ends the wait for the head with `URLError(.cancelled)`, at once: the task may not be made
    /// yet, or its start may wait for Foundation's work queue.
    func stop() {
        let head = state.withLock { state in
            state.stopped = true
            defer { state.head = nil }
            return state.head
        }
        head?(.failure(URLError(.cancelled)))
    }

    func answerRedirect(_ answer: () -> Void) {
        state.withLock { state in
            if !state.stopped { answer() }
        }
    }

    /// Whether ``stop()`` was called.
    var isStopped: Bool {
        state.withLock { $0.stopped }
    }

    /// Nothing to keep: the stream's buffer cancels the task through what
    /// ``SessionDelegate/launch(_:making:)`` returned.
    func attach(_ task: URLSessionTask) {}

    func didSend(_ sent: Int64, of total: Int64?) {
        // A streamed body's length is unknown to Foundation, not to us.
        progress(sent, total ?? upload?.size)
    }

    func bodyCannotBeSentAgain() {
        state.withLock { $0.bodyNotSentAgain = true }
    }

    func didReceive(_ response: URLResponse) {
        // An interim response (103 Early Hints) is not the head: the final one follows it.
        if let http = response as? HTTPURLResponse, (100..<200).contains(http.statusCode) { return }
        let head = state.withLock { state in
            state.response = response as? HTTPURLResponse
            let head = state.head
            state.head = nil
            return head
        }
        guard let http = response as? HTTPURLResponse else {
            head?(.failure(URLError(.badServerResponse)))
            return
        }
        head?(.success(http))
    }

    var hasFinalHead: Bool {
        state.withLock { $0.response != nil }
    }

    func didReceive(_ data: Data) {
        state.withLock { $0.received += Int64(data.count) }
        _ = buffer.write(data)
    }

    func complete(error: (any Error)?, challengeResponse: HTTPURLResponse?) {
        let (head, response, received, error) = state.withLock { state in
            let head = state.head
            state.head = nil
            return (head, state.response, state.received, state.bodyNotSentAgain ? URLError.bodyNotSentAgain : error)
        }
        // Before the head: the whole outcome is this error, or a challenged 401 with no body.
        if let head {
            let outcome = TaskOutcome.result(
                body: Data(), response: response, error: error, challenge: challengeResponse, method: method, bodyBytes: 0)
            head(outcome.map(\.1.httpResponse))
            buffer.finish(throwing: nil)
            return
        }
        // After the head, a challenge's cancellation ends the 401's body; it is not a cancelled
        // request (the stream failed with `URLError(.cancelled)` before).
        let outcome = TaskOutcome.result(
            body: Data(), response: response, error: error, challenge: challengeResponse, method: method, bodyBytes: received)
        switch outcome {
        case .success: buffer.finish(throwing: nil)
        case .failure(let failure): buffer.finish(throwing: failure)
        }
    }
}
