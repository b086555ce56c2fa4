import Foundation
import NetworkLayer
import Testing

@Suite("Line splitting")
struct LineSplitterTests {
    @Test func linesEndAtLF() throws {
        #expect(try splitLines([Data("one\ntwo\n".utf8)]) == ["one", "two"])
    }

    @Test func linesEndAtCRLF() throws {
        #expect(try splitLines([Data("one\r\ntwo\r\n".utf8)]) == ["one", "two"])
    }

    @Test func linesEndAtALoneCR() throws {
        #expect(try splitLines([Data("one\rtwo\r".utf8)]) == ["one", "two"])
    }

    @Test func mixedLineEndsInOneBody() throws {
        #expect(try splitLines([Data("a\nb\r\nc\rd\n".utf8)]) == ["a", "b", "c", "d"])
    }

    @Test func consecutiveLineEndsGiveEmptyLines() throws {
        #expect(try splitLines([Data("a\n\nb\r\rc\r\n\r\n".utf8)]) == ["a", "", "b", "", "c", ""])
    }

    @Test func crAtTheEndOfAChunkAndLFAtTheStartOfTheNextAreOneLineEnd() throws {
        #expect(try splitLines([Data("one\r".utf8), Data("\ntwo\n".utf8)]) == ["one", "two"])
    }

    @Test func emptyChunksBetweenCRAndLFDoNotSplitTheLineEnd() throws {
        #expect(try splitLines([Data("one\r".utf8), Data(), Data(), Data("\ntwo".utf8)]) == ["one", "two"])
    }

    @Test func crAtTheEndOfAChunkIsALineEndAtOnce() throws {
        var splitter = LineSplitter()
        var lines: [String] = []
        try splitter.append(Data("one\r".utf8)) { lines.append($0) }
        #expect(lines == ["one"])
        try splitter.append(Data("two\n".utf8)) { lines.append($0) }
        #expect(lines == ["one", "two"])
    }

    @Test func aLineMaySpanManyChunks() throws {
        #expect(try splitLines(["he", "ll", "o wor", "ld\nx"].map { Data($0.utf8) }) == ["hello world", "x"])
    }

    @Test func theLastLineWithoutALineEndComesFromFinish() throws {
        var splitter = LineSplitter()
        var lines: [String] = []
        try splitter.append(Data("one\ntwo".utf8)) { lines.append($0) }
        #expect(lines == ["one"])
        #expect(splitter.finish() == "two")
    }

    @Test func finishReturnsNilWhenTheBodyEndedWithALineEnd() throws {
        var splitter = LineSplitter()
        try splitter.append(Data("one\n".utf8)) { _ in }
        #expect(splitter.finish() == nil)
    }

    @Test func anEmptyBodyHasNoLines() throws {
        #expect(try splitLines([]) == [])
        #expect(try splitLines([Data()]) == [])
    }

    @Test func finishLeavesTheSplitterReadyForAnotherBody() throws {
        var splitter = LineSplitter()
        try splitter.append(Data("left\r".utf8)) { _ in }
        _ = splitter.finish()
        var lines: [String] = []
        // The CR of the first body must not swallow the LF that starts the second.
        try splitter.append(Data("\nnext\n".utf8)) { lines.append($0) }
        #expect(lines == ["", "next"])
    }

    @Test func invalidUTF8IsReplacedWithTheReplacementCharacter() throws {
        let bytes: [UInt8] = [0x61, 0xFF, 0x62, 0xE2, 0x82, 0x0A]
        #expect(try splitLines([Data(bytes)]) == ["a\u{FFFD}b\u{FFFD}"])
    }

    @Test func aCharacterCutBetweenChunksIsDecodedWhole() throws {
        let bytes = Array("é🎬\n".utf8)
        #expect(try splitLines([Data(bytes[0..<1]), Data(bytes[1..<3]), Data(bytes[3...])]) == ["é🎬"])
    }

    @Test func aLineOfExactlyTheLimitIsAccepted() throws {
        #expect(try splitLines([Data("12345\n".utf8)], maximumLineLength: 5) == ["12345"])
    }

    @Test func aLineOverTheLimitThrowsWithItsLineNumber() throws {
        #expect {
            try splitLines([Data("ok\n123456\n".utf8)], maximumLineLength: 5)
        } throws: { error in
            guard case NetworkError.stream(.lineTooLong(let line, let limit)) = error else { return false }
            return line == 2 && limit == 5
        }
    }

    @Test func theLimitCountsBytesNotCharacters() throws {
        // "éé" is 4 bytes of UTF-8.
        #expect(throws: NetworkError.self) { try splitLines([Data("éé\n".utf8)], maximumLineLength: 3) }
        #expect(try splitLines([Data("éé\n".utf8)], maximumLineLength: 4) == ["éé"])
    }

    @Test func aLineThatNeverEndsThrowsOnceItPassesTheLimitWithoutWaitingForItsEnd() throws {
        var splitter = LineSplitter(maximumLineLength: 10)
        try splitter.append(Data("0123456789".utf8)) { _ in }
        #expect(throws: NetworkError.self) { try splitter.append(Data("x".utf8)) { _ in } }
    }

    @Test func linesBeforeATooLongLineInTheSameChunkAreDelivered() throws {
        var splitter = LineSplitter(maximumLineLength: 3)
        var lines: [String] = []
        #expect(throws: NetworkError.self) { try splitter.append(Data("a\nbc\ntoo long\nd\n".utf8)) { lines.append($0) } }
        #expect(lines == ["a", "bc"])
    }

    @Test func afterAnErrorEveryCallThrowsIt() throws {
        var splitter = LineSplitter(maximumLineLength: 1)
        #expect(throws: NetworkError.self) { try splitter.append(Data("long\n".utf8)) { _ in } }
        #expect(throws: NetworkError.self) { try splitter.append(Data("a\n".utf8)) { _ in } }
        #expect(splitter.finish() == nil)
    }

    @Test func aNegativeLimitAcceptsOnlyEmptyLines() throws {
        let splitter = LineSplitter(maximumLineLength: -5)
        #expect(splitter.maximumLineLength == 0)
        #expect(try splitLines([Data("\n\n".utf8)], maximumLineLength: -5) == ["", ""])
        #expect(throws: NetworkError.self) { try splitLines([Data("a\n".utf8)], maximumLineLength: -5) }
    }

    @Test func errorsFromTheLineHandlerPassThrough() throws {
        var splitter = LineSplitter()
        #expect(throws: BaseFailure(code: 7)) {
            try splitter.append(Data("a\n".utf8)) { _ in throw BaseFailure(code: 7) }
        }
    }

    @Test func theDefaultLimitIsOneMebibyte() {
        #expect(LineSplitter().maximumLineLength == 1_048_576)
    }

    @Test func errorMessagesNameTheLineAndTheLimit() {
        let message = StreamError.lineTooLong(line: 12, limit: 1024).localizedDescription
        #expect(message.contains("12") && message.contains("1024"))
    }
}
