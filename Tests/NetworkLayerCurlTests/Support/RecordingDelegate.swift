import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

import NetworkLayer
@testable import NetworkLayerCurl

/// Records every event of one engine transfer, and pauses body delivery when asked to.
final class RecordingDelegate: CurlTransferDelegate, @unchecked Sendable {
    enum Event: Equatable {
        case head(Int)
        case body(Int)
        case sent(Int64)
        case complete(URLError.Code?)
    }

    private let lock = NSLock()
    private var events: [Event] = []
    private var pauseNextChunk: Bool

    init(pauseFirstChunk: Bool = false) {
        self.pauseNextChunk = pauseFirstChunk
    }

    var all: [Event] { lock.withLock { events } }
    var completions: Int {
        all.filter {
            if case .complete = $0 { return true }; return false
        }.count
    }
    var bodyBytes: Int {
        all.reduce(0) {
            if case .body(let count) = $1 { return $0 + count }; return $0
        }
    }

    func transferDidReceive(head: ResponseHead) -> CurlDisposition {
        lock.withLock { events.append(.head(head.statusCode)) }
        return .proceed
    }

    func transferDidReceive(body: UnsafeRawBufferPointer) -> CurlDisposition {
        lock.withLock {
            if pauseNextChunk {
                // libcurl keeps this chunk and hands it over again on resumption: not counted.
                pauseNextChunk = false
                return .pause
            }
            events.append(.body(body.count))
            return .proceed
        }
    }

    func transferDidSend(_ sent: Int64, of total: Int64) {
        lock.withLock { events.append(.sent(sent)) }
    }

    func transferDidComplete(error: URLError?) {
        lock.withLock { events.append(.complete(error?.code)) }
    }
}
