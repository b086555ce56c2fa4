import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `send`, `upload` or `download` of ``CurlTransport``, over the engine's events. It collects
/// the body (or writes a download's 2xx body to its file), reports progress, and calls its
/// completion exactly once: at completion, or at once on cancellation.
///
/// `@unchecked Sendable`: every mutable field is used with `lock` held. The lock is recursive
/// and held while progress is reported, so that once ``cancel()`` returns nothing more is
/// reported or written, even when a progress handler itself cancels.
final class CurlCall: CurlTransferDelegate, @unchecked Sendable {
    enum Sink {
        /// Keep the body in memory.
        case memory
        /// Write a 2xx body to this file (appended for a 206 that continues it); keep any other
        /// in memory.
        case file(URL)
    }

    private let lock = NSRecursiveLock()
    private let sink: Sink
    private let maximumBodySize: Int
    /// The request's URL, reduced to `scheme://host:port/path` only when an error needs it.
    private let url: URL
    private var redactedURL: URL? { CurlRequest.redacted(url) }
    private let receiveProgress: TransferProgressHandler?
    private let sendProgress: TransferProgressHandler?
    private var completion: CallbackTransport.Completion?
    private var handle: CurlTransferHandle?
    private var isStopped = false
    private var response: HTTPURLResponse?
    private var body = Data()
    private var file: FileHandle?
    private var received: Int64 = 0
    private var expected: Int64?
    /// A failure of ours (the file, the size limit) that replaces the engine's "cancelled".
    private var failure: (any Error)?

    init(
        sink: Sink, maximumBodySize: Int, url: URL,
        sendProgress: TransferProgressHandler? = nil, receiveProgress: TransferProgressHandler? = nil
    ) {
        self.sink = sink
        self.maximumBodySize = maximumBodySize
        self.url = url
        self.sendProgress = sendProgress
        self.receiveProgress = receiveProgress
    }

    /// Starts `transfer` on `engine`, unless the call was cancelled before; `completion` receives
    /// the outcome.
    func begin(_ completion: @escaping CallbackTransport.Completion, transfer: CurlEasyTransfer, on engine: CurlEngine) {
        lock.lock()
        guard !isStopped else {
            lock.unlock()
            completion(.failure(cancellationError()))
            return
        }
        self.completion = completion
        handle = engine.start(transfer)
        lock.unlock()
    }

    /// Stops the call: its completion gets `URLError(.cancelled)` now, the engine stops the
    /// transfer, and nothing is reported or written from here on.
    func cancel() {
        lock.lock()
        isStopped = true
        closeFile()
        let completion = self.completion
        self.completion = nil
        let handle = self.handle
        lock.unlock()
        handle?.cancel()
        completion?(.failure(cancellationError()))
    }

    private func cancellationError() -> URLError {
        CurlFailure.error(.cancelled, "The request was cancelled.", url: redactedURL)
    }

    private func closeFile() {
        try? file?.close()
        file = nil
    }

    // MARK: Engine events, on the engine's thread

    func transferDidReceive(head: HTTPURLResponse) -> CurlDisposition {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped else { return .abort }
        response = head
        guard case .file(let url) = sink, (200..<300).contains(head.statusCode) else { return .proceed }
        do {
            let opened = try DownloadFile.open(url, for: head)
            file = opened.handle
            received = opened.offset
            expected = opened.total
            return .proceed
        } catch {
            failure = error
            return .abort
        }
    }

    func transferDidReceive(body chunk: UnsafeRawBufferPointer) -> CurlDisposition {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped else { return .abort }
        if let file, case .file(let url) = sink {
            do {
                try DownloadFile.write(chunk, to: file, at: url)
            } catch {
                failure = error
                return .abort
            }
            received += Int64(chunk.count)
            receiveProgress?(received, expected)
            return .proceed
        }
        guard !ResponseSizeLimit.isExceeded(holding: body.count, adding: chunk.count, limit: maximumBodySize) else {
            failure = ResponseSizeLimit.error(limit: maximumBodySize)
            body = Data()
            return .abort
        }
        body.append(contentsOf: chunk)
        return .proceed
    }

    func transferDidSend(_ sent: Int64, of total: Int64) {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped else { return }
        sendProgress?(sent, total)
    }

    func transferDidComplete(error: URLError?) {
        lock.lock()
        closeFile()
        isStopped = true
        let completion = self.completion
        self.completion = nil
        let (failure, response, body) = (self.failure, self.response, self.body)
        lock.unlock()
        guard let completion else { return }
        if let failure {
            completion(.failure(failure))
        } else if let error {
            completion(.failure(error))
        } else if let response {
            completion(.success((body, response)))
        } else {
            completion(.failure(CurlFailure.error(.badServerResponse, "The server sent no response.", url: redactedURL)))
        }
    }
}
