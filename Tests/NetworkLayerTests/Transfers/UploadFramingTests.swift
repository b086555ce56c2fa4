import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How each transport frames an upload's body, as the fixture's /echo received it: the same
/// bytes either way, announced with `Content-Length` or sent chunked.
@Suite("Upload framing", .needsFixtureServer)
struct UploadFramingTests {
    private func echoedUpload(_ task: HTTPTask, over transport: TestTransport) async throws -> (size: Int?, headers: [String: String]) {
        var endpoint = TestEndpoint.fixture("echo", .post)
        endpoint.task = task
        let echo = try jsonObject(try await transport.router().request(endpoint).data)
        return (echo["body_size"] as? Int, echo["headers"] as? [String: String] ?? [:])
    }

    @Test(arguments: TestTransport.all)
    func aFileUploadIsChunkedThroughURLSessionAndAnnouncedThroughCurl(_ transport: TestTransport) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("body.bin")
        try Data(repeating: 9, count: 10_000).write(to: file)

        let (size, headers) = try await echoedUpload(.uploadFile(file, contentType: "application/octet-stream"), over: transport)

        #expect(size == 10_000)
        switch transport {
        case .urlSession:
            // A known difference (README, "Choosing a transport on Linux"): FoundationNetworking
            // traps when a file it reads itself is cancelled, so the file goes as a stream, chunked.
            #expect(headers["transfer-encoding"] == "chunked")
            #expect(headers["content-length"] == nil)
        case .curl:
            #expect(headers["content-length"] == "10000")
            #expect(headers["transfer-encoding"] == nil)
        }
    }

    /// Foundation and libcurl both announce a POST body without a type as a URL-encoded form;
    /// a file or raw bytes are not one.
    @Test(arguments: TestTransport.all)
    func aBodyWithoutATypeIsSentAsOctetStreamNotAsAForm(_ transport: TestTransport) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("body.bin")
        try Data(repeating: 7, count: 2_000).write(to: file)
        for task in [
            HTTPTask.uploadFile(file), .uploadData(Data(repeating: 1, count: 100)), .requestData(Data("raw".utf8), contentType: nil),
        ] {
            let (_, headers) = try await echoedUpload(task, over: transport)
            #expect(headers["content-type"] == "application/octet-stream", "\(task)")
        }
    }

    @Test(arguments: TestTransport.all)
    func anUploadFromMemoryIsAnnouncedWithItsLength(_ transport: TestTransport) async throws {
        let (size, headers) = try await echoedUpload(.uploadData(Data(repeating: 1, count: 5_000)), over: transport)
        #expect(size == 5_000)
        #expect(headers["content-length"] == "5000")
        #expect(headers["transfer-encoding"] == nil)
    }
}
