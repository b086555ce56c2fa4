import Foundation

/// A response body read as it arrives: an `AsyncSequence` of the chunks a transport received,
/// with back-pressure.
///
/// The transport writes chunks into a buffer that holds at most about ``highWaterMark`` bytes:
/// past it, a transport that can pause (libcurl) stops reading from the socket until the
/// consumer has read the buffer down to ``lowWaterMark``, so a slow consumer slows the server
/// instead of growing the process. A transport that cannot pause (FoundationNetworking has no
/// way to) fails the stream with ``StreamError/consumerTooSlow(bufferedBytes:)`` (inside
/// ``NetworkError/stream(_:)``) once
/// ``hardLimit`` bytes are waiting, rather than buffer without bound.
///
/// A body stream is read once, by one consumer. Breaking out of the loop, or cancelling the
/// reading task, stops the transfer.
///
/// ```swift
/// let streamed = try await transport.stream(request)
/// for try await chunk in streamed.body { consume(chunk) }
/// ```
public struct BodyStream: AsyncSequence, Sendable {
    /// A chunk of the body, as the transport received it.
    public typealias Element = Data

    let buffer: BodyBuffer

    package init(_ buffer: BodyBuffer) {
        self.buffer = buffer
    }

    /// A stream of `data`, already complete: what a transport that cannot stream returns.
    public init(_ data: Data) {
        let buffer = BodyBuffer()
        if !data.isEmpty { _ = buffer.write(data) }
        buffer.finish(throwing: nil)
        self.buffer = buffer
    }

    /// Bytes buffered past which a pausing transport pauses: 1 MiB.
    public static let highWaterMark = 1 << 20
    /// Bytes the buffer must drop below before a paused transport goes on: 256 KiB.
    public static let lowWaterMark = 256 << 10
    /// Bytes buffered past which a transport that cannot pause fails the stream: 64 MiB.
    public static let hardLimit = 64 << 20

    /// Reads the chunks. One iterator per stream: the chunks are not kept for a second.
    public func makeAsyncIterator() -> Iterator {
        Iterator(reader: Reader(buffer))
    }

    /// Reads a ``BodyStream``; dropping it before the end stops the transfer.
    public struct Iterator: AsyncIteratorProtocol {
        let reader: Reader

        /// The next chunk, or `nil` at the end of the body.
        ///
        /// - Throws: the transport's error, ``NetworkError/stream(_:)`` with
        ///   ``StreamError/consumerTooSlow(bufferedBytes:)``, or ``NetworkError/cancelled`` when
        ///   the reading task is cancelled.
        public mutating func next() async throws -> Data? {
            try await reader.buffer.read()
        }
    }

    /// Stops the transfer when the iterator that reads it goes away before the end.
    final class Reader: Sendable {
        let buffer: BodyBuffer

        init(_ buffer: BodyBuffer) {
            self.buffer = buffer
        }

        deinit {
            buffer.cancel()
        }
    }

    /// Reads the whole remaining body, at most `limit` bytes of it (an error body, which a
    /// server controls); the rest is dropped and the transfer stopped.
    func collect(upTo limit: Int) async -> Data {
        var data = Data()
        do {
            while data.count < limit, let chunk = try await buffer.read() {
                data.append(chunk.prefix(limit - data.count))
            }
        } catch {}
        buffer.cancel()
        return data
    }
}

/// The buffer between a transport (the writer) and a ``BodyStream``'s consumer (the reader).
///
/// `@unchecked Sendable`: every mutable property is used with `lock` held.
package final class BodyBuffer: @unchecked Sendable {
    /// What a writer should do after ``write(_:)``.
    package enum Demand: Sendable {
        /// Go on writing.
        case more
        /// Pause until ``BodyBuffer/onResume`` is called (only writers that can pause).
        case pause
    }

    private let lock = NSLock()
    private var chunks: [Data] = []
    private var head = 0
    private var buffered = 0
    private var ending: Result<Void, any Error>?
    private var isCancelled = false
    private var isPaused = false
    private var reader: CheckedContinuation<Data?, any Error>?
    private var onResume: (@Sendable () -> Void)?
    private var onCancel: (@Sendable () -> Void)?
    private var onActivity: (@Sendable () -> Void)?
    private let canPause: Bool

    /// - Parameter canPause: Whether the writer pauses when told to; one that cannot is failed
    ///   at ``BodyStream/hardLimit``.
    package init(canPause: Bool = true) {
        self.canPause = canPause
    }

    /// Sets what resumes a paused writer and what stops the transfer when the reader is gone.
    package func connect(onResume: @escaping @Sendable () -> Void, onCancel: @escaping @Sendable () -> Void) {
        lock.lock()
        self.onResume = onResume
        self.onCancel = onCancel
        let cancelled = isCancelled
        lock.unlock()
        if cancelled { onCancel() }
    }

    /// Sets what is told of every chunk written (the router's idle timeout).
    func observeActivity(_ observer: @escaping @Sendable () -> Void) {
        lock.lock()
        onActivity = observer
        lock.unlock()
    }

    /// Hands `data` to the reader; says whether to go on.
    package func write(_ data: Data) -> Demand {
        lock.lock()
        let activity = onActivity
        lock.unlock()
        activity?()
        lock.lock()
        guard ending == nil, !isCancelled else {
            lock.unlock()
            return .more
        }
        if let reader {
            self.reader = nil
            lock.unlock()
            reader.resume(returning: data)
            return .more
        }
        chunks.append(data)
        buffered += data.count
        if !canPause, buffered > BodyStream.hardLimit {
            let error = NetworkError.stream(.consumerTooSlow(bufferedBytes: buffered))
            dropChunks()
            ending = .failure(error)
            let onCancel = self.onCancel
            lock.unlock()
            onCancel?()
            return .more
        }
        let pause = canPause && buffered > BodyStream.highWaterMark
        if pause { isPaused = true }
        lock.unlock()
        return pause ? .pause : .more
    }

    /// Ends the body: with `error`, or cleanly with `nil`. Later writes are ignored.
    package func finish(throwing error: (any Error)?) {
        lock.lock()
        guard ending == nil else {
            lock.unlock()
            return
        }
        ending = error.map { .failure($0) } ?? .success(())
        let reader = self.reader
        self.reader = nil
        lock.unlock()
        if let reader {
            if let error { reader.resume(throwing: error) } else { reader.resume(returning: nil) }
        }
    }

    /// The reader is gone: drops what is buffered and stops the transfer.
    package func cancel() {
        lock.lock()
        guard !isCancelled else {
            lock.unlock()
            return
        }
        isCancelled = true
        dropChunks()
        let wasEnded = ending != nil
        if ending == nil { ending = .failure(NetworkError.cancelled) }
        let reader = self.reader
        self.reader = nil
        let onCancel = self.onCancel
        lock.unlock()
        reader?.resume(throwing: NetworkError.cancelled)
        if !wasEnded { onCancel?() }
    }

    /// The next chunk, `nil` at the end; waits for one when none is buffered.
    func read() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                lock.lock()
                if head < chunks.count {
                    let chunk = chunks[head]
                    chunks[head] = Data()
                    head += 1
                    buffered -= chunk.count
                    if head == chunks.count {
                        chunks.removeAll(keepingCapacity: true)
                        head = 0
                    }
                    let resume = isPaused && buffered <= BodyStream.lowWaterMark
                    if resume { isPaused = false }
                    let onResume = resume ? self.onResume : nil
                    lock.unlock()
                    onResume?()
                    continuation.resume(returning: chunk)
                    return
                }
                switch ending {
                case .some(.success):
                    lock.unlock()
                    continuation.resume(returning: nil)
                case .some(.failure(let error)):
                    lock.unlock()
                    continuation.resume(throwing: error)
                case .none:
                    reader = continuation
                    lock.unlock()
                }
            }
        } onCancel: {
            cancel()
        }
    }

    private func dropChunks() {
        chunks.removeAll()
        head = 0
        buffered = 0
    }
}
