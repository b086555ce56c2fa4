import Foundation
import NetworkLayer
import Testing

/// Wherever the network cuts a body, the lines, events and values read from it are the same.
@Suite("Streaming: every chunk boundary")
struct ChunkBoundaryTests {
    /// A body with every hazard at some byte: a byte order mark, CR, CRLF and LF (a CR right
    /// before the split points included), comments, multi-byte characters, invalid UTF-8 (a
    /// truncated 4-byte sequence), an event with empty data, one without data, and an
    /// unterminated last event.
    static let eventBody: [UInt8] =
        Array("\u{FEFF}: hi\r\nretry: 1500\revent: greeting\ndata: hello\r\ndata:  world\nid: 1\r\n\r\n".utf8)
        + Array("data: é 🎬\rid: 2\r\rdata\n\nid: 3\n\nevent: score\r\ndata: {\"a\": 1}\r\n\n".utf8)
        + Array("data: ".utf8) + [0xF0, 0x9F] + Array("\n\ndata: tail".utf8)

    static let expectedEvents = [
        ServerSentEvent(type: "", data: "hi"),
        ServerSentEvent(type: "greeting", data: "hello\n world", id: "1", retry: 1500),
        ServerSentEvent(data: "é 🎬", id: "2", retry: 1500),
        ServerSentEvent(data: "", id: "2", retry: 1500),
        ServerSentEvent(type: "score", data: "{\"a\": 1}", id: "3", retry: 1500),
        ServerSentEvent(data: "\u{FFFD}", id: "3", retry: 1500),
    ]

    static let lineBody = Array("a\r\nb\rc\n\ré🎬\r\n\r\rlast".utf8)
    static let expectedLines = ["a", "b", "c", "", "é🎬", "", "", "last"]

    static let jsonBody = Array("{\"id\":1}\r\n\n{\"id\":2}\r{\"id\":3}".utf8)

    struct Item: Decodable, Equatable {
        let id: Int
    }

    private func events(_ chunks: [Data]) throws -> [ServerSentEvent] {
        try parseEvents(chunks, ServerSentEventParser(includesComments: true)).0
    }

    private func items(_ chunks: [Data]) throws -> [Item] {
        var decoder = JSONLineDecoder(Item.self)
        var items: [Item] = []
        for chunk in chunks {
            try decoder.append(chunk) { items.append($0) }
        }
        if let last = try decoder.finish() { items.append(last) }
        return items
    }

    @Test func eventsInOneChunk() throws {
        #expect(try events([Data(Self.eventBody)]) == Self.expectedEvents)
    }

    @Test func eventsCutInTwoAtEveryByte() throws {
        for offset in 0...Self.eventBody.count {
            #expect(try events(cut(Self.eventBody, at: [offset])) == Self.expectedEvents, "cut at \(offset)")
        }
    }

    /// Cuts in three with the two cuts up to 8 bytes apart: every pair of nearby cuts, where
    /// the pieces interact (a CR, an empty chunk and an LF; a character in three pieces), at a
    /// tenth of the cost of every pair, which would hold a core for seconds in a debug build.
    private static func nearbyCutPairs(_ count: Int) -> [(Int, Int)] {
        (0...count).flatMap { first in (first...min(count, first + 8)).map { (first, $0) } }
    }

    @Test func eventsCutInThreeAtEveryPairOfNearbyBytes() throws {
        for (first, second) in Self.nearbyCutPairs(Self.eventBody.count) {
            let result = try events(cut(Self.eventBody, at: [first, second]))
            if result != Self.expectedEvents {
                Issue.record("cut at \(first) and \(second): \(result)")
                return
            }
        }
    }

    @Test func eventsOneByteAChunk() throws {
        #expect(try events(cut(Self.eventBody, at: Array(1..<Self.eventBody.count))) == Self.expectedEvents)
    }

    @Test func linesCutInTwoAtEveryByte() throws {
        for offset in 0...Self.lineBody.count {
            #expect(try splitLines(cut(Self.lineBody, at: [offset])) == Self.expectedLines, "cut at \(offset)")
        }
    }

    @Test func linesCutInThreeAtEveryPairOfNearbyBytes() throws {
        for (first, second) in Self.nearbyCutPairs(Self.lineBody.count) {
            let result = try splitLines(cut(Self.lineBody, at: [first, second]))
            if result != Self.expectedLines {
                Issue.record("cut at \(first) and \(second): \(result)")
                return
            }
        }
    }

    @Test func linesOneByteAChunk() throws {
        #expect(try splitLines(cut(Self.lineBody, at: Array(1..<Self.lineBody.count))) == Self.expectedLines)
    }

    @Test func jsonLinesCutInTwoAtEveryByte() throws {
        for offset in 0...Self.jsonBody.count {
            #expect(try items(cut(Self.jsonBody, at: [offset])) == [Item(id: 1), Item(id: 2), Item(id: 3)], "cut at \(offset)")
        }
    }

    @Test func jsonLinesOneByteAChunk() throws {
        #expect(try items(cut(Self.jsonBody, at: Array(1..<Self.jsonBody.count))) == [Item(id: 1), Item(id: 2), Item(id: 3)])
    }

    @Test func theAsyncSequencesAgreeAtEveryByte() async throws {
        for offset in 0...Self.eventBody.count {
            let chunks = Chunks(cut(Self.eventBody, at: [offset]))
            let events = await collect(chunks.events(includesComments: true))
            #expect(events.error == nil)
            #expect(events.values == Self.expectedEvents, "cut at \(offset)")
        }
        for offset in 0...Self.lineBody.count {
            let lines = await collect(Chunks(cut(Self.lineBody, at: [offset])).lines)
            #expect(lines.values == Self.expectedLines, "cut at \(offset)")
        }
        for offset in 0...Self.jsonBody.count {
            let items = await collect(Chunks(cut(Self.jsonBody, at: [offset])).decodeLines(Item.self))
            #expect(items.values == [Item(id: 1), Item(id: 2), Item(id: 3)], "cut at \(offset)")
        }
    }
}
