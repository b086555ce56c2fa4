import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the stream fixture server saw of the requests made under one key (`/sse/connections`).
struct EventStreamLog {
    let methods: [String]
    let bodies: [String?]
    let lastEventIDs: [String?]
    let times: [Double]

    var connections: Int { methods.count }

    /// The log of `key`, read from the stream fixture server.
    static func of(_ key: String) async throws -> EventStreamLog {
        let base = try #require(TestServers.stream)
        let url = try #require(URL(string: "\(base.absoluteString)/sse/connections?key=\(key)"))
        let object = try jsonObject(try await URLSession.shared.data(from: url).0)
        return EventStreamLog(
            methods: object["methods"] as? [String] ?? [],
            bodies: (object["bodies"] as? [Any] ?? []).map { $0 as? String },
            lastEventIDs: (object["last_event_ids"] as? [Any] ?? []).map { $0 as? String },
            times: object["times"] as? [Double] ?? [])
    }
}

/// A fresh key for one test's requests in the fixture server's log.
func eventStreamKey(_ name: String) -> String {
    "\(name)-\(UUID().uuidString)"
}

/// Reads `events` for at most `window` seconds: what arrived, and how the stream ended
/// (`nil` error: by itself; `timedOut`: the window closed first and the reader was cancelled).
func read<S: AsyncSequence & Sendable>(
    _ events: S, for window: TimeInterval
) async -> (events: [S.Element], error: (any Error)?, timedOut: Bool) where S.Element: Sendable {
    let received = Locked<[S.Element]>([])
    let reader = Task {
        do {
            for try await event in events { received.withLock { $0.append(event) } }
            return (any Error)?.none
        } catch {
            return error
        }
    }
    let timer = Task {
        try? await Task.sleep(nanoseconds: UInt64(window * 1e9))
        let late = !Task.isCancelled
        if late { reader.cancel() }
        return late
    }
    let error = await reader.value
    timer.cancel()
    let timedOut = await timer.value
    return (received.withLock { $0 }, error, timedOut)
}
