import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request driven by ``SessionDelegate`` (a body kept in memory, an upload or a download):
/// collects the response, writes a download's 2xx body to its file as it arrives, reports
/// progress, and hands the outcome to its completion exactly once. A body kept in memory that
/// passes its limit ends the call at once (``ResponseSizeLimit``).
final class SessionTaskCall: SessionTaskHandler, @unchecked Sendable {
    /// Where the response body goes.
    enum BodyTarget {
        /// Kept in memory (an upload's response).
        case memory
        /// A 2xx body written to this file (appended for a 206); any other kept in memory.
        case file(URL)
    }

    private let target: BodyTarget
    private let progress: TransferProgressHandler
    /// The largest body kept in memory, in bytes.
    private let maximumBodySize: Int
    /// The request's method: a `HEAD` response has no body to count.
    private let method: String?
    /// The body of a streamed upload, opened anew each time libcurl asks for it.
    let upload: StreamedUpload?

    /// What the callbacks change. Delegate callbacks of one task arrive in order, but the
    /// completion is set from the calling thread and the call may be stopped from any.
    private struct State {
        var completion: (@Sendable (Result<(Data, HTTPURLResponse), any Error>) -> Void)?
        /// Cancelled when the body kept in memory passes ``maximumBodySize``, or a write to the
        /// download's file fails.
        var task: URLSessionTask?
        var response: HTTPURLResponse?
        var body = Data()
        var file: FileHandle?
        var didOpenFile = false
        var fileFailure: (any Error)?
        var received: Int64 = 0
        /// Where this response's body starts in the file: a resumed download appends.
        var fileStart: Int64 = 0
        var expected: Int64?
        var stopped = false

        /// Ends the call: nothing more is written or kept; returns who still waits for the outcome.
        mutating func stop() -> (@Sendable (Result<(Data, HTTPURLResponse), any Error>) -> Void)? {
            stopped = true
            try? file?.close()
            file = nil
            body = Data()
            task = nil
            let waiting = completion
            completion = nil
            return waiting
        }
    }

    private let state = Locked(State())

    init(
        target: BodyTarget, method: String?, maximumBodySize: Int, progress: @escaping TransferProgressHandler,
        upload: StreamedUpload? = nil
    ) {
        self.target = target
        self.method = method
        self.maximumBodySize = maximumBodySize
        self.progress = progress
        self.upload = upload
    }

    /// Sets what receives the outcome, and the task it belongs to (stopped when the body passes
    /// its limit or the download's file cannot be written); before the task is resumed, so
    /// before any callback.
    func start(_ completion: @escaping @Sendable (Result<(Data, HTTPURLResponse), any Error>) -> Void, task: URLSessionTask) {
        state.withLock { state in
            state.completion = completion
            state.task = task
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
        state.withLock { state in
            guard let http = response as? HTTPURLResponse, !state.stopped else { return }
            state.response = http
            guard case .file(let url) = target, (200..<300).contains(http.statusCode) else { return }
            do {
                let opened = try DownloadFile.open(url, for: http)
                state.file = opened.handle
                state.didOpenFile = true
                state.received = opened.offset
                state.fileStart = opened.offset
                state.expected = opened.total
            } catch {
                state.fileFailure = error
            }
        }
    }

    /// What a chunk leads to, done once the lock is released.
    private enum AfterChunk {
        case nothing
        case progress(Int64, Int64?)
        /// The download's file could not be written: the transfer ends with that error.
        case cancel(URLSessionTask?)
        /// The body kept in memory passed its limit.
        case tooLarge(URLSessionTask?)
    }

    func didReceive(_ data: Data) {
        let after = state.withLock { state -> AfterChunk in
            if state.stopped { return .nothing }
            if let file = state.file, case .file(let url) = target {
                do {
                    try DownloadFile.write(data, to: file, at: url)
                } catch {
                    // A full disk or a file-size limit: the transfer ends now with this error, and
                    // what follows is not buffered instead.
                    state.fileFailure = error
                    try? file.close()
                    state.file = nil
                    state.stopped = true
                    return .cancel(state.task)
                }
                state.received += Int64(data.count)
                return .progress(state.received, state.expected)
            }
            // The download's file could not be opened: the body is dropped, not buffered, and
            // the transfer fails with that error at its end.
            guard state.fileFailure == nil else { return .nothing }
            guard !ResponseSizeLimit.isExceeded(holding: state.body.count, adding: data.count, limit: maximumBodySize) else {
                return .tooLarge(state.task)
            }
            state.body.append(data)
            return .nothing
        }
        switch after {
        case .nothing:
            break
        case .progress(let done, let total):
            progress(done, total)
        case .cancel(let task):
            task?.cancelWithoutWaiting()
        case .tooLarge(let task):
            end(with: ResponseSizeLimit.error(limit: maximumBodySize))
            task?.cancelWithoutWaiting()
        }
    }

    func complete(error: (any Error)?, challengeResponse: HTTPURLResponse?) {
        let (completion, response, body, fileFailure, bodyBytes) = state.withLock { state in
            let completion = state.completion
            state.completion = nil
            try? state.file?.close()
            state.file = nil
            state.task = nil
            let bodyBytes = state.didOpenFile ? state.received - state.fileStart : Int64(state.body.count)
            return (completion, state.response, state.body, state.fileFailure, bodyBytes)
        }
        guard let completion else { return }
        if let fileFailure {
            completion(.failure(fileFailure))
            return
        }
        completion(
            TaskOutcome.result(
                body: body, response: response, error: error, challenge: challengeResponse, method: method,
                bodyBytes: bodyBytes))
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
