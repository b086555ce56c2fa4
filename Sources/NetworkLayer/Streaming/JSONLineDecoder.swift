import Foundation

/// Decodes a newline-delimited JSON body (JSON Lines, NDJSON) chunk by chunk: each line that is
/// not blank is one JSON value, decoded as `Element` with a `JSONDecoder` of your choice.
///
/// Lines end with LF, CRLF or CR (see ``LineSplitter``), however the chunks are cut. Lines that
/// are empty or only spaces and tabs are skipped, as most producers send one between records or
/// as a keep-alive. A line that does not decode throws ``NetworkError/stream(_:)`` with ``StreamError/decoding(line:_:)`` with its
/// line number (counted from 1, blank lines included) and the decoder's error; a line longer
/// than `maximumLineLength` throws ``NetworkError/stream(_:)`` with ``StreamError/lineTooLong(line:limit:)`` without being held
/// whole in memory.
///
/// ```swift
/// struct Item: Decodable { let id: Int }
/// var items = JSONLineDecoder(Item.self)
/// try items.append(Data("{\"id\":1}\n{\"id\"".utf8)) { print($0.id) }   // 1
/// try items.append(Data(":2}\n".utf8)) { print($0.id) }                  // 2
/// _ = try items.finish()                                                 // nil: nothing left
/// ```
public struct JSONLineDecoder<Element: Decodable>: Sendable {
    /// The decoder each line goes through.
    public let decoder: JSONDecoder

    private var lines: LineSplitter
    private var failure: StreamError?
    /// Applied to a decoding error's text: a router's stream hides its request's secrets there.
    var hidingSecrets: (@Sendable (String) -> String)?

    /// Creates a decoder of `Element` values, one a line.
    ///
    /// - Parameters:
    ///   - type: the type of each line's value; inferred when the context gives it.
    ///   - decoder: the decoder for each line, a plain `JSONDecoder()` unless given.
    ///   - maximumLineLength: the longest line accepted, in bytes;
    ///     ``LineSplitter/defaultMaximumLineLength`` (1 MiB) unless given.
    public init(
        _ type: Element.Type = Element.self, decoder: JSONDecoder = JSONDecoder(),
        maximumLineLength: Int = LineSplitter.defaultMaximumLineLength
    ) {
        self.decoder = decoder
        self.lines = LineSplitter(maximumLineLength: maximumLineLength)
    }

    /// Reads `chunk` and calls `body` with the value of each line it completes, in order.
    ///
    /// - Throws: ``NetworkError/stream(_:)`` with ``StreamError/decoding(line:_:)`` or ``StreamError/lineTooLong(line:limit:)``,
    ///   after `body` has seen every value before the offending line; and whatever `body`
    ///   throws, in which case the rest of `chunk` is not read. After an error of the decoder's,
    ///   every later call throws it again, until ``finish()``.
    public mutating func append(_ chunk: Data, _ body: (Element) throws -> Void) throws {
        if let failure { throw NetworkError.stream(failure) }
        // The splitter leaves `self` while it runs, so that the closure may read `self`.
        var splitter = LineSplitter(maximumLineLength: 0)
        swap(&splitter, &lines)
        defer { swap(&splitter, &lines) }
        do {
            try splitter.appendBytes(chunk) { line, number in
                if let value = try decode(line, number: number) { try body(value) }
            }
        } catch NetworkError.stream(let error) {
            failure = error
            throw NetworkError.stream(error)
        }
    }

    /// Ends the body and returns the value of its last line if that line had no line end; `nil`
    /// when there was none (or it was blank). The decoder is then ready for another body.
    ///
    /// - Throws: ``NetworkError/stream(_:)`` with ``StreamError/decoding(line:_:)`` when that last line does not decode, and the
    ///   error of an earlier call that threw.
    public mutating func finish() throws -> Element? {
        defer { failure = nil }
        if let failure {
            lines.reset()
            throw NetworkError.stream(failure)
        }
        var value: Element?
        let (decoder, hide) = (decoder, hidingSecrets)
        try lines.finishBytes { line, number in value = try Self.decode(line, number: number, with: decoder, hiding: hide) }
        return value
    }

    private func decode(_ line: UnsafeRawBufferPointer, number: Int) throws -> Element? {
        try Self.decode(line, number: number, with: decoder, hiding: hidingSecrets)
    }

    private static func decode(
        _ line: UnsafeRawBufferPointer, number: Int, with decoder: JSONDecoder, hiding hide: ((String) -> String)?
    ) throws -> Element? {
        guard line.contains(where: { $0 != space && $0 != tab }) else { return nil }
        do {
            return try decoder.decode(Element.self, from: Data(line))
        } catch {
            throw NetworkError.stream(.decoding(line: number, hide.map { SecretsHidden.in(error, with: $0) } ?? error))
        }
    }
}

private let space: UInt8 = 0x20
private let tab: UInt8 = 0x09
