import Foundation

/// The server-sent events of a `text/event-stream` body that arrives as `Data` chunks, parsed by
/// ``ServerSentEventParser`` (the WHATWG rules). Made by `AsyncSequence.events` and
/// `AsyncSequence.events(lastEventID:includesComments:maximumLineLength:maximumEventSize:)`.
///
/// It reads the next chunk only when the events of the previous one are used up, holding one
/// chunk's events, the unfinished line and the unfinished event, never more. The base's errors
/// pass through; an event cut off by the end of the body is discarded, as the standard says.
/// When the consuming task is cancelled, iteration throws ``NetworkError/cancelled`` (rather than
/// whatever the base throws then) and delivers nothing more. `Sendable` when its base is.
///
/// ```swift
/// for try await event in chunks.events where event.type == "score" {
///     print(event.data)
/// }
/// ```
///
/// To reconnect, keep the iterator: its ``AsyncIterator/lastEventID`` and
/// ``AsyncIterator/retry`` tell what to send as `Last-Event-ID` and how long to wait, even when
/// the last events had no data.
public struct ServerSentEventSequence<Base: AsyncSequence>: AsyncSequence where Base.Element == Data {
    /// An event, or a comment when comments were asked for.
    public typealias Element = ServerSentEvent

    private let base: Base
    private let parser: ServerSentEventParser

    init(base: Base, parser: ServerSentEventParser) {
        self.base = base
        self.parser = parser
    }

    /// Starts reading the base.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(inner: ChunkParsingIterator(base: base.makeAsyncIterator(), parser: parser))
    }

    /// Reads events from the base's chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline
        var inner: ChunkParsingIterator<Base.AsyncIterator, ServerSentEventParser>

        @usableFromInline
        init(inner: ChunkParsingIterator<Base.AsyncIterator, ServerSentEventParser>) {
            self.inner = inner
        }

        /// The last event ID so far (see ``ServerSentEventParser/lastEventID``): the value of
        /// `Last-Event-ID` for a reconnection.
        public var lastEventID: String { inner.parser.lastEventID }

        /// The reconnection time in milliseconds from the latest `retry` field, `nil` until the
        /// server sends one.
        public var retry: Int? { inner.parser.retry }

        /// The next event; `nil` when the body ends.
        ///
        /// - Throws: the base's errors, ``NetworkError/stream(_:)`` with ``StreamError/lineTooLong(line:limit:)``,
        ///   ``StreamError/eventTooLarge(line:limit:)``, and ``NetworkError/cancelled`` once the task
        ///   is cancelled.
        @inlinable
        public mutating func next() async throws -> ServerSentEvent? {
            try await inner.next()
        }
    }
}

extension ServerSentEventSequence: Sendable where Base: Sendable {}
