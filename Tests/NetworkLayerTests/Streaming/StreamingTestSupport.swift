import Foundation
import NetworkLayer

/// A finite base sequence of chunks that may end with an error, and counts how many chunks its
/// consumer has asked for.
struct Chunks: AsyncSequence, Sendable {
    typealias Element = Data

    let chunks: [Data]
    var failure: (any Error & Sendable)?
    var pulls = PullCounter()

    init(_ chunks: [Data], failure: (any Error & Sendable)? = nil) {
        self.chunks = chunks
        self.failure = failure
    }

    init(_ texts: [String], failure: (any Error & Sendable)? = nil) {
        self.init(texts.map { Data($0.utf8) }, failure: failure)
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks, failure: failure, pulls: pulls)
    }

    struct Iterator: AsyncIteratorProtocol {
        let chunks: [Data]
        let failure: (any Error & Sendable)?
        let pulls: PullCounter
        var index = 0

        mutating func next() async throws -> Data? {
            pulls.increment()
            guard index < chunks.count else {
                if let failure { throw failure }
                return nil
            }
            defer { index += 1 }
            return chunks[index]
        }
    }
}

/// How many times a base sequence's `next()` was called.
final class PullCounter: @unchecked Sendable {
    // @unchecked: `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// An error a base sequence throws, to see it come out unchanged.
struct BaseFailure: Error, Equatable {
    let code: Int
}

/// `bytes` cut into chunks at the given offsets, which must be in order.
func cut(_ bytes: [UInt8], at offsets: [Int]) -> [Data] {
    var chunks: [Data] = []
    var start = 0
    for offset in offsets + [bytes.count] {
        chunks.append(Data(bytes[start..<offset]))
        start = offset
    }
    return chunks
}

/// Every line that `splitter` reads from `chunks`, the last unterminated one included.
func splitLines(_ chunks: [Data], maximumLineLength: Int = LineSplitter.defaultMaximumLineLength) throws -> [String] {
    var splitter = LineSplitter(maximumLineLength: maximumLineLength)
    var lines: [String] = []
    for chunk in chunks {
        try splitter.append(chunk) { lines.append($0) }
    }
    if let last = splitter.finish() { lines.append(last) }
    return lines
}

/// Every event that a parser reads from `chunks`, and the parser after ``ServerSentEventParser/finish()``.
func parseEvents(_ chunks: [Data], _ parser: ServerSentEventParser = ServerSentEventParser()) throws -> ([ServerSentEvent], ServerSentEventParser) {
    var parser = parser
    var events: [ServerSentEvent] = []
    for chunk in chunks {
        try parser.append(chunk) { events.append($0) }
    }
    parser.finish()
    return (events, parser)
}

/// The events of one text body in one chunk.
func parseEvents(_ text: String, _ parser: ServerSentEventParser = ServerSentEventParser()) throws -> [ServerSentEvent] {
    try parseEvents([Data(text.utf8)], parser).0
}

/// Everything an async sequence yields, or the error that ended it with what came before.
func collect<S: AsyncSequence>(_ sequence: S) async -> (values: [S.Element], error: (any Error)?) {
    var values: [S.Element] = []
    do {
        for try await value in sequence { values.append(value) }
        return (values, nil)
    } catch {
        return (values, error)
    }
}
