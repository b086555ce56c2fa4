import Foundation

/// What the streaming sequences need of a parser: chunks in, values out, and an end.
@usableFromInline
protocol ChunkParser {
    associatedtype Output
    /// Reads one chunk; `body` gets each value it completes.
    mutating func append(_ chunk: Data, _ body: (Output) throws -> Void) throws
    /// Ends the body; `body` gets what its unterminated end still gives, if anything.
    mutating func finish(_ body: (Output) throws -> Void) throws
}

extension LineSplitter: ChunkParser {
    @usableFromInline
    mutating func finish(_ body: (String) throws -> Void) throws {
        if let line = finish() { try body(line) }
    }
}

extension ServerSentEventParser: ChunkParser {
    @usableFromInline
    mutating func finish(_ body: (ServerSentEvent) throws -> Void) throws {
        finish()
    }
}

extension JSONLineDecoder: ChunkParser {
    @usableFromInline
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
/// task is cancelled, nothing more is delivered and `next()` throws ``NetworkError/cancelled``, whether
/// the base then ends quietly (as `AsyncStream` does, so a cancelled stream is never mistaken for
/// a complete one) or throws an error of its own. After an error or the end, `next()` returns
/// `nil`.
///
/// `@inlinable`, with the sequences' `next()`: the base is the caller's type, and only code the
/// caller's module can see is specialized for it. Unspecialized, each value cost a generic
/// metadata lookup, and `chunks.lines` ran at 60 % of its specialized speed (Benchmarks).
@usableFromInline
struct ChunkParsingIterator<Base: AsyncIteratorProtocol, Parser: ChunkParser> where Base.Element == Data {
    @usableFromInline
    var base: Base
    @usableFromInline
    var parser: Parser
    /// The values of the last chunk, last first: `popLast()` hands each over without a copy.
    @usableFromInline
    var pending: [Parser.Output] = []
    @usableFromInline
    var pendingError: (any Error)?
    @usableFromInline
    var state = State.reading

    @usableFromInline
    enum State {
        case reading
        /// The base ended; what is still pending is delivered, then `nil`.
        case draining
        case done
    }

    @usableFromInline
    init(base: Base, parser: Parser) {
        self.base = base
        self.parser = parser
    }

    @inlinable
    mutating func next() async throws -> Parser.Output? {
        while true {
            if case .done = state { return nil }
            if Task.isCancelled {
                end()
                throw NetworkError.cancelled
            }
            if let value = pending.popLast() {
                return value
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
                // A base may fail on its own cancellation, e.g. with URLError(.cancelled) when
                // the transfer it wraps is cancelled first: the caller sees the cause, cancellation.
                if Task.isCancelled { throw NetworkError.cancelled }
                throw error
            }
            if let chunk {
                collect { parser, body in try parser.append(chunk, body) }
            } else {
                // A base that ends because the task was cancelled ends nothing: the check at the
                // top throws before the unfinished last line could be delivered as complete.
                state = .draining
                collect { parser, body in try parser.finish(body) }
            }
        }
    }

    /// Runs the parser with a fresh pending buffer, keeping its error for after the values.
    @inlinable
    mutating func collect(_ run: (inout Parser, (Parser.Output) throws -> Void) throws -> Void) {
        // Swapped out of `self` so that the parser and the closure filling it are separate accesses.
        var values: [Parser.Output] = []
        swap(&values, &pending)
        do {
            try run(&parser) { values.append($0) }
        } catch {
            pendingError = error
        }
        values.reverse()
        swap(&values, &pending)
    }

    @inlinable
    mutating func end() {
        state = .done
        pending = []
        pendingError = nil
    }
}
