/// One event of a `text/event-stream` body, as the WHATWG HTML standard's EventSource would
/// dispatch it.
///
/// ```swift
/// for try await event in chunks.events {
///     switch event.type {
///     case "score": updateScore(with: event.data)
///     default: print(event.id, event.data)   // type "message": the server gave no `event` field
///     }
/// }
/// ```
public struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
    /// The event's type: its `event` field, or `"message"` when it had none (or an empty one).
    ///
    /// Empty only for a comment (``isComment``), which a real event can never be.
    public var type: String

    /// The event's `data` lines joined with LF, without a final LF.
    ///
    /// For a comment, the text after its `:` with one leading space removed.
    public var data: String

    /// The stream's last event ID when the event was dispatched: the latest `id` field, of this
    /// event or an earlier one, or the ID that the parser started with. Empty when there was none.
    ///
    /// This is the value to send as `Last-Event-ID` when reconnecting after this event.
    public var id: String

    /// The stream's reconnection time in milliseconds when the event was dispatched: the latest
    /// `retry` field, of this event or an earlier one; `nil` when the server has sent none.
    public var retry: Int?

    /// Creates an event; the parser builds these, tests and stubs may too.
    ///
    /// - Parameters:
    ///   - type: the event type, `"message"` unless given.
    ///   - data: the data, with lines joined by LF.
    ///   - id: the last event ID, empty unless given.
    ///   - retry: the reconnection time in milliseconds, `nil` unless given.
    public init(type: String = "message", data: String, id: String = "", retry: Int? = nil) {
        self.type = type
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// Whether this is a comment line (`: keep-alive`) rather than an event. Comments are only
    /// delivered when asked for (`includesComments: true`); they are ignored by default.
    public var isComment: Bool { type.isEmpty }

    /// The event in the wire format, e.g. `event: score`, `id: 7`, `data: 1-0`, one field a line.
    public var description: String {
        if isComment { return ": \(data)" }
        var fields: [String] = []
        if type != "message" { fields.append("event: \(type)") }
        if !id.isEmpty { fields.append("id: \(id)") }
        if let retry { fields.append("retry: \(retry)") }
        fields += data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)" }
        return fields.joined(separator: "\n")
    }
}
