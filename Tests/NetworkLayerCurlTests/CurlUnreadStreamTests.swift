import Foundation
import NetworkLayer
import Testing
import TestSupport
@testable import NetworkLayerCurl

/// A streamed response that its caller drops unread stops its transfer: it held the transfer
/// (paused once its buffer was full), the connection, and the engine's thread after the
/// transport itself was gone (found from outside, 2026-11-26).
@Suite("CurlTransport, a stream dropped unread", .needsFixtureServer)
struct CurlUnreadStreamTests {
    @Test func theTransferEndsAndTheEngineWithIt() async throws {
        weak var weakEngine: CurlEngine?
        do {
            let transport = CurlTransport()
            let engine = try transport.engine
            weakEngine = engine
            do {
                let streamed = try await transport.execute(fixtureRequest("/bytes/8000000"), body: nil, progress: { _, _ in })
                #expect(streamed.response.statusCode == 200)
            }
            let stopped = await eventually { engine.activeTransferCount == 0 }
            #expect(stopped, "the transfer of a dropped stream still runs: \(engine.activeTransferCount)")
        }
        let ended = await eventually { weakEngine == nil || weakEngine?.hasThreadEnded == true }
        #expect(ended, "the engine outlived its transport")
    }
}
