import Foundation

/// Cuts a body that arrives in chunks into lines, wherever the chunks happen to be cut.
///
/// A line ends at LF, CRLF or a lone CR, the three line ends of the server-sent events format
/// (and of most text). A CR at the end of one chunk and an LF at the start of the next are one
/// line end, so the lines are the same however the body is chunked. A last line without a line
/// end comes from ``finish()``. Lines are decoded as UTF-8, each invalid byte sequence replaced
/// with U+FFFD, so a line is always a `String`; the line end is not part of it.
///
/// Only the line being read is kept between chunks, and no more than ``maximumLineLength`` bytes
/// of it (1 MiB by default): a longer line throws ``NetworkError/stream(_:)`` with ``StreamError/lineTooLong(line:limit:)``, so a
/// server that never sends a line end cannot make the process grow without bound. After an error
/// every later call throws it again.
///
/// ```swift
/// var splitter = LineSplitter()
/// for chunk in [Data("first\r".utf8), Data("\nsec".utf8), Data("ond\nthird".utf8)] {
///     try splitter.append(chunk) { line in print(line) }  // "first", then "second"
/// }
/// if let last = splitter.finish() { print(last) }        // "third"
/// ```
public struct LineSplitter: Sendable {
    /// The limit used unless one is given: 1 MiB.
    public static let defaultMaximumLineLength = 1 << 20

    /// The longest line accepted, in bytes of UTF-8, line end excluded.
    public let maximumLineLength: Int

    /// The bytes of the line read so far, when it began in an earlier chunk.
    private var partial: [UInt8] = []
    /// The previous chunk ended with CR: an LF at the start of the next one belongs to that line end.
    private var skipsLeadingLF = false
    /// Lines completed so far, for the line numbers of errors.
    private var lineCount = 0
    private var failure: StreamError?

    /// Creates a splitter that accepts lines of at most `maximumLineLength` bytes
    /// (``defaultMaximumLineLength``, 1 MiB, unless given; a negative limit counts as 0).
    public init(maximumLineLength: Int = LineSplitter.defaultMaximumLineLength) {
        self.maximumLineLength = max(0, maximumLineLength)
    }

    /// Reads `chunk` and calls `body` with each line that it completes, in order.
    ///
    /// - Throws: ``NetworkError/stream(_:)`` with ``StreamError/lineTooLong(line:limit:)`` when a line exceeds
    ///   ``maximumLineLength``, after `body` has seen every line before it; and whatever `body`
    ///   throws, in which case the rest of `chunk` is not read.
    public mutating func append(_ chunk: Data, _ body: (String) throws -> Void) throws {
        try appendBytes(chunk) { line, _ in try body(String(decoding: line, as: UTF8.self)) }
    }

    /// Ends the stream and returns its last line if it had no line end, `nil` otherwise (and after
    /// an error). The splitter is then empty, ready for another stream.
    public mutating func finish() -> String? {
        defer { reset() }
        guard failure == nil, !partial.isEmpty else { return nil }
        return String(decoding: partial, as: UTF8.self)
    }

    /// Forgets the current line and any error, as if the splitter were new.
    mutating func reset() {
        partial.removeAll(keepingCapacity: true)
        skipsLeadingLF = false
        lineCount = 0
        failure = nil
    }

    /// ``append(_:_:)`` without decoding: `body` gets each line's bytes, valid only during the
    /// call, and its line number. The server-sent event and JSON-lines parsers read fields and
    /// JSON from the bytes directly.
    mutating func appendBytes(_ chunk: Data, _ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        if let failure { throw NetworkError.stream(failure) }
        try chunk.withUnsafeBytes { bytes in
            try split(bytes, body)
        }
    }

    /// The last line if it had no line end, as bytes, and its line number; the splitter is then empty.
    mutating func finishBytes(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows {
        defer { reset() }
        guard failure == nil, !partial.isEmpty else { return }
        let number = lineCount + 1
        try partial.withUnsafeBytes { try body($0, number) }
    }

    private mutating func split(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        let count = bytes.count
        guard count > 0 else { return }
        var index = 0
        if skipsLeadingLF {
            skipsLeadingLF = false
            if bytes[0] == lf { index = 1 }
        }
        var start = index
        while index < count {
            let byte = bytes[index]
            // Every byte above CR is text: one comparison for almost all of them.
            if byte > cr || (byte != lf && byte != cr) {
                index += 1
                continue
            }
            try emit(UnsafeRawBufferPointer(rebasing: bytes[start..<index]), body)
            if byte == cr {
                if index + 1 < count {
                    if bytes[index + 1] == lf { index += 1 }
                } else {
                    skipsLeadingLF = true
                }
            }
            index += 1
            start = index
        }
        if start < count {
            // The rest is the beginning of a line that a later chunk completes.
            try checkLength(partial.count + (count - start))
            partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<count]))
        }
    }

    /// Hands over one completed line whose last piece is `tail`.
    private mutating func emit(_ tail: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws {
        try checkLength(partial.count + tail.count)
        lineCount += 1
        let number = lineCount
        if partial.isEmpty {
            try body(tail, number)
        } else {
            partial.append(contentsOf: tail)
            defer { partial.removeAll(keepingCapacity: partial.capacity <= Self.retainedCapacity) }
            try partial.withUnsafeBytes { try body($0, number) }
        }
    }

    private mutating func checkLength(_ length: Int) throws {
        guard length > maximumLineLength else { return }
        let error = StreamError.lineTooLong(line: lineCount + 1, limit: maximumLineLength)
        failure = error
        partial.removeAll()
        throw NetworkError.stream(error)
    }

    /// A buffer grown by one long line is given back afterwards, so one 1 MiB line does not pin
    /// 1 MiB for the rest of an endless stream.
    private static let retainedCapacity = 64 * 1024
}

private let lf: UInt8 = 0x0A
private let cr: UInt8 = 0x0D
