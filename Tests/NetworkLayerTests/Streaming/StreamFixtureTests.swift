import Foundation
import NetworkLayer
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The streaming fixture server (Tests/Fixtures/stream_server.py) read over the network, through
/// the parsers: proof that the routes send what their docstring says, and that the views work
/// on chunks as Foundation delivers them.
@Suite("Streaming fixture server", .needsStreamServer, .serialized)
struct StreamFixtureTests {
    /// What a client reads from /sse/sample (SAMPLE_LINES in stream_server.py).
    static let sampleEvents = [
        ServerSentEvent(type: "greeting", data: "hello\n world", id: "1", retry: 1500),
        ServerSentEvent(data: "é 🎬 ünïcödé", id: "2", retry: 1500),
        ServerSentEvent(data: "", id: "2", retry: 1500),
        ServerSentEvent(type: "score", data: "{\"home\": 1, \"away\": 0}", id: "3", retry: 1500),
        ServerSentEvent(data: "last", id: "3", retry: 1500),
    ]

    struct Item: Decodable, Equatable {
        let id: Int
        let name: String
    }

    private func url(_ pathAndQuery: String) throws -> URL {
        try #require(TestServers.stream.flatMap { URL(string: pathAndQuery, relativeTo: $0) })
    }

    /// The body and head of a whole response, through a plain completion-handler data task.
    private func fetch(_ pathAndQuery: String) async throws -> (Data, HTTPURLResponse) {
        let request = URLRequest(url: try url(pathAndQuery))
        return try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let data, let response = response as? HTTPURLResponse {
                    continuation.resume(returning: (data, response))
                } else {
                    continuation.resume(throwing: error ?? URLError(.badServerResponse))
                }
            }.resume()
        }
    }

    @Test func theSampleArrivesChunkedAsTheBytesItsDocstringDescribes() async throws {
        let (data, response) = try await fetch("/sse/sample?newline=crlf&chunk=1")
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/event-stream; charset=utf-8")
        #expect(response.value(forHTTPHeaderField: "Content-Length") == nil)
        #expect(Array(data.prefix(3)) == [0xEF, 0xBB, 0xBF])
        #expect(String(decoding: data.dropFirst(3), as: UTF8.self).hasPrefix(": stream of the fixture server\r\nretry: 1500\r\n"))
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        try parser.append(data) { events.append($0) }
        #expect(events == Self.sampleEvents)
    }

    @Test(arguments: ["lf", "crlf", "cr", "mixed"])
    func theSampleGivesTheSameEventsWithEveryLineEnd(newline: String) async throws {
        let (_, chunks) = try await StreamingClient.open(try url("/sse/sample?newline=\(newline)&chunk=7"))
        let events = await collect(chunks.events)
        #expect(events.error == nil)
        #expect(events.values == Self.sampleEvents)
    }

    @Test(arguments: [1, 2, 3, 33, 34, 46, 47, 100])
    func theSampleGivesTheSameEventsCutAtAGivenByte(split: Int) async throws {
        let (_, chunks) = try await StreamingClient.open(try url("/sse/sample?newline=crlf&split=\(split)&delay_ms=5"))
        #expect(await collect(chunks.events).values == Self.sampleEvents)
    }

    @Test func commentsOfTheSampleAreDeliveredWhenAskedFor() async throws {
        let (_, chunks) = try await StreamingClient.open(try url("/sse/sample"))
        let comments = await collect(chunks.events(includesComments: true)).values.filter(\.isComment)
        #expect(comments.map(\.data) == ["stream of the fixture server", "keep-alive"])
    }

    @Test func aDroppedStreamResumesAfterTheLastEventIDUntilTheServerSays204() async throws {
        let key = UUID().uuidString
        var lastEventID = ""
        var ids: [String] = []
        var drops = 0
        for _ in 0..<10 {
            let headers = lastEventID.isEmpty ? [:] : ["Last-Event-ID": lastEventID]
            let (response, chunks) = try await StreamingClient.open(try url("/sse/resumable?key=\(key)&events=7&drop_after=3"), headers: headers)
            if response.statusCode == 204 { break }
            var events = chunks.events(lastEventID: lastEventID).makeAsyncIterator()
            do {
                while let event = try await events.next() { ids.append(event.id) }
            } catch {
                drops += 1
            }
            lastEventID = events.lastEventID
        }
        #expect(ids == ["1", "2", "3", "4", "5", "6", "7"])
        #expect(drops == 2)
        let (stats, _) = try await fetch("/sse/resumable/stats?key=\(key)")
        let object = try jsonObject(stats)
        #expect(object["connections"] as? Int == 4)
        #expect((object["last_event_ids"] as? [Any])?.map { $0 as? String } == [nil, "3", "6", "7"])
    }

    @Test func theRetryRouteSetsTheReconnectionTime() async throws {
        let (_, chunks) = try await StreamingClient.open(try url("/sse/retry?ms=250"))
        #expect(await collect(chunks.events).values == [ServerSentEvent(data: "retry set", retry: 250)])
    }

    @Test func theStopRouteAnswers204WithoutABody() async throws {
        let (data, response) = try await fetch("/sse/stop")
        #expect(response.statusCode == 204)
        #expect(data.isEmpty)
    }

    @Test func theErrorRouteAnswers500WithAJSONBody() async throws {
        let (data, response) = try await fetch("/sse/error")
        #expect(response.statusCode == 500)
        #expect(try jsonObject(data)["error"] as? String == "stream unavailable")
    }

    @Test func cancellingTheConsumerWhileTheServerStallsEndsTheSequence() async throws {
        let (_, chunks) = try await StreamingClient.open(try url("/sse/stall"))
        let first = AsyncStream<String>.makeStream()
        let consumer = Task {
            for try await event in chunks.events { first.continuation.yield(event.data) }
        }
        var received = first.stream.makeAsyncIterator()
        #expect(await received.next() == "first")
        consumer.cancel()
        await #expect { try await consumer.value } throws: { isCancellation($0) }
    }

    @Test func ndjsonGivesEveryObject() async throws {
        let (response, chunks) = try await StreamingClient.open(try url("/ndjson?count=1000&newline=crlf&chunk=1000"))
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/x-ndjson")
        let items = await collect(chunks.decodeLines(Item.self))
        #expect(items.error == nil)
        #expect(items.values.map(\.id) == Array(1...1000))
        #expect(items.values.last?.name == "item 1000")
    }

    @Test func ndjsonWithABadLineFailsAtThatLineAfterTheObjectsBeforeIt() async throws {
        let (_, chunks) = try await StreamingClient.open(try url("/ndjson?count=6&bad_line=4&chunk=5"))
        let items = await collect(chunks.decodeLines(Item.self))
        #expect(items.values.map(\.id) == [1, 2, 3])
        guard case NetworkError.stream(.decoding(let line, _))? = items.error else {
            Issue.record("expected a decoding error, got \(String(describing: items.error))")
            return
        }
        #expect(line == 4)
    }

    @Test func theEndlessStreamSendsExactlyTheEventsAskedFor() async throws {
        let (_, chunks) = try await StreamingClient.open(try url("/sse/endless?events=20000&size=50"))
        var count = 0
        var wrongSize = 0
        for try await event in chunks.events {
            count += 1
            if event.data.utf8.count != 50 { wrongSize += 1 }
        }
        #expect(count == 20_000)
        #expect(wrongSize == 0)
    }
}
