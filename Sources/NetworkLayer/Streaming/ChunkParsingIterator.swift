import Foundation

/// What the streaming sequences need of a parser: chunks in, values out, and an end.
protocol ChunkParser {
    associatedtype Output
    /// Reads one chunk; `body` gets each value it completes.
    mutating func append(_ chunk: Data, _ body: (Output) throws -> Void) throws
    /// Ends the body; `body` gets what its unterminated end still gives, if anything.
    mutating func finish(_ body: (Output) throws -> Void) throws
}

extension LineSplitter: ChunkParser {
    mutating func finish(_ body: (String) throws -> Void) throws {
        if let line = finish() { try body(line) }
    }
}

extension ServerSentEventParser: ChunkParser {
    mutating func finish(_ body: (ServerSentEvent) throws -> Void) throws {
        finish()
    }
}

extension JSONLineDecoder: ChunkParser {
    mutating func finish(_ body: (Element) throws -> Void) throws {
        if let value = try finish() { try body(value) }
    }
}

/// The iterator behind ``LineSequence``, ``ServerSentEventSequence`` and ``JSONLineSequence``:
/// pulls a chunk from the base only when the values of the previous one are used up, so it holds
/// one chunk's values and the parser's unfinished line, never more.
///
/// A parser error is thrown after the values that came before it, so the values are the same
/// however the chunks are cut. The base's errors pass through as they are. Once the consuming
/// task is cancelled, nothing more is delivered: `next()` throws `CancellationError`, even if the
/// base ends quietly on cancellation (as `AsyncStream` does), so that a cancelled stream is never
/// mistaken for a complete one. After an error or the end, `next()` returns `nil`.
struct ChunkParsingIterator<Base: AsyncIteratorProtocol, Parser: ChunkParser> where Base.Element == Data {
    private var base: Base
    private(set) var parser: Parser
    private var pending: [Parser.Output] = []
    private var index = 0
    private var pendingError: (any Error)?
    private var state = State.reading

    private enum State {
        case reading
        /// The base ended; what is still pending is delivered, then `nil`.
        case draining
        case done
    }

    init(base: Base, parser: Parser) {
        self.base = base
        self.parser = parser
    }

    mutating func next() async throws -> Parser.Output? {
        while true {
            if case .done = state { return nil }
            if Task.isCancelled {
                end()
                throw CancellationError()
            }
            if index < pending.count {
                defer { index += 1 }
                return pending[index]
            }
            if let error = pendingError {
                end()
                throw error
            }
            guard case .reading = state else {
                end()
                return nil
            }
            let chunk: Data?
            do {
                chunk = try await base.next()
            } catch {
                end()
                throw error
            }
            if let chunk {
                collect { parser, body in try parser.append(chunk, body) }
            } else {
                state = .draining
                // Checked again at the top: a cancelled task must not see the end as complete.
                if !Task.isCancelled {
                    collect { parser, body in try parser.finish(body) }
                }
            }
        }
    }

    /// Runs the parser with a fresh pending buffer, keeping its error for after the values.
    private mutating func collect(_ run: (inout Parser, (Parser.Output) throws -> Void) throws -> Void) {
        // Swapped out of `self` so that the parser and the closure filling it are separate accesses.
        var values: [Parser.Output] = []
        swap(&values, &pending)
        values.removeAll(keepingCapacity: true)
        index = 0
        do {
            try run(&parser) { values.append($0) }
        } catch {
            pendingError = error
        }
        swap(&values, &pending)
    }

    private mutating func end() {
        state = .done
        pending = []
        index = 0
        pendingError = nil
    }
}
