import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `send`, `upload` or `download` of ``CurlTransport``, over the engine's events. It hands the
/// body to a `ResponseBodySink` (which keeps it, or writes a download's 2xx body to its file),
/// reports progress, and calls its completion exactly once: at completion, or at once on
/// cancellation.
///
/// `@unchecked Sendable`: every mutable field is used with `lock` held. The lock is recursive
/// and held while progress is reported, so that once ``cancel()`` returns nothing more is
/// reported or written, even when a progress handler itself cancels.
final class CurlCall: CurlTransferDelegate, @unchecked Sendable {
    private let lock = NSRecursiveLock()
    /// The request's URL, reduced to `scheme://host:port/path` only when an error needs it.
    private let url: URL
    private var redactedURL: URL? { CurlRequest.redacted(url) }
    private let receiveProgress: TransferProgressHandler?
    private let sendProgress: TransferProgressHandler?
    private var completion: CallbackTransport.Completion?
    private var handle: CurlTransferHandle?
    private var isStopped = false
    private var response: ResponseHead?
    /// The body's rules, shared with URLSessionTransport; its failure (the file, the size limit)
    /// replaces the engine's "cancelled".
    private var sink: ResponseBodySink

    init(
        target: ResponseBodySink.Target, maximumBodySize: Int, url: URL,
        sendProgress: TransferProgressHandler? = nil, receiveProgress: TransferProgressHandler? = nil
    ) {
        sink = ResponseBodySink(target: target, maximumBodySize: maximumBodySize)
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
        sink.close()
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

    // MARK: Engine events, on the engine's thread

    func transferDidReceive(head: ResponseHead) -> CurlDisposition {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped else { return .abort }
        response = head
        do {
            try sink.begin(head)
            return .proceed
        } catch {
            return .abort
        }
    }

    func transferDidReceive(body chunk: UnsafeRawBufferPointer) -> CurlDisposition {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped else { return .abort }
        do {
            if let (received, expected) = try sink.take(chunk) {
                receiveProgress?(received, expected)
            }
            return .proceed
        } catch {
            return .abort
        }
    }

    func transferDidSend(_ sent: Int64, of total: Int64) {
        lock.lock()
        defer { lock.unlock() }
        guard !isStopped else { return }
        sendProgress?(sent, total)
    }

    func transferDidComplete(error: URLError?) {
        lock.lock()
        isStopped = true
        let completion = self.completion
        self.completion = nil
        let (failure, response) = (sink.failure, self.response)
        let body = sink.finish().body
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
