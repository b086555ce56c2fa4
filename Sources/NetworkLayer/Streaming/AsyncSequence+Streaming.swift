import Foundation

extension AsyncSequence where Element == Data {
    /// The chunks' lines, split at LF, CRLF and CR and decoded as UTF-8 (see ``LineSequence``),
    /// with lines of at most 1 MiB.
    ///
    /// ```swift
    /// for try await line in chunks.lines { print(line) }
    /// ```
    public var lines: LineSequence<Self> {
        lines(maximumLineLength: LineSplitter.defaultMaximumLineLength)
    }

    /// The chunks' lines, split at LF, CRLF and CR and decoded as UTF-8 (see ``LineSequence``).
    ///
    /// - Parameter maximumLineLength: the longest line accepted, in bytes;
    ///   ``LineSplitter/defaultMaximumLineLength`` (1 MiB) unless given.
    ///
    /// ```swift
    /// for try await line in chunks.lines(maximumLineLength: 4096) { print(line) }
    /// ```
    public func lines(maximumLineLength: Int = LineSplitter.defaultMaximumLineLength) -> LineSequence<Self> {
        LineSequence(base: self, maximumLineLength: maximumLineLength)
    }

    /// The chunks read as a `text/event-stream` body: its server-sent events, by the WHATWG
    /// rules (see ``ServerSentEventParser``), comments ignored.
    ///
    /// ```swift
    /// for try await event in chunks.events { print(event.type, event.data) }
    /// ```
    public var events: ServerSentEventSequence<Self> {
        events()
    }

    /// The chunks read as a `text/event-stream` body: its server-sent events, by the WHATWG
    /// rules (see ``ServerSentEventParser``).
    ///
    /// - Parameters:
    ///   - lastEventID: the ID that events carry until the server sends one: the
    ///     `Last-Event-ID` the request resumed with. Empty unless given.
    ///   - includesComments: deliver comment lines as events whose
    ///     ``ServerSentEvent/isComment`` is true; `false` unless given.
    ///   - maximumLineLength: the longest line accepted, in bytes; 1 MiB unless given.
    ///   - maximumEventSize: the largest `data` of one event, in bytes; 4 MiB unless given.
    ///
    /// ```swift
    /// for try await event in chunks.events(lastEventID: "41", includesComments: true) {
    ///     if event.isComment { continue }  // a keep-alive: the connection is alive
    ///     print(event.id, event.data)
    /// }
    /// ```
    public func events(
        lastEventID: String = "", includesComments: Bool = false,
        maximumLineLength: Int = LineSplitter.defaultMaximumLineLength,
        maximumEventSize: Int = ServerSentEventParser.defaultMaximumEventSize
    ) -> ServerSentEventSequence<Self> {
        let parser = ServerSentEventParser(
            lastEventID: lastEventID, includesComments: includesComments, maximumLineLength: maximumLineLength,
            maximumEventSize: maximumEventSize)
        return ServerSentEventSequence(base: self, parser: parser)
    }

    /// The chunks read as newline-delimited JSON: each line that is not blank decoded as `type`
    /// (see ``JSONLineDecoder``).
    ///
    /// On a router's stream (``Router/stream(_:options:)``, here or passed on as any
    /// `AsyncSequence`), a line that does not decode throws ``StreamError/decoding(line:_:)``
    /// with the request's secrets hidden in the error's text, where a server may repeat them
    /// (a token in an echoed URL); an error whose text held one is replaced by one with that
    /// text. A sequence made from the stream (`stream.prefix(10)`) cannot know the request.
    ///
    /// - Parameters:
    ///   - type: the type of each line's value.
    ///   - decoder: the decoder for each line, a plain `JSONDecoder()` unless given.
    ///   - maximumLineLength: the longest line accepted, in bytes; 1 MiB unless given.
    ///
    /// ```swift
    /// struct Item: Decodable { let id: Int }
    /// for try await item in chunks.decodeLines(Item.self) { print(item.id) }
    /// ```
    public func decodeLines<Value: Decodable>(
        _ type: Value.Type, decoder: JSONDecoder = JSONDecoder(),
        maximumLineLength: Int = LineSplitter.defaultMaximumLineLength
    ) -> JSONLineSequence<Self, Value> {
        // Asked once per sequence: a router's stream knows the request whose secrets to hide.
        let hiding = (self as? ResponseStream).map { stream -> @Sendable (String) -> String in
            { [state = stream.state] in state.hidingSecrets(in: $0) }
        }
        return JSONLineSequence(base: self, decoder: decoder, maximumLineLength: maximumLineLength, hidingSecrets: hiding)
    }
}
