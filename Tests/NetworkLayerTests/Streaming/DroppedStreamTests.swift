import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A stream the server drops in the middle of its body (`/sse/resumable`, which closes the
/// connection without the chunked coding's last chunk): the reader gets what was sent before
/// the drop, then ``NetworkError/transport(_:)``, never a quiet end that would pass a truncated
/// body off as whole. Over each transport, as raw chunks and as lines.
@Suite("Streaming, dropped by the server", .needsStreamServer, .serialized)
struct DroppedStreamTests {
    /// Where in the chunked coding the connection goes.
    enum Cut: String, CaseIterable, Sendable, CustomStringConvertible {
        /// After a whole chunk: the last chunk never comes.
        case chunk
        /// Inside a chunk: fewer bytes arrive than its size line announced.
        case inside

        var description: String { rawValue }
    }

    /// The body the server sends before it closes the connection: two whole events, then half
    /// of the third.
    static let sentBeforeTheDrop = "id: 1\ndata: event 1\n\nid: 2\ndata: event 2\n\nid: 3\ndata: cut"

    /// Its lines that are whole; the unterminated "data: cut" is not one of them.
    static let wholeLines = ["id: 1", "data: event 1", "", "id: 2", "data: event 2", "", "id: 3"]

    private func stream(_ router: Router<TestEndpoint>, key: String, cut: Cut) -> ResponseStream {
        // An idle timeout far below the default minute: a transport that missed the drop and
        // waited would fail the test with timedOut instead of hanging it.
        router.stream(
            RouterStreamTests.endpoint("sse/resumable?key=\(key)&events=5&drop_after=2&cut=\(cut)"),
            options: StreamOptions(idleTimeout: TestTiming.requestTimeout))
    }

    /// How many times the stream was requested, as the server counted: once, so what the reader
    /// got came from one connection, neither retried nor resumed.
    private func connections(_ key: String) async throws -> Int {
        let stats = try await Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "stats"))
            .request(RouterStreamTests.endpoint("sse/resumable/stats?key=\(key)"))
        return try jsonObject(stats.data)["connections"] as? Int ?? -1
    }

    /// `error` is ``NetworkError/transport(_:)`` with `networkConnectionLost`, as both transports
    /// report a connection closed before the body's end; records what it was otherwise.
    private func expectTransportError(_ error: (any Error)?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case NetworkError.transport(let urlError)? = error else {
            Issue.record("expected NetworkError.transport, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(urlError.code == .networkConnectionLost, sourceLocation: sourceLocation)
    }

    @Test(arguments: TestTransport.all, Cut.allCases)
    func rawChunksSentBeforeTheDropArriveThenATransportError(_ transport: TestTransport, _ cut: Cut) async throws {
        let key = "drop-\(UUID().uuidString)"
        let router = RouterStreamTests.router(transport)
        let stream = stream(router, key: key, cut: cut)
        let (chunks, error) = await collect(stream)
        #expect(String(decoding: chunks.reduce(Data(), +), as: UTF8.self) == Self.sentBeforeTheDrop)
        expectTransportError(error)
        #expect(try await stream.response().statusCode == 200)
        #expect(try await connections(key) == 1)
        #expect(await eventually { router.inFlightCount == 0 })
    }

    @Test(arguments: TestTransport.all, Cut.allCases)
    func wholeLinesSentBeforeTheDropArriveThenATransportError(_ transport: TestTransport, _ cut: Cut) async throws {
        let key = "drop-\(UUID().uuidString)"
        let router = RouterStreamTests.router(transport)
        let (lines, error) = await collect(stream(router, key: key, cut: cut).lines)
        #expect(lines == Self.wholeLines)
        expectTransportError(error)
        #expect(try await connections(key) == 1)
        #expect(await eventually { router.inFlightCount == 0 })
    }

    /// The same route, with the drop only after the last event, ends without an error: the
    /// error above is the drop's, not the route's.
    @Test(arguments: TestTransport.all)
    func theSameRouteEndedCleanlyIsNoError(_ transport: TestTransport) async throws {
        let key = "whole-\(UUID().uuidString)"
        let router = RouterStreamTests.router(transport)
        let stream = router.stream(
            RouterStreamTests.endpoint("sse/resumable?key=\(key)&events=2&drop_after=2"), options: StreamOptions(idleTimeout: TestTiming.requestTimeout))
        let (lines, error) = await collect(stream.lines)
        #expect(error == nil)
        #expect(lines == Array(Self.wholeLines.prefix(6)))
        #expect(try await connections(key) == 1)
    }
}
