import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A large multipart form's file never outlives its request. Found from outside (2026-11-26): a
/// stream whose reconnection sent back a `Last-Event-ID` that is not a valid header value left
/// the form's file, written while the request was built, in the working folder. The form is now
/// written when the request is first sent, off the caller's thread, so a request refused while
/// it is built writes none, and one that ends while its form is written removes the file once
/// it is. In child processes, whose working folders are their own.
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
        print("MULTIPART: form files left: \(left.count)")
        #expect(left.isEmpty, "the refused request left its form's file: \(left)")
    }

    @Test func aRequestThatEndsWhileItsFormIsWrittenLeavesNoFile() async throws {
        try await ChildProcess.expectCleanRun(
            workload: "multipart-cancelled-while-written", filter: "MultipartFileCleanupTests/cancelledWhileWrittenWorkload",
            timeout: 60, proof: "MULTIPART: cancelled while written")
    }

    @Test(.childWorkload("multipart-cancelled-while-written"))
    func cancelledWhileWrittenWorkload() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 128 MiB, sparse: long enough to write that the cancellation lands while it is
        // written. Scripts/test runs this suite on its own: the write stalled the machine.
        let part = folder.appendingPathComponent("part.bin")
        #expect(FileManager.default.createFile(atPath: part.path, contents: nil))
        let writer = try FileHandle(forWritingTo: part)
        try writer.truncate(atOffset: 128 << 20)
        try writer.close()
        var form = MultipartFormData()
        try form.append(fileAt: part, name: "file")
        func formFiles() -> [String] {
            let names = WorkingFolder.existing.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) } ?? []
            return names.filter { $0.contains("networklayer-multipart") }
        }

        let router = Router<TestEndpoint>(transport: StubTransport(StubResponse()), callbackQueue: DispatchQueue(label: "tests"))
        let counter = CompletionCounter()
        let handle = router.request(.offline("upload", .post, task: .uploadMultipart(form))) { counter.record($0) }
        handle.cancel()
        #expect(await eventually(within: 5) { counter.count == 1 })
        #expect(counter.first?.isCancelled == true)
        let seen = await eventually(within: 10) { !formFiles().isEmpty }
        let gone = await eventually(within: 10) { formFiles().isEmpty }
        print("MULTIPART: cancelled while written: file seen \(seen), left \(formFiles())")
        #expect(seen, "the form was not being written when the request ended: the test ran nothing")
        #expect(gone, "the form's file outlived its request: \(formFiles())")
    }
}
