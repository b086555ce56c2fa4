import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A large multipart form is written to a file while its request is built; a request refused
/// after that, before anything is sent, removes the file too. Found from outside (2026-11-26): a
/// stream whose reconnection sent back a `Last-Event-ID` that is not a valid header value left
/// the form's file in the working folder. In a child process, whose working folder is its own.
@Suite("Multipart files of requests refused before sending")
struct MultipartFileCleanupTests {
    @Test func aRequestRefusedForAHeaderItAddsRemovesItsFormsFile() async throws {
        try await ChildProcess.expectCleanRun(
            workload: "multipart-refused-header", filter: "MultipartFileCleanupTests/refusedHeaderWorkload", timeout: 60,
            proof: "MULTIPART: form files left")
    }

    @Test(.childWorkload("multipart-refused-header"))
    func refusedHeaderWorkload() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let form = try largeForm(in: folder)

        let router = Router<TestEndpoint>(transport: StubTransport(StubResponse()), callbackQueue: DispatchQueue(label: "tests"))
        let opened = router.open(
            .offline("upload", .post, task: .uploadMultipart(form)), headers: ["Last-Event-ID": "a\u{7F}"], progress: nil,
            deliver: { _ in })
        guard case .failure(let error) = opened.exchange, case .invalidRequest(.invalidHeaderValue) = error else {
            Issue.record("expected the added header to be refused, got \(opened.exchange)")
            return
        }
        opened.handle.finish(.failure(error))
        let names = WorkingFolder.existing.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) } ?? []
        let left = names.filter { $0.hasPrefix("networklayer-multipart") }
        print("MULTIPART: form files left: \(left.count) (working folder made: \(WorkingFolder.existing != nil))")
        #expect(WorkingFolder.existing != nil, "no form file was written: the test ran nothing")
        #expect(left.isEmpty, "the refused request left its form's file: \(left)")
    }
}
