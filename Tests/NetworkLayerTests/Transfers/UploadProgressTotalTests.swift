import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The last progress event of an upload reports its whole body, even when the transport
/// reported none: a large form's size was measured on its file after the file was removed, so
/// the event said 0 bytes (found from outside, 2026-11-26).
@Suite("The last progress event of an upload")
struct UploadProgressTotalTests {
    /// Answers 200 at once and reports no progress, as a transport of a user's may.
    private struct SilentTransport: HTTPTransport {
        func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws
            -> StreamedResponse
        {
            guard let url = request.url, let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)
            else { throw URLError(.badURL) }
            return StreamedResponse(response: response, body: BodyStream(Data()))
        }
    }

    @Test func aLargeFormsLastEventReportsItsWholeSize() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A sparse part just past the threshold: the form goes through a file.
        let part = folder.appendingPathComponent("part.bin")
        #expect(FileManager.default.createFile(atPath: part.path, contents: nil))
        let writer = try FileHandle(forWritingTo: part)
        try writer.truncate(atOffset: MultipartFormData.streamingThreshold + 1)
        try writer.close()
        var form = MultipartFormData()
        try form.append(fileAt: part, name: "file")

        let events = Locked<[TransferProgress]>([])
        let router = Router<TestEndpoint>(transport: SilentTransport(), callbackQueue: DispatchQueue(label: "tests"))
        _ = try await router.request(.offline("upload", .post, task: .uploadMultipart(form))) { progress in
            events.withLock { $0.append(progress) }
        }
        let last = try #require(events.withLock { $0.last })
        #expect(last.completedBytes == Int64(form.contentLength))
        #expect(last.fractionCompleted == 1)
    }
}
