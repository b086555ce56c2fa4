import Foundation

/// Reads a `text/event-stream` body chunk by chunk into ``ServerSentEvent``s, by the rules of
/// the WHATWG HTML standard ("Interpreting an event stream"), so that events come out as a
/// browser's EventSource would dispatch them:
///
/// - The body is UTF-8, invalid bytes replaced with U+FFFD; one byte order mark at its very
///   start is skipped. Lines end with LF, CRLF or CR, however the chunks are cut.
/// - A line `field: value` sets a field; one space after the colon is not part of the value. A
///   line without a colon is a field with an empty value. Lines that begin with `:` are comments,
///   ignored unless `includesComments` is set. Unknown fields are ignored. Field names are
///   case-sensitive.
/// - `data` lines are joined with LF. `event` sets the type (`"message"` when absent). `id` sets
///   the last event ID, unless its value contains NUL, or (beyond WHATWG) another control
///   character: the ID goes back in a reconnection's `Last-Event-ID` header, which cannot carry
///   one, and such an ID ended the stream for good. `retry` sets the reconnection time in
///   milliseconds when its value is only ASCII digits (a value too large for `Int` counts as
///   `Int.max`); otherwise it is ignored.
/// - An empty line dispatches the event. An event without data is not dispatched, but its `id`
///   still becomes the last event ID. An event not closed by an empty line when the body ends is
///   discarded, its `id` too.
///
/// ``lastEventID`` and ``retry`` live on across ``finish()``, which is what a reconnection
/// needs: send `Last-Event-ID: lastEventID` after waiting `retry` milliseconds, and feed the new
/// body to the same parser.
///
/// Memory is bounded: one line of at most `maximumLineLength` bytes and one event of at most
/// `maximumEventSize` bytes of data; beyond them, ``append(_:_:)`` throws ``NetworkError/stream(_:)``.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// try parser.append(Data("event: score\ndata: 1-0\nid: 7\n\n".utf8)) { event in
///     print(event.type, event.data, event.id)   // score 1-0 7
/// }
/// parser.finish()
/// print(parser.lastEventID)                      // 7: send it as Last-Event-ID to resume
/// ```
public struct ServerSentEventParser: Sendable {
    /// The largest event accepted unless a limit is given: 4 MiB of data.
    public static let defaultMaximumEventSize = 4 << 20

    /// The ID of the last event dispatched (or skipped for lack of data), or the one the parser
    /// was created with; empty when there is none. Send it as `Last-Event-ID` when reconnecting.
    public private(set) var lastEventID: String

    /// The reconnection time in milliseconds from the latest `retry` field, `nil` until the
    /// server sends one. A `retry` field takes effect at once, even in an event never dispatched.
    public private(set) var retry: Int?

    /// Whether comment lines are delivered, as events whose ``ServerSentEvent/isComment`` is true.
    public let includesComments: Bool

    /// The largest `data` of one event accepted, in bytes of UTF-8.
    public let maximumEventSize: Int

    private var lines: LineSplitter
    private var dataBuffer: [UInt8] = []
    private var typeBuffer = ""
    /// The `id` of the event being read; it becomes ``lastEventID`` when the event ends.
    private var idBuffer: String
    private var atStreamStart = true
    private var failure: StreamError?

    /// Creates a parser for one stream, or for a stream and its reconnections.
    ///
    /// - Parameters:
    ///   - lastEventID: the last event ID to start from: the `Last-Event-ID` that a request
    ///     resumed with, which events without an `id` field carry. Empty unless given.
    ///   - includesComments: deliver comment lines (`: keep-alive`) as events whose
    ///     ``ServerSentEvent/isComment`` is true; `false` (ignore them, as EventSource does)
    ///     unless given.
    ///   - maximumLineLength: the longest line accepted, in bytes;
    ///     ``LineSplitter/defaultMaximumLineLength`` (1 MiB) unless given.
    ///   - maximumEventSize: the largest `data` of one event, in bytes;
    ///     ``defaultMaximumEventSize`` (4 MiB) unless given. A negative limit counts as 0.
    public init(
        lastEventID: String = "", includesComments: Bool = false,
        maximumLineLength: Int = LineSplitter.defaultMaximumLineLength,
        maximumEventSize: Int = ServerSentEventParser.defaultMaximumEventSize
    ) {
        self.lastEventID = lastEventID
        self.idBuffer = lastEventID
        self.includesComments = includesComments
        self.maximumEventSize = max(0, maximumEventSize)
        self.lines = LineSplitter(maximumLineLength: maximumLineLength)
    }

    /// Reads `chunk` and calls `body` with each event it completes, in order.
    ///
    /// - Throws: ``NetworkError/stream(_:)`` with ``StreamError/lineTooLong(line:limit:)`` or
    ///   ``StreamError/eventTooLarge(line:limit:)``, after `body` has seen every event before
    ///   the offending line; and whatever `body` throws, in which case the rest of `chunk` is
    ///   not read. After an error of the parser's, every later call throws it again, until
    ///   ``finish()``.
    public mutating func append(_ chunk: Data, _ body: (ServerSentEvent) throws -> Void) throws {
        if let failure { throw NetworkError.stream(failure) }
        // The splitter leaves `self` while it runs, so that the closure may change `self`.
        var splitter = LineSplitter(maximumLineLength: 0)
        swap(&splitter, &lines)
        defer { swap(&splitter, &lines) }
        do {
            try splitter.appendBytes(chunk) { line, number in try process(line, number: number, body) }
        } catch NetworkError.stream(let error) {
            failure = error
            throw NetworkError.stream(error)
        }
    }

    /// Ends the body: an event not yet closed by an empty line is discarded, as the standard
    /// says, and so is its `id`. ``lastEventID`` and ``retry`` are kept, and a byte order mark
    /// is skipped again at the start of the next body, so the same parser reads the body of a
    /// reconnection.
    public mutating func finish() {
        // The standard discards an unterminated last line rather than reading it as a field.
        lines.reset()
        dataBuffer.removeAll(keepingCapacity: dataBuffer.capacity <= Self.retainedCapacity)
        typeBuffer = ""
        idBuffer = lastEventID
        atStreamStart = true
        failure = nil
    }

    private mutating func process(_ line: UnsafeRawBufferPointer, number: Int, _ body: (ServerSentEvent) throws -> Void) throws {
        var line = line
        if atStreamStart {
            atStreamStart = false
            if line.count >= 3 && line[0] == 0xEF && line[1] == 0xBB && line[2] == 0xBF {
                line = UnsafeRawBufferPointer(rebasing: line[3...])
            }
        }
        guard let first = line.first else {
            try dispatch(body)
            return
        }
        let field: UnsafeRawBufferPointer
        var value: UnsafeRawBufferPointer
        if let separator = line.firstIndex(of: colon) {
            field = UnsafeRawBufferPointer(rebasing: line[..<separator])
            value = UnsafeRawBufferPointer(rebasing: line[(separator + 1)...])
            if value.first == space {
                value = UnsafeRawBufferPointer(rebasing: value[1...])
            }
        } else {
            field = line
            value = UnsafeRawBufferPointer(start: nil, count: 0)
        }
        if first == colon {
            if includesComments {
                try body(ServerSentEvent(type: "", data: String(decoding: value, as: UTF8.self), id: lastEventID, retry: retry))
            }
            return
        }
        switch field.count {
        case 4 where Self.field(field, is: "data"):
            guard dataBuffer.count + value.count <= maximumEventSize else {
                throw NetworkError.stream(.eventTooLarge(line: number, limit: maximumEventSize))
            }
            dataBuffer.append(contentsOf: value)
            dataBuffer.append(lf)
        case 5 where Self.field(field, is: "event"):
            typeBuffer = String(decoding: value, as: UTF8.self)
        case 2 where Self.field(field, is: "id"):
            let id = String(decoding: value, as: UTF8.self)
            if HeaderValidation.isValidValue(id) {
                idBuffer = id
            }
        case 5 where Self.field(field, is: "retry"):
            if let milliseconds = Self.digits(value) {
                retry = milliseconds
            }
        default:
            break
        }
    }

    private mutating func dispatch(_ body: (ServerSentEvent) throws -> Void) throws {
        lastEventID = idBuffer
        guard !dataBuffer.isEmpty else {
            typeBuffer = ""
            return
        }
        let data = dataBuffer.withUnsafeBufferPointer { buffer in
            // Drops the LF appended after the last data line.
            String(decoding: UnsafeBufferPointer(rebasing: buffer.dropLast()), as: UTF8.self)
        }
        let event = ServerSentEvent(type: typeBuffer.isEmpty ? "message" : typeBuffer, data: data, id: lastEventID, retry: retry)
        dataBuffer.removeAll(keepingCapacity: dataBuffer.capacity <= Self.retainedCapacity)
        typeBuffer = ""
        try body(event)
    }

    /// Whether the bytes of `field` are `name`'s: a `memcmp`, as `elementsEqual` on a string's UTF-8
    /// view costs a tenth of the parse.
    private static func field(_ field: UnsafeRawBufferPointer, is name: StaticString) -> Bool {
        guard let bytes = field.baseAddress, field.count == name.utf8CodeUnitCount else { return false }
        return memcmp(bytes, name.utf8Start, field.count) == 0
    }

    /// The value of ASCII digits only, saturated at `Int.max`; `nil` for anything else, the
    /// empty value included.
    private static func digits(_ value: UnsafeRawBufferPointer) -> Int? {
        guard !value.isEmpty else { return nil }
        var result = 0
        for byte in value {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times10, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - 0x30))
            result = overflow1 || overflow2 ? Int.max : sum
        }
        return result
    }

    /// A buffer grown by one large event is given back afterwards (see ``LineSplitter``).
    private static let retainedCapacity = 64 * 1024
}

private let lf: UInt8 = 0x0A
private let colon: UInt8 = 0x3A
private let space: UInt8 = 0x20
