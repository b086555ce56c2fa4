import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One streamed response driven by ``SessionDelegate``: hands over the head when it arrives and
/// writes each chunk into the stream's buffer as it comes.
///
/// FoundationNetworking cannot pause a transfer (`suspend()` starts the request over on resume),
/// so the buffer is told the writer cannot pause: a consumer that falls ``BodyStream/hardLimit``
/// bytes behind fails the stream instead of growing the process without bound.
///
/// `@unchecked Sendable`: every mutable property is used with `lock` held.
final class StreamTaskCall: SessionTaskHandler, @unchecked Sendable {
    private let lock = NSLock()
    private let method: String?
    let buffer = BodyBuffer(canPause: false)
    private var head: (@Sendable (Result<HTTPURLResponse, any Error>) -> Void)?
    private var response: HTTPURLResponse?
    private var received: Int64 = 0
    /// Set when libcurl asked for the request's in-memory body again: the cancellation that
    /// follows is reported as ``URLError/bodyNotSentAgain``.
    private var bodyNotSentAgain = false

    var upload: StreamedUpload? { nil }

    init(method: String?) {
        self.method = method
    }

    /// Sets what receives the head (or the failure before it); before the task is resumed.
    func start(_ head: @escaping @Sendable (Result<HTTPURLResponse, any Error>) -> Void) {
        lock.lock()
        self.head = head
        lock.unlock()
    }

    func didSend(_ sent: Int64, of total: Int64?) {}

    func bodyCannotBeSentAgain() {
        lock.lock()
        bodyNotSentAgain = true
        lock.unlock()
    }

    func didReceive(_ response: URLResponse) {
        lock.lock()
        let head = self.head
        self.head = nil
        self.response = response as? HTTPURLResponse
        lock.unlock()
        guard let http = response as? HTTPURLResponse else {
            head?(.failure(URLError(.badServerResponse)))
            return
        }
        head?(.success(http))
    }

    func didReceive(_ data: Data) {
        lock.lock()
        received += Int64(data.count)
        lock.unlock()
        _ = buffer.write(data)
    }

    func complete(error: (any Error)?, challengeResponse: HTTPURLResponse?) {
        lock.lock()
        let head = self.head
        self.head = nil
        let (response, received) = (self.response, self.received)
        let error = bodyNotSentAgain ? URLError.bodyNotSentAgain : error
        lock.unlock()
        // Before the head: the whole outcome is this error, or a challenged 401 with no body.
        if let head {
            let outcome = TaskOutcome.result(
                body: Data(), response: response, error: error, challenge: challengeResponse, method: method, bodyBytes: 0)
            head(outcome.map(\.1))
            buffer.finish(throwing: nil)
            return
        }
        let outcome = TaskOutcome.result(
            body: Data(), response: response, error: error, challenge: nil, method: method, bodyBytes: received)
        switch outcome {
        case .success: buffer.finish(throwing: nil)
        case .failure(let failure): buffer.finish(throwing: failure)
        }
    }
}
