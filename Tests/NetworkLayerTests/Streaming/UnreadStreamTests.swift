import Foundation
import Testing
import TestSupport
@testable import NetworkLayer

/// A ``BodyStream`` dropped without being read stops its transfer.
///
/// Found from outside (2026-11-26): only an iterator stopped the transfer when it went away, so
/// `_ = try await transport.execute(request, …)` (or a wrapper that dropped the response on an
/// error path) kept the transfer, its connection and, on CurlTransport, the engine's thread for
/// as long as the process lived. `CurlUnreadStreamTests` shows it over the wire.
@Suite("Unread streams")
struct UnreadStreamTests {
    private func buffer(cancelled: Locked<Int>) -> BodyBuffer {
        let buffer = BodyBuffer()
        buffer.connect(onResume: {}, onCancel: { cancelled.withLock { $0 += 1 } })
        _ = buffer.write(Data("first".utf8))
        return buffer
    }

    @Test func aStreamDroppedUnreadStopsItsTransfer() {
        let cancelled = Locked(0)
        do {
            let stream = BodyStream(buffer(cancelled: cancelled))
            let copy = stream
            _ = copy
        }
        #expect(cancelled.withLock { $0 } == 1)
    }

    @Test func anIteratorKeepsTheTransferAfterTheStreamIsGone() async throws {
        let cancelled = Locked(0)
        var iterator: BodyStream.Iterator?
        do {
            iterator = BodyStream(buffer(cancelled: cancelled)).makeAsyncIterator()
        }
        #expect(cancelled.withLock { $0 } == 0, "the stream's last copy went, but its iterator still reads")
        #expect(try await iterator?.next() == Data("first".utf8))
        iterator = nil
        #expect(cancelled.withLock { $0 } == 1)
    }

    /// As before: leaving the loop stops the transfer, whoever still holds the stream.
    @Test func breakingOutOfTheLoopStillStopsTheTransfer() async throws {
        let cancelled = Locked(0)
        let stream = BodyStream(buffer(cancelled: cancelled))
        for try await _ in stream { break }
        #expect(cancelled.withLock { $0 } == 1)
        withExtendedLifetime(stream) {}
    }
}
