import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The tests' own minimal streaming client, standing in for the router's until it has one: a
/// URLSession data task whose response head comes first and whose body comes as the chunks
/// Foundation delivers them.
///
/// Cancelling the consumer of `chunks` (or finishing it) cancels the task and invalidates the
/// session. The session's delegate queue is serial, as Foundation needs on Linux (DESIGN.md).
enum StreamingClient {
    static func open(_ request: URLRequest) async throws -> (HTTPURLResponse, AsyncThrowingStream<Data, any Error>) {
        let (chunks, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let delegate = Delegate(chunks: continuation)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: queue)
        let task = session.dataTask(with: request)
        continuation.onTermination = { _ in
            task.cancel()
            session.finishTasksAndInvalidate()
        }
        let response = try await withCheckedThrowingContinuation { head in
            delegate.waitForHead(head)
            task.resume()
        }
        return (response, chunks)
    }

    static func open(_ url: URL, headers: [String: String] = [:]) async throws -> (HTTPURLResponse, AsyncThrowingStream<Data, any Error>) {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await open(request)
    }

    /// `@unchecked Sendable`: `head` is only touched under `lock`; `chunks` is Sendable.
    private final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var head: CheckedContinuation<HTTPURLResponse, any Error>?
        private let chunks: AsyncThrowingStream<Data, any Error>.Continuation

        init(chunks: AsyncThrowingStream<Data, any Error>.Continuation) {
            self.chunks = chunks
        }

        func waitForHead(_ continuation: CheckedContinuation<HTTPURLResponse, any Error>) {
            lock.withLock { head = continuation }
        }

        private func takeHead() -> CheckedContinuation<HTTPURLResponse, any Error>? {
            lock.withLock {
                defer { head = nil }
                return head
            }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            if let response = response as? HTTPURLResponse {
                takeHead()?.resume(returning: response)
            } else {
                takeHead()?.resume(throwing: URLError(.badServerResponse))
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            chunks.yield(data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            takeHead()?.resume(throwing: error ?? URLError(.badServerResponse))
            if let error {
                chunks.finish(throwing: error)
            } else {
                chunks.finish()
            }
        }
    }
}
