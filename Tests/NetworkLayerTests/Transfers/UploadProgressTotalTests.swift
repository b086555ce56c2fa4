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
            try .answering(request, status: 200)
        }
    }

    @Test func aLargeFormsLastEventReportsItsWholeSize() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let form = try largeForm(in: folder)

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
