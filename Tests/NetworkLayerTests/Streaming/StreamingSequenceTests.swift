import Foundation
import NetworkLayer
import Testing

/// The `AsyncSequence` views over any sequence of `Data` chunks: errors, cancellation, memory.
@Suite("Streaming: async sequences")
struct StreamingSequenceTests {
    struct Item: Decodable, Equatable {
        let id: Int
    }

    @Test func linesOfChunks() async throws {
        var lines: [String] = []
        for try await line in Chunks(["one\r", "\ntwo\nthr", "ee"]).lines {
            lines.append(line)
        }
        #expect(lines == ["one", "two", "three"])
    }

    @Test func eventsOfChunks() async throws {
        var events: [ServerSentEvent] = []
        for try await event in Chunks(["event: a\nda", "ta: 1\n\ndata: 2\n", "\n"]).events {
            events.append(event)
        }
        #expect(events == [ServerSentEvent(type: "a", data: "1"), ServerSentEvent(data: "2")])
    }

    @Test func decodedLinesOfChunks() async throws {
        var items: [Item] = []
        for try await item in Chunks(["{\"id\":1}\n{\"id\"", ":2}\n"]).decodeLines(Item.self) {
            items.append(item)
        }
        #expect(items == [Item(id: 1), Item(id: 2)])
    }

    @Test func theBasesErrorComesOutUnchangedAfterTheLinesBeforeIt() async {
        let result = await collect(Chunks(["one\ntwo\npart"], failure: BaseFailure(code: 3)).lines)
        #expect(result.values == ["one", "two"])
        #expect(result.error as? BaseFailure == BaseFailure(code: 3))
    }

    @Test func theBasesErrorComesOutOfEventsAndDecodedLines() async {
        let events = await collect(Chunks(["data: a\n\ndata: b"], failure: BaseFailure(code: 4)).events)
        #expect(events.values.map(\.data) == ["a"])
        #expect(events.error as? BaseFailure == BaseFailure(code: 4))
        let items = await collect(Chunks(["{\"id\":1}\n"], failure: BaseFailure(code: 5)).decodeLines(Item.self))
        #expect(items.values == [Item(id: 1)])
        #expect(items.error as? BaseFailure == BaseFailure(code: 5))
    }

    @Test func aParseErrorComesAfterTheValuesBeforeIt() async {
        let result = await collect(Chunks(["{\"id\":1}\n{\"id\":2}\nbad\n{\"id\":4}\n"]).decodeLines(Item.self))
        #expect(result.values == [Item(id: 1), Item(id: 2)])
        guard case NetworkError.stream(.decoding(let line, _))? = result.error else {
            Issue.record("expected a decoding error, got \(String(describing: result.error))")
            return
        }
        #expect(line == 3)
    }

    @Test func afterAnErrorTheIteratorReturnsNil() async throws {
        var iterator = Chunks(["a\n"], failure: BaseFailure(code: 1)).lines.makeAsyncIterator()
        #expect(try await iterator.next() == "a")
        await #expect(throws: BaseFailure(code: 1)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test func theNextChunkIsReadOnlyWhenTheLinesOfThePreviousAreUsedUp() async throws {
        let chunks = Chunks(["a\nb\n", "c\n", "d\n"])
        var iterator = chunks.lines.makeAsyncIterator()
        #expect(try await iterator.next() == "a")
        #expect(chunks.pulls.value == 1)
        #expect(try await iterator.next() == "b")
        #expect(chunks.pulls.value == 1)
        #expect(try await iterator.next() == "c")
        #expect(chunks.pulls.value == 2)
    }

    @Test func aLineThatNeverEndsFailsOnceItPassesTheLimitInsteadOfGrowing() async throws {
        // An endless base of 64 KiB chunks without a line end: without the limit this never ends.
        let endless = AsyncStream<Data> { Data(repeating: 0x78, count: 65_536) }
        await #expect {
            for try await _ in endless.lines(maximumLineLength: 1_048_576) {}
        } throws: { error in
            guard case NetworkError.stream(.lineTooLong(line: 1, limit: 1_048_576)) = error else { return false }
            return true
        }
    }

    @Test func anEventThatNeverEndsFailsOnceItPassesTheLimitInsteadOfGrowing() async throws {
        let endless = AsyncStream<Data> { Data("data: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n".utf8) }
        await #expect(throws: NetworkError.self) {
            for try await _ in endless.events(maximumEventSize: 65_536) {}
        }
    }

    @Test func cancellingTheConsumingTaskEndsTheSequenceWithoutItsUnfinishedLine() async throws {
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        continuation.yield(Data("first\npart".utf8))
        let delivered = AsyncStream<String>.makeStream()
        let consumer = Task {
            defer { delivered.continuation.finish() }
            for try await line in stream.lines {
                delivered.continuation.yield(line)
            }
        }
        // Once the first line is through, the consumer waits in the base for more.
        var lines = delivered.stream.makeAsyncIterator()
        #expect(await lines.next() == "first")
        consumer.cancel()
        // AsyncStream ends quietly on cancellation; the line sequence says why it ended, and
        // "part" is not passed off as a last line.
        await #expect { try await consumer.value } throws: { isCancellation($0) }
        #expect(await lines.next() == nil)
        continuation.finish()
    }

    @Test func cancellationIsReportedAsSuchWhenTheBaseFailsWithAnErrorOfItsOwn() async throws {
        // Like a URLSession bridge whose task, cancelled first, completes with URLError(.cancelled).
        struct FailsWhenCancelled: AsyncSequence, Sendable {
            let entered: AsyncStream<Void>.Continuation
            struct Iterator: AsyncIteratorProtocol {
                let entered: AsyncStream<Void>.Continuation
                mutating func next() async throws -> Data? {
                    entered.yield()
                    try? await Task.sleep(nanoseconds: 60_000_000_000)
                    throw BaseFailure(code: 9)
                }
            }
            func makeAsyncIterator() -> Iterator { Iterator(entered: entered) }
        }
        let (entered, signal) = AsyncStream<Void>.makeStream()
        let consumer = Task {
            for try await _ in FailsWhenCancelled(entered: signal).lines {}
        }
        // Cancelled only once it waits in the base, so that the base's own error is what comes back.
        var waiting = entered.makeAsyncIterator()
        _ = await waiting.next()
        consumer.cancel()
        await #expect { try await consumer.value } throws: { isCancellation($0) }
    }

    @Test func nothingIsDeliveredAfterCancellationEvenFromTheCurrentChunk() async throws {
        let task = Task {
            var iterator = Chunks(["a\nb\nc\n"]).lines.makeAsyncIterator()
            let first = try await iterator.next()
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                let second = try await iterator.next()
                return (first, second, false)
            } catch NetworkError.cancelled {
                return (first, nil, true)
            }
        }
        let (first, second, cancelled) = try await task.value
        #expect(first == "a")
        #expect(second == nil)
        #expect(cancelled)
    }

    @Test func aCancelledStreamDoesNotDeliverItsUnfinishedLastLine() async throws {
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        continuation.yield(Data("whole\npartial".utf8))
        let task = Task {
            var iterator = stream.lines.makeAsyncIterator()
            let first = try await iterator.next()
            withUnsafeCurrentTask { $0?.cancel() }
            continuation.finish()
            return (first, try? await iterator.next())
        }
        let (first, next) = try await task.value
        #expect(first == "whole")
        #expect(next == nil)
    }

    @Test func theEventIteratorKeepsTheLastEventIDAndRetryForAReconnection() async throws {
        var iterator = Chunks(["retry: 250\nid: 1\ndata: a\n\nid: 2\n\nid: 3\ndata: cut"]).events.makeAsyncIterator()
        #expect(try await iterator.next()?.data == "a")
        #expect(try await iterator.next() == nil)
        #expect(iterator.lastEventID == "2")
        #expect(iterator.retry == 250)
    }

    @Test func theSequencesAreSendableWhenTheirBaseIs() {
        func requireSendable<T: Sendable>(_: T) {}
        let base = AsyncStream<Data> { nil }
        requireSendable(base.lines)
        requireSendable(base.events)
        requireSendable(base.decodeLines(Item.self))
    }
}
