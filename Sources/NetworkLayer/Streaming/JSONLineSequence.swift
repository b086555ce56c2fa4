import Foundation

/// The values of a newline-delimited JSON body (JSON Lines, NDJSON) that arrives as `Data`
/// chunks, one a line, decoded by ``JSONLineDecoder``. Made by
/// `AsyncSequence.decodeLines(_:decoder:maximumLineLength:)`.
///
/// It reads the next chunk only when the values of the previous one are used up, holding one
/// chunk's values and the unfinished line, never more. The base's errors pass through; a line
/// that does not decode throws ``NetworkError/stream(_:)`` with ``StreamError/decoding(line:_:)`` after the values before it.
/// When the consuming task is cancelled, iteration throws ``NetworkError/cancelled`` (rather than
/// whatever the base throws then) and delivers nothing more. `Sendable` when its base is.
///
/// ```swift
/// struct Item: Decodable { let id: Int }
/// for try await item in chunks.decodeLines(Item.self) {
///     print(item.id)
/// }
/// ```
public struct JSONLineSequence<Base: AsyncSequence, Element: Decodable>: AsyncSequence where Base.Element == Data {
    private let base: Base
    private let decoder: JSONDecoder
    private let maximumLineLength: Int
    /// Given to the ``JSONLineDecoder``: a router's stream hides its request's secrets.
    private let hidingSecrets: (@Sendable (String) -> String)?

    init(base: Base, decoder: JSONDecoder, maximumLineLength: Int, hidingSecrets: (@Sendable (String) -> String)? = nil) {
        self.base = base
        self.decoder = decoder
        self.maximumLineLength = maximumLineLength
        self.hidingSecrets = hidingSecrets
    }

    /// Starts reading the base.
    public func makeAsyncIterator() -> AsyncIterator {
        var lines = JSONLineDecoder(Element.self, decoder: decoder, maximumLineLength: maximumLineLength)
        lines.hidingSecrets = hidingSecrets
        return AsyncIterator(inner: ChunkParsingIterator(base: base.makeAsyncIterator(), parser: lines))
    }

    /// Reads values from the base's chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline
        var inner: ChunkParsingIterator<Base.AsyncIterator, JSONLineDecoder<Element>>

        @usableFromInline
        init(inner: ChunkParsingIterator<Base.AsyncIterator, JSONLineDecoder<Element>>) {
            self.inner = inner
        }

        /// The next line's value; `nil` after the last one.
        ///
        /// - Throws: the base's errors, ``NetworkError/stream(_:)`` with ``StreamError/decoding(line:_:)``,
        ///   ``StreamError/lineTooLong(line:limit:)``, and ``NetworkError/cancelled`` once the task is
        ///   cancelled.
        @inlinable
        public mutating func next() async throws -> Element? {
            try await inner.next()
        }
    }
}

extension JSONLineSequence: Sendable where Base: Sendable {}
