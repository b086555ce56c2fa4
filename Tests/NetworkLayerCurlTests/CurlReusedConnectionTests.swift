import Foundation
import NetworkLayer
import NetworkLayerCurl
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request on a kept-alive connection that the server closes without answering is sent again
/// by libcurl on a new connection; the body must go with it (the seek callback rewinds it).
/// FoundationNetworking sends the copy without its body and waits until the deadline.
///
/// `/once-per-connection` answers the first request of each connection and closes the
/// connection, unanswered, on the second: the second request below always meets that.
@Suite("CurlTransport on a reused connection closed by the server", .needsFixtureServer)
struct CurlReusedConnectionTests {
    @Test func aPOSTWithAnInMemoryBodyIsSentAgainWithItsBody() async throws {
        let transport = CurlTransport()
        _ = try await transport.send(fixtureRequest("/once-per-connection", method: "POST", body: Data("first".utf8)))
        let body = Data("second body".utf8)
        // No time bound in this parallel suite: a copy sent without its body would leave the
        // server waiting for it, and the request would fail at its 10 s timeout, not succeed.
        let (data, response) = try await transport.send(fixtureRequest("/once-per-connection", method: "POST", body: body))
        #expect(response.statusCode == 200)
        let echo = try jsonObject(data)
        #expect(echo["size"] as? Int == body.count)
        #expect(echo["sha256"] as? String == (try sha256(of: body)))
    }

    @Test func anUploadFromAFileIsSentAgainWholeWithProgressThatNeverGoesBack() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("body.bin")
        let body = Data.bytePattern(count: 300_000, step: 31)
        try body.write(to: file)

        let transport = CurlTransport()
        _ = try await transport.send(fixtureRequest("/once-per-connection", method: "POST", body: Data("first".utf8)))
        let progress = ProgressLog()
        let (data, _) = try await transport.upload(
            fixtureRequest("/once-per-connection", method: "PUT"), body: .file(file), progress: progress.handler)
        let echo = try jsonObject(data)
        #expect(echo["size"] as? Int == body.count)
        #expect(echo["method"] as? String == "PUT")
        #expect(echo["sha256"] as? String == (try sha256(of: body)))
        let sent = progress.all.map(\.completed)
        #expect(sent == sent.sorted())
        #expect(sent.last == Int64(body.count))
    }

    @Test func everyRequestOfASeriesOnClosingConnectionsSucceeds() async throws {
        let transport = CurlTransport()
        for index in 0..<20 {
            let body = Data("request \(index)".utf8)
            let (data, _) = try await transport.send(fixtureRequest("/once-per-connection", method: "POST", body: body))
            #expect(try jsonObject(data)["size"] as? Int == body.count)
        }
    }
}
