import Foundation

/// The lines of a body that arrives as `Data` chunks, decoded as UTF-8: see ``LineSplitter`` for
/// the line ends, the decoding and the length limit. Made by
/// `AsyncSequence.lines` and `AsyncSequence.lines(maximumLineLength:)`.
///
/// It reads the next chunk only when the lines of the previous one are used up, holding one
/// chunk's lines and the unfinished line, never more. The base's errors pass through; a line
/// longer than the limit throws ``NetworkError/stream(_:)`` with ``StreamError/lineTooLong(line:limit:)`` after the lines before
/// it. When the consuming task is cancelled, iteration throws ``NetworkError/cancelled`` (rather than
/// whatever the base throws then) and delivers nothing more. `Sendable` when its base is.
///
/// ```swift
/// for try await line in chunks.lines {
///     print(line)
/// }
/// ```
public struct LineSequence<Base: AsyncSequence>: AsyncSequence where Base.Element == Data {
    /// A line, without its line end.
    public typealias Element = String

    private let base: Base
    private let maximumLineLength: Int

    init(base: Base, maximumLineLength: Int) {
        self.base = base
        self.maximumLineLength = maximumLineLength
    }

    /// Starts reading the base.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(inner: ChunkParsingIterator(base: base.makeAsyncIterator(), parser: LineSplitter(maximumLineLength: maximumLineLength)))
    }

    /// Reads lines from the base's chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline
        var inner: ChunkParsingIterator<Base.AsyncIterator, LineSplitter>

        @usableFromInline
        init(inner: ChunkParsingIterator<Base.AsyncIterator, LineSplitter>) {
            self.inner = inner
        }

        /// The next line; `nil` after the last one (a last line without a line end included).
        ///
        /// - Throws: the base's errors, ``NetworkError/stream(_:)`` with ``StreamError/lineTooLong(line:limit:)``, and
        ///   ``NetworkError/cancelled`` once the task is cancelled.
        @inlinable
        public mutating func next() async throws -> String? {
            try await inner.next()
        }
    }
}

extension LineSequence: Sendable where Base: Sendable {}
