import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How each transport frames an upload's body, as the fixture received it: announced with
/// `Content-Length` whenever its size is known.
@Suite("Upload framing", .needsFixtureServer)
struct UploadFramingTests {
    private func echoedUpload(_ task: HTTPTask, over transport: TestTransport) async throws -> (size: Int?, headers: [String: String]) {
        var endpoint = TestEndpoint.fixture("echo", .post)
        endpoint.task = task
        let echo = try jsonObject(try await transport.router().request(endpoint).data)
        return (echo["body_size"] as? Int, echo["headers"] as? [String: String] ?? [:])
    }

    /// Servers in the S3 style answer `411 Length Required` to a chunked upload: a body whose
    /// size is known goes with its length (issue 23, item 9; a file went chunked through
    /// URLSessionTransport before).
    @Test(arguments: TestTransport.all)
    func aFileUploadGoesWithItsLengthToAServerThatRequiresOne(_ transport: TestTransport) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("body.bin")
        let body = Data.bytePattern(count: 300_000, step: 31)
        try body.write(to: file)

        let echo = try await lengthRequiredUpload(.uploadFile(file), over: transport)

        #expect(echo["size"] as? Int == body.count)
        #expect(echo["content_length"] as? String == "300000")
        #expect(echo["sha256"] as? String == (try sha256(of: body)))
        #expect(echo["content_type"] as? String == "application/octet-stream")
    }

    @Test(arguments: TestTransport.all)
    func aMultipartFormWrittenToAFileGoesWithItsLength(_ transport: TestTransport) async throws {
        var form = MultipartFormData()
        form.append("caption", name: "title")
        form.append(Data(repeating: 0x5A, count: Int(MultipartFormData.streamingThreshold) + 1024), name: "blob", fileName: "b.bin")
        #expect(form.contentLength > MultipartFormData.streamingThreshold)

        let echo = try await lengthRequiredUpload(.uploadMultipart(form), over: transport)

        #expect(echo["size"] as? Int == Int(form.contentLength))
        #expect(echo["content_length"] as? String == String(form.contentLength))
    }

    #if canImport(FoundationNetworking)
    /// The documented limit (``URLSessionTransport/largestFileSentWithItsLength``): past it,
    /// FoundationNetworking can only stream a file, chunked, and such a server refuses it.
    @Test func aFileLargerThanTheLimitGoesChunkedThroughURLSessionOnLinux() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.bin")
        try Data(repeating: 3, count: Int(URLSessionTransport.largestFileSentWithItsLength) + 1).write(to: file)
        var endpoint = TestEndpoint.fixture("length-required", .put)
        endpoint.task = .uploadFile(file)
        let result: Result<Response, any Error>
        do {
            result = .success(try await TestTransport.urlSession.router().request(endpoint))
        } catch {
            result = .failure(error)
        }
        guard case .failure(NetworkError.unacceptableStatusCode(let response)) = result else {
            Issue.record("expected a 411, got \(result)")
            return
        }
        #expect(response.statusCode == 411)
    }
    #endif

    private func lengthRequiredUpload(_ task: HTTPTask, over transport: TestTransport) async throws -> [String: Any] {
        var endpoint = TestEndpoint.fixture("length-required", .put)
        endpoint.task = task
        let response = try await transport.router().request(endpoint)
        return try jsonObject(response.data)
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
