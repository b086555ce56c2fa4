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

    // Every mutable property is guarded by `lock`; delegate callbacks of one task arrive in
    // order, but the completion is set from the calling thread.
    private let lock = NSLock()
    private let target: BodyTarget
    private let progress: TransferProgressHandler
    private var completion: (@Sendable (Result<(Data, HTTPURLResponse), any Error>) -> Void)?
    private var response: HTTPURLResponse?
    private var body = Data()
    private var file: FileHandle?
    private var fileFailure: (any Error)?
    private var received: Int64 = 0
    /// Where this response's body starts in the file: a resumed download appends.
    private var fileStart: Int64 = 0
    private var expected: Int64?
    private var stopped = false
    /// The largest body kept in memory, in bytes.
    private let maximumBodySize: Int
    /// Cancelled when the body kept in memory passes ``maximumBodySize``, or a write to the
    /// download's file fails.
    private var task: URLSessionTask?

    /// The request's method: a `HEAD` response has no body to count.
    private let method: String?
    private var didOpenFile = false
    /// The body of a streamed upload, opened anew each time libcurl asks for it.
    let upload: StreamedUpload?

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
        lock.lock()
        self.completion = completion
        self.task = task
        lock.unlock()
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
        lock.lock()
        stopped = true
        try? file?.close()
        file = nil
        body = Data()
        let completion = self.completion
        self.completion = nil
        task = nil
        lock.unlock()
        completion?(.failure(error))
    }

    func bodyCannotBeSentAgain() {
        end(with: URLError.bodyNotSentAgain)
    }

    func didSend(_ sent: Int64, of total: Int64?) {
        // A streamed body's length is unknown to Foundation, not to us.
        progress(sent, total ?? upload?.size)
    }

    func didReceive(_ response: URLResponse) {
        lock.lock()
        defer { lock.unlock() }
        guard let http = response as? HTTPURLResponse, !stopped else { return }
        self.response = http
        guard case .file(let url) = target, (200..<300).contains(http.statusCode) else { return }
        do {
            let opened = try DownloadFile.open(url, for: http)
            file = opened.handle
            didOpenFile = true
            received = opened.offset
            fileStart = opened.offset
            expected = opened.total
        } catch {
            fileFailure = error
        }
    }

    func didReceive(_ data: Data) {
        lock.lock()
        if stopped {
            lock.unlock()
        } else if let file, case .file(let url) = target {
            do {
                try DownloadFile.write(data, to: file, at: url)
            } catch {
                // A full disk or a file-size limit: the transfer ends now with this error, and
                // what follows is not buffered instead.
                fileFailure = error
                try? file.close()
                self.file = nil
                stopped = true
                let task = self.task
                lock.unlock()
                task?.cancelWithoutWaiting()
                return
            }
            received += Int64(data.count)
            let (done, total) = (received, expected)
            lock.unlock()
            progress(done, total)
        } else if fileFailure == nil {
            guard !ResponseSizeLimit.isExceeded(holding: body.count, adding: data.count, limit: maximumBodySize) else {
                let task = self.task
                lock.unlock()
                end(with: ResponseSizeLimit.error(limit: maximumBodySize))
                task?.cancelWithoutWaiting()
                return
            }
            body.append(data)
            lock.unlock()
        } else {
            // The download's file could not be opened: the body is dropped, not buffered, and
            // the transfer fails with that error at its end.
            lock.unlock()
        }
    }

    func complete(error: (any Error)?, challengeResponse: HTTPURLResponse?) {
        lock.lock()
        let completion = self.completion
        self.completion = nil
        try? file?.close()
        file = nil
        let (response, body, fileFailure) = (self.response, self.body, self.fileFailure)
        let bodyBytes = didOpenFile ? received - fileStart : Int64(body.count)
        task = nil
        lock.unlock()
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
