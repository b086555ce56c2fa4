import Foundation
import NetworkLayer
import NetworkLayerCurl
import Testing
import TestSupport
import TransportTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Uploads and downloads stream with progress, under the contract of `HTTPTransport`: a 2xx body
/// goes to the file (appended on a 206 that continues it), any other stays in memory and leaves
/// the file alone.
@Suite("CurlTransport uploads and downloads", .needsFixtureServer)
struct CurlTransferTests {
    /// The SHA-256 the fixture server gives for its `/bytes/n?seed=s` stream.
    private func digest(bytes: Int, seed: String) async throws -> String {
        let (data, _) = try await CurlTransport().send(fixtureRequest("/bytes/\(bytes)/sha256?seed=\(seed)"))
        return try jsonObject(data)["sha256"] as? String ?? ""
    }

    @Test(arguments: TestTransport.all)
    func anUploadFromDataSendsItAndReportsEveryByte(_ transport: TestTransport) async throws {
        let body = Data.bytePattern(count: 1_000_000)
        var request = fixtureRequest("/upload", method: "POST")
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let progress = ProgressLog()
        let (data, response) = try await transport.make().upload(request, body: .data(body), progress: progress.handler)
        #expect(response.statusCode == 200)
        let echo = try jsonObject(data)
        #expect(echo["size"] as? Int == body.count)
        #expect(echo["sha256"] as? String == (try sha256(of: body)))
        #expect(echo["content_type"] as? String == "application/octet-stream")
        #expect(progress.last?.completed == Int64(body.count))
    }

    @Test func anUploadFromAFileStreamsItWithProgress() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("upload.bin")
        let body = Data.bytePattern(count: 8_000_000, step: 7)
        try body.write(to: file)
        let progress = ProgressLog()
        let (data, _) = try await CurlTransport().upload(fixtureRequest("/upload", method: "PUT"), body: .file(file), progress: progress.handler)
        let echo = try jsonObject(data)
        #expect(echo["size"] as? Int == body.count)
        #expect(echo["sha256"] as? String == (try sha256(ofFile: file)))
        #expect(progress.count > 10)
        #expect(progress.all.allSatisfy { $0.total == Int64(body.count) })
        #expect(progress.last?.completed == Int64(body.count))
    }

    @Test func anUploadFromAMissingFileFailsBeforeSending() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")
        let error = await urlError {
            try await CurlTransport().upload(fixtureRequest("/upload", method: "POST"), body: .file(missing), progress: { _, _ in })
        }
        #expect(error?.code == .fileDoesNotExist)
    }

    @Test(arguments: TestTransport.all)
    func aDownloadWritesTheBodyToTheFileWithProgress(_ transport: TestTransport) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("download.bin")
        let size = 3_000_000
        let progress = ProgressLog()
        let (data, response) = try await transport.make().download(
            fixtureRequest("/bytes/\(size)?seed=dl"), to: file, progress: progress.handler)
        #expect(response.statusCode == 200)
        #expect(data.isEmpty)
        #expect(try sha256(ofFile: file) == (try await digest(bytes: size, seed: "dl")))
        #expect(progress.last?.completed == Int64(size))
        #expect(progress.last?.total == Int64(size))
    }

    @Test(arguments: TestTransport.all)
    func aResumedDownloadAppendsThe206ThatContinuesTheFile(_ transport: TestTransport) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("resumed.bin")
        let size = 1_000_000
        let (head, _) = try await CurlTransport().send(fixtureRequest("/bytes/400000?seed=resume"))
        try head.write(to: file)

        var request = fixtureRequest("/bytes/\(size)?seed=resume")
        request.setValue("bytes=400000-", forHTTPHeaderField: "Range")
        let progress = ProgressLog()
        let (_, response) = try await transport.make().download(request, to: file, progress: progress.handler)
        #expect(response.statusCode == 206)
        #expect(try sha256(ofFile: file) == (try await digest(bytes: size, seed: "resume")))
        #expect(progress.last?.completed == Int64(size))
    }

    @Test(arguments: TestTransport.all)
    func a206ThatDoesNotContinueTheFileFails(_ transport: TestTransport) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("mismatch.bin")
        try Data(count: 10).write(to: file)
        var request = fixtureRequest("/bytes/1000")
        request.setValue("bytes=500-", forHTTPHeaderField: "Range")
        await #expect(throws: DownloadError.unexpectedRange(start: 500, expected: 10)) {
            try await transport.make().download(request, to: file, progress: { _, _ in })
        }
        #expect(try Data(contentsOf: file) == Data(count: 10))
    }

    @Test(arguments: TestTransport.all)
    func aDownloadAnsweredWithAnErrorStatusLeavesTheFileAlone(_ transport: TestTransport) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("kept.txt")
        try Data("keep me".utf8).write(to: file)
        let (data, response) = try await transport.make().download(fixtureRequest("/status/404?body=gone"), to: file, progress: { _, _ in })
        #expect(response.statusCode == 404)
        #expect(String(decoding: data, as: UTF8.self) == "gone")
        #expect(try Data(contentsOf: file) == Data("keep me".utf8))
    }

    @Test func aDownloadIntoAMissingFolderFailsWithCannotWrite() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("no-folder-\(UUID().uuidString)/x.bin")
        await #expect(throws: DownloadError.self) {
            try await CurlTransport().download(fixtureRequest("/bytes/100"), to: file, progress: { _, _ in })
        }
    }
}
