import Foundation
@testable import NetworkLayer
import NetworkLayerCurl
import Testing
import TestSupport
import TransportTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The limit on the other bodies kept in memory: an upload's response and a download's error
/// body (a body received whole by a session of the caller's: `ResponseSizeLimitCallerSessionTests`). A limit of 1 MiB keeps these in the
/// test process. One test at a time, and never beside `ResponseSizeLimitTests`: while an endless
/// body lasts, FoundationNetworking's one work queue is busy with it, and the caller's session's
/// request beside them missed its 10 s deadline in the fresh-clone run at 538c5e0 (it had taken
/// from 0.09 to 41 s in earlier runs; 0.013–0.016 s alone, in 15 runs). A file of its own: Swift
/// Testing's `--filter` also matches a test's source file, so while this suite sat in
/// ResponseSizeLimitTests.swift, Scripts/test's isolated run of `ResponseSizeLimitTests` ran it
/// beside that suite, and two of its requests missed their deadlines (fresh-clone run at fb992a2).
@Suite("Response size limit on every body in memory", .needsFixtureServer, .serialized)
struct ResponseSizeLimitPathTests {
    static let limit = 1_048_576

    func router(_ transport: TestTransport) -> Router<TestEndpoint> {
        let made: any HTTPTransport
        switch transport {
        case .urlSession: made = URLSessionTransport(maximumResponseSize: Self.limit)
        case .curl: made = CurlTransport(configuration: .init(maximumResponseSize: Self.limit))
        }
        return Router(transport: made, callbackQueue: DispatchQueue(label: "limit"))
    }

    @Test(arguments: TestTransport.all)
    func anUploadsEndlessResponseIsStoppedAtTheLimit(_ transport: TestTransport) async throws {
        var endpoint = TestEndpoint.fixture("limits/endless", .post)
        endpoint.task = .uploadData(Data(repeating: 1, count: 1_000))
        await router(transport).expectTooLarge(endpoint, limit: Self.limit)
    }

    @Test(arguments: TestTransport.all)
    func aDownloadsEndlessErrorBodyIsStoppedAtTheLimit(_ transport: TestTransport) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("limit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        var endpoint = TestEndpoint.fixture("limits/endless")
        endpoint.task = .download(DownloadDestination(file), urlParameters: ["status": 500])
        await router(transport).expectTooLarge(endpoint, limit: Self.limit)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}
