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
/// A body stream is read once, by one consumer. Breaking out of the loop, cancelling the
/// reading task, or dropping a stream that nobody reads, stops the transfer.
///
/// ```swift
/// let streamed = try await transport.stream(request)
/// for try await chunk in streamed.body { consume(chunk) }
/// ```
public struct BodyStream: AsyncSequence, Sendable {
    /// A chunk of the body, as the transport received it.
    public typealias Element = Data

    let buffer: BodyBuffer
    /// Stops the transfer once the last copy of the stream, and every iterator made from it, is
    /// gone: a stream dropped unread held its transfer, its connection and, on CurlTransport,
    /// the engine's thread for ever (found from outside, 2026-11-26). `nil` for a body that is
    /// complete already.
    let owner: Reader?

    package init(_ buffer: BodyBuffer) {
        self.buffer = buffer
        self.owner = Reader(buffer)
    }

    /// A stream of `data`, already complete: what a transport that cannot stream returns.
    public init(_ data: Data) {
        let buffer = BodyBuffer()
        if !data.isEmpty { _ = buffer.write(data) }
        buffer.finish(throwing: nil)
        self.buffer = buffer
        self.owner = nil
    }

    /// Bytes buffered past which a pausing transport pauses: 1 MiB.
    public static let highWaterMark = 1 << 20
    /// Bytes the buffer must drop below before a paused transport goes on: 256 KiB.
    public static let lowWaterMark = 256 << 10
    /// Bytes buffered past which a transport that cannot pause fails the stream: 64 MiB.
    public static let hardLimit = 64 << 20

    /// Reads the chunks. One iterator per stream: the chunks are not kept for a second.
    public func makeAsyncIterator() -> Iterator {
        Iterator(reader: Reader(buffer), owner: owner)
    }

    /// Reads a ``BodyStream``; dropping it before the end stops the transfer.
    public struct Iterator: AsyncIteratorProtocol {
        let reader: Reader
        /// Keeps the stream's own ``BodyStream/owner`` while the iterator reads.
        let owner: Reader?

        /// The next chunk, or `nil` at the end of the body.
        ///
        /// - Throws: the transport's error, ``NetworkError/stream(_:)`` with
        ///   ``StreamError/consumerTooSlow(bufferedBytes:)``, or ``NetworkError/cancelled`` when
        ///   the reading task is cancelled.
        public mutating func next() async throws -> Data? {
            try await reader.buffer.read()
        }
    }

    /// Stops the transfer when what holds it (an iterator, or the stream's last copy) goes away
    /// before the end.
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
/// Callbacks (the reader's continuation, the writer's resume and cancel, the activity
/// observer) run after the lock is released, so that none of them can re-enter it.
package final class BodyBuffer: Sendable {
    /// What a writer should do after ``write(_:)``.
    package enum Demand: Sendable {
        /// Go on writing.
        case more
        /// Pause until ``BodyBuffer/onResume`` is called (only writers that can pause).
        case pause
    }

    private struct State {
        var chunks: [Data] = []
        var head = 0
        var buffered = 0
        var ending: Result<Void, any Error>?
        var isCancelled = false
        var isPaused = false
        var reader: CheckedContinuation<Data?, any Error>?
        var onResume: (@Sendable () -> Void)?
        var onCancel: (@Sendable () -> Void)?
        var onActivity: (@Sendable () -> Void)?

        mutating func dropChunks() {
            chunks.removeAll()
            head = 0
            buffered = 0
        }

        /// Takes the reader that waits, if any.
        mutating func takeReader() -> CheckedContinuation<Data?, any Error>? {
            let waiting = reader
            reader = nil
            return waiting
        }
    }

    private let state = Locked(State())
    private let canPause: Bool

    /// - Parameter canPause: Whether the writer pauses when told to; one that cannot is failed
    ///   at ``BodyStream/hardLimit``.
    package init(canPause: Bool = true) {
        self.canPause = canPause
    }

    /// Sets what resumes a paused writer and what stops the transfer when the reader is gone.
    package func connect(onResume: @escaping @Sendable () -> Void, onCancel: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state in
            state.onResume = onResume
            state.onCancel = onCancel
            return state.isCancelled
        }
        if cancelled { onCancel() }
    }

    /// Sets what is told of every chunk written (the router's idle timeout).
    func observeActivity(_ observer: @escaping @Sendable () -> Void) {
        state.withLock { $0.onActivity = observer }
    }

    /// What a write leads to, done once the lock is released.
    private enum AfterWrite {
        case demand(Demand)
        case deliver(CheckedContinuation<Data?, any Error>)
        case stop((@Sendable () -> Void)?)
    }

    /// Hands `data` to the reader; says whether to go on.
    package func write(_ data: Data) -> Demand {
        state.withLock { $0.onActivity }?()
        let after = state.withLock { state -> AfterWrite in
            guard state.ending == nil, !state.isCancelled else { return .demand(.more) }
            if let reader = state.takeReader() { return .deliver(reader) }
            state.chunks.append(data)
            state.buffered += data.count
            if !canPause, state.buffered > BodyStream.hardLimit {
                let error = NetworkError.stream(.consumerTooSlow(bufferedBytes: state.buffered))
                state.dropChunks()
                state.ending = .failure(error)
                return .stop(state.onCancel)
            }
            let pause = canPause && state.buffered > BodyStream.highWaterMark
            if pause { state.isPaused = true }
            return .demand(pause ? .pause : .more)
        }
        switch after {
        case .demand(let demand):
            return demand
        case .deliver(let reader):
            reader.resume(returning: data)
            return .more
        case .stop(let onCancel):
            onCancel?()
            return .more
        }
    }

    /// Ends the body: with `error`, or cleanly with `nil`. Later writes are ignored.
    package func finish(throwing error: (any Error)?) {
        let reader = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            guard state.ending == nil else { return nil }
            state.ending = error.map { .failure($0) } ?? .success(())
            return state.takeReader()
        }
        if let reader {
            if let error { reader.resume(throwing: error) } else { reader.resume(returning: nil) }
        }
    }

    /// The reader is gone: drops what is buffered and stops the transfer.
    package func cancel() {
        let ended = state.withLock { state -> (reader: CheckedContinuation<Data?, any Error>?, onCancel: (@Sendable () -> Void)?)? in
            guard !state.isCancelled else { return nil }
            state.isCancelled = true
            state.dropChunks()
            let wasEnded = state.ending != nil
            if state.ending == nil { state.ending = .failure(NetworkError.cancelled) }
            return (state.takeReader(), wasEnded ? nil : state.onCancel)
        }
        guard let ended else { return }
        ended.reader?.resume(throwing: NetworkError.cancelled)
        ended.onCancel?()
    }

    /// What a read finds, acted on once the lock is released.
    private enum AfterRead {
        case chunk(Data, resumeWriter: (@Sendable () -> Void)?)
        case end
        case failure(any Error)
        case wait
    }

    /// The next chunk, `nil` at the end; waits for one when none is buffered.
    func read() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                let after = state.withLock { state -> AfterRead in
                    if state.head < state.chunks.count {
                        let chunk = state.chunks[state.head]
                        state.chunks[state.head] = Data()
                        state.head += 1
                        state.buffered -= chunk.count
                        if state.head == state.chunks.count {
                            state.chunks.removeAll(keepingCapacity: true)
                            state.head = 0
                        }
                        let resume = state.isPaused && state.buffered <= BodyStream.lowWaterMark
                        if resume { state.isPaused = false }
                        return .chunk(chunk, resumeWriter: resume ? state.onResume : nil)
                    }
                    switch state.ending {
                    case .some(.success):
                        return .end
                    case .some(.failure(let error)):
                        return .failure(error)
                    case .none:
                        state.reader = continuation
                        return .wait
                    }
                }
                switch after {
                case .chunk(let chunk, let resumeWriter):
                    resumeWriter?()
                    continuation.resume(returning: chunk)
                case .end:
                    continuation.resume(returning: nil)
                case .failure(let error):
                    continuation.resume(throwing: error)
                case .wait:
                    break
                }
            }
        } onCancel: {
            cancel()
        }
    }
}
