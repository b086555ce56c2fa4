import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a download's file ends up, and what happens to a file already at the destination:
/// it is replaced only as a whole, only on success, and never lost, over each transport.
@Suite("Download placement", .needsFixtureServer, .serialized)
struct DownloadPlacementTests {
    private func endpoint(_ path: String, task: HTTPTask) -> TestEndpoint {
        var endpoint = TestEndpoint.fixture(path, timeout: 60)
        endpoint.task = task
        return endpoint
    }

    private func reference(bytes: Int, seed: String, in folder: URL, over transport: TestTransport) async throws -> Data {
        let file = folder.appendingPathComponent("reference-\(seed).bin")
        _ = try await transport.router().request(endpoint("bytes/\(bytes)?seed=\(seed)", task: .download(DownloadDestination(file))))
        defer { try? FileManager.default.removeItem(at: file) }
        return try Data(contentsOf: file)
    }

    // MARK: .replaceExisting (swift-corelibs-foundation#4655: replaceItemAt loses the file)

    @Test(arguments: TestTransport.all)
    func aDownloadReplacesAnExistingFile(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("f.bin")
        try Data("old".utf8).write(to: destination)

        let response = try await router.request(
            endpoint("bytes/1000?seed=replace", task: .download(DownloadDestination(destination, options: [.replaceExisting]))))

        #expect(response.fileURL == destination)
        #expect(try Data(contentsOf: destination) == (try await reference(bytes: 1000, seed: "replace", in: folder, over: transport)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["f.bin"])
    }

    @Test(arguments: TestTransport.all)
    func aResumedDownloadReplacesAnExistingFile(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try await reference(bytes: 4000, seed: "resume-replace", in: folder, over: transport)
        let destination = DownloadDestination(folder.appendingPathComponent("r.bin"), options: [.replaceExisting], resumable: true)
        try Data("old".utf8).write(to: destination.url)
        try expected.prefix(1500).write(to: destination.partialFileURL)
        // The validator the first part came with (the fixture's Last-Modified), as a real
        // interrupted download keeps it: a partial file without one is not resumed.
        let partial = try FileHandle(forUpdating: destination.partialFileURL)
        ResumeValidator.record("Wed, 01 Jan 2025 00:00:00 GMT", on: partial.fileDescriptor)
        try partial.close()

        let response = try await router.request(endpoint("bytes/4000?seed=resume-replace", task: .download(destination)))

        #expect(response.statusCode == 206)
        #expect(try Data(contentsOf: destination.url) == expected)
        #expect(!FileManager.default.fileExists(atPath: destination.partialFileURL.path))
    }

    @Test func aStubbedDownloadReplacesAnExistingFile() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("stub.bin")
        try Data("old".utf8).write(to: destination)
        let router = Router<TestEndpoint>(transport: StubTransport(StubResponse(data: Data("new".utf8))))
        var stubbed = TestEndpoint.offline()
        stubbed.task = .download(DownloadDestination(destination, options: [.replaceExisting]))

        let response = try await router.request(stubbed)

        #expect(response.fileURL == destination)
        #expect(try Data(contentsOf: destination) == Data("new".utf8))
    }

    @Test(arguments: TestTransport.all)
    func aFailedReplacementLeavesTheOldFileUntouched(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A directory where the file should go: rename(2) cannot put a file over it.
        let destination = folder.appendingPathComponent("taken")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: destination.appendingPathComponent("inside.txt"))
        let before = leftoverTemporaryFiles()

        await #expect(throws: NetworkError.self) {
            try await router.request(
                endpoint("bytes/100?seed=dir", task: .download(DownloadDestination(destination, options: [.replaceExisting]))))
        }

        #expect(try Data(contentsOf: destination.appendingPathComponent("inside.txt")) == Data("keep".utf8))
        #expect(leftoverTemporaryFiles().subtracting(before).isEmpty)
    }

    // MARK: The outcome and the move are one decision

    /// Cancelling at the last progress event gives either success with the file in place, or
    /// `.cancelled` with the destination as it was: never "cancelled" with a new file.
    @Test(.needsHTTPBin, arguments: TestTransport.all, 0..<5)
    func cancellingAtTheLastProgressEventNeverLeavesAFileBehindACancellation(_ transport: TestTransport, run: Int) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("chunked-\(run).bin")
        var chunked = TestEndpoint.httpbin("stream-bytes/50000?chunk_size=1000&seed=\(run)")
        chunked.task = .download(DownloadDestination(destination))
        let router = transport.router()
        let awaiting = TaskBox()
        let task = Task {
            try await router.request(chunked) { progress in
                if progress.fractionCompleted == 1.0 { awaiting.cancel() }
            }
        }
        awaiting.set(task)
        let outcome = await task.result
        switch outcome {
        case .success(let response):
            #expect(response.fileURL == destination)
            #expect(FileManager.default.fileExists(atPath: destination.path))
        case .failure(let error):
            #expect((error as? NetworkError).map { if case .cancelled = $0 { true } else { false } } == true, "\(error)")
            #expect(!FileManager.default.fileExists(atPath: destination.path), "cancelled, yet the file was moved into place")
        }
    }

    // MARK: An existing destination without .replaceExisting

    @Test(arguments: TestTransport.all)
    func anExistingDestinationIsRefusedBeforeAnythingIsSent(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("exists.bin")
        try Data("old".utf8).write(to: destination)
        let key = "refused-\(UUID().uuidString)"

        do {
            _ = try await router.request(endpoint("sequence/\(key)?statuses=200", task: .download(DownloadDestination(destination))))
            Issue.record("expected destinationExists")
        } catch NetworkError.download(let error) {
            #expect(error == .destinationExists(destination.path))
            #expect(error.localizedDescription.contains("already exists"))
            #expect(error.localizedDescription.contains("replaceExisting"))
        } catch {
            Issue.record("unexpected error: \(error)")
        }

        let log = try await router.request(TestEndpoint.fixture("sequence/\(key)/log"))
        #expect((try jsonObject(log.data)["attempts"] as? [Any])?.isEmpty == true, "the request was sent")
        #expect(try Data(contentsOf: destination) == Data("old".utf8))
    }

    @Test func downloadErrorsSayWhatWentWrong() {
        #expect(DownloadError.destinationExists("/a/b").localizedDescription == "A file already exists at /a/b; pass .replaceExisting to replace it.")
        #expect(DownloadError.cannotWrite("/a").localizedDescription.contains("/a"))
        #expect(DownloadError.unexpectedRange(start: 5, expected: 7).localizedDescription.contains("7"))
        #expect(NetworkError.download(.destinationExists("/x")).localizedDescription.contains("/x"))
    }
}

/// Lets a progress closure cancel the task that awaits its request.
private final class TaskBox: Sendable {
    private let task = Locked<Task<Response, any Error>?>(nil)
    func set(_ task: Task<Response, any Error>) { self.task.withLock { $0 = task } }
    func cancel() { task.withLock { $0 }?.cancel() }
}
