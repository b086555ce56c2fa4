import Foundation

/// Why a streamed body could not be read: as lines, server-sent events or JSON lines, or at all
/// because its reader fell too far behind or the answer was not an event stream.
///
/// The parsers hold at most one line (and, for server-sent events, one event) in memory, so a
/// server that never ends a line cannot make the process grow without bound: past the limit,
/// reading stops with one of these errors instead. Line numbers count from 1 and include empty
/// lines.
///
/// ```swift
/// do {
///     for try await item in chunks.decodeLines(Item.self) { show(item) }
/// } catch NetworkError.stream(.decoding(let line, let error)) {
///     print("line \(line) is not an Item:", error)
/// } catch NetworkError.stream(.lineTooLong(let line, let limit)) {
///     print("line \(line) is longer than \(limit) bytes")
/// }
/// ```
public enum StreamError: Error, Sendable {
    /// Line `line` is longer than `limit` bytes (UTF-8, line end excluded). The rest of the stream
    /// is not read.
    case lineTooLong(line: Int, limit: Int)

    /// The `data` of the server-sent event that line `line` belongs to is longer than `limit`
    /// bytes. The rest of the stream is not read.
    case eventTooLarge(line: Int, limit: Int)

    /// Line `line` of a JSON-lines stream could not be decoded. The error is usually a
    /// `DecodingError` with the coding path inside that line's value.
    case decoding(line: Int, any Error)

    /// The reader fell `bufferedBytes` behind a transport that cannot pause
    /// (``URLSessionTransport`` on Linux: FoundationNetworking has no way to), past
    /// ``BodyStream/hardLimit``; the transfer was stopped rather than buffered without bound.
    /// A transport that pauses (the libcurl one) never fails this way.
    case consumerTooSlow(bufferedBytes: Int)

    /// The answer to ``Router/events(_:options:reconnection:)`` is not an event stream: its status
    /// is not 200, or its `Content-Type` is not `text/event-stream`. The WHATWG standard says to
    /// "fail the connection": the stream ends with this error and does not reconnect. The
    /// response keeps the status, the headers and the body (its first 1 MiB), which is often
    /// the server's explanation (a JSON error, a login page).
    case notAnEventStream(Response)
}

extension StreamError: LocalizedError {
    /// A sentence that says which line was wrong and why.
    public var errorDescription: String? {
        switch self {
        case .lineTooLong(let line, let limit):
            return "Line \(line) of the stream is longer than the \(limit)-byte limit."
        case .eventTooLarge(let line, let limit):
            return "At line \(line), the data of a server-sent event grows past the \(limit)-byte limit."
        case .decoding(let line, let error):
            return "Line \(line) of the stream could not be decoded: \(NetworkError.describe(error))."
        case .consumerTooSlow(let bytes):
            return "The stream was stopped: its reader fell \(bytes) bytes behind a transport that cannot pause."
        case .notAnEventStream(let response):
            // No body bytes here: a description may be logged, and the body may hold a secret.
            // The server's text goes through the one rule for it: a control character in the
            // header reached the description, and with it a log line (found from outside 2026-11-27).
            let type = response.header("Content-Type").map { "Content-Type \(NetworkError.excerpt($0, limit: 100))" } ?? "no Content-Type"
            return "The answer is not an event stream (status \(response.statusCode), \(type)): the stream ends without reconnecting."
        }
    }
}
