import Foundation
import NetworkLayer
import Testing

@Suite("Newline-delimited JSON")
struct JSONLineDecoderTests {
    struct Item: Decodable, Equatable {
        let id: Int
    }

    private func decode(_ chunks: [String], decoder: JSONDecoder = JSONDecoder()) throws -> [Item] {
        var lines = JSONLineDecoder(Item.self, decoder: decoder)
        var items: [Item] = []
        for chunk in chunks {
            try lines.append(Data(chunk.utf8)) { items.append($0) }
        }
        if let last = try lines.finish() { items.append(last) }
        return items
    }

    @Test func eachLineIsOneValue() throws {
        #expect(try decode(["{\"id\":1}\n{\"id\":2}\n"]) == [Item(id: 1), Item(id: 2)])
    }

    @Test func aValueMaySpanChunks() throws {
        #expect(try decode(["{\"i", "d\":", "1}\r", "\n{\"id\":2}\n"]) == [Item(id: 1), Item(id: 2)])
    }

    @Test func theLastLineWithoutALineEndIsDecodedAtTheEnd() throws {
        #expect(try decode(["{\"id\":1}\n{\"id\":2}"]) == [Item(id: 1), Item(id: 2)])
    }

    @Test func blankLinesAreSkipped() throws {
        #expect(try decode(["\n{\"id\":1}\n \t\n\r\n{\"id\":2}\n\n"]) == [Item(id: 1), Item(id: 2)])
    }

    @Test func aBadLineThrowsWithItsLineNumberAndTheDecodingError() throws {
        #expect {
            try decode(["{\"id\":1}\n\n{\"id\":\"three\"}\n{\"id\":4}\n"])
        } throws: { error in
            guard case NetworkError.stream(.decoding(let line, let underlying)) = error else { return false }
            return line == 3 && underlying is DecodingError
        }
    }

    @Test func valuesBeforeABadLineAreDelivered() throws {
        var lines = JSONLineDecoder(Item.self)
        var items: [Item] = []
        #expect(throws: NetworkError.self) { try lines.append(Data("{\"id\":1}\n{oops}\n{\"id\":3}\n".utf8)) { items.append($0) } }
        #expect(items == [Item(id: 1)])
        #expect(throws: NetworkError.self) { try lines.append(Data("{\"id\":4}\n".utf8)) { items.append($0) } }
    }

    @Test func aBadUnterminatedLastLineThrowsFromFinish() throws {
        var lines = JSONLineDecoder(Item.self)
        try lines.append(Data("{\"id\":1}\n{\"id\":".utf8)) { _ in }
        #expect {
            try lines.finish()
        } throws: { error in
            guard case NetworkError.stream(.decoding(let line, _)) = error else { return false }
            return line == 2
        }
    }

    @Test func theGivenDecoderIsUsed() throws {
        struct Record: Decodable, Equatable { let itemCount: Int }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        var lines = JSONLineDecoder(Record.self, decoder: decoder)
        var records: [Record] = []
        try lines.append(Data("{\"item_count\":3}\n".utf8)) { records.append($0) }
        #expect(records == [Record(itemCount: 3)])
    }

    @Test func aLineOverTheLimitThrows() throws {
        var lines = JSONLineDecoder(Item.self, maximumLineLength: 8)
        #expect(throws: NetworkError.self) { try lines.append(Data("{\"id\":123456}\n".utf8)) { _ in } }
    }

    @Test func theDecodingErrorMessageNamesTheLineAndThePath() throws {
        do {
            _ = try decode(["{\"id\":1}\n{\"id\":\"x\"}\n"])
            Issue.record("no error")
        } catch {
            let message = error.localizedDescription
            #expect(message.contains("Line 2"))
            #expect(message.contains("id"))
        }
    }
}
