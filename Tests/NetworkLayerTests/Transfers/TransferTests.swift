import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Collects progress events from any thread.
final class ProgressLog: @unchecked Sendable {
    private var events: [TransferProgress] = []
    private let lock = NSLock()
    func record(_ event: TransferProgress) { lock.lock(); events.append(event); lock.unlock() }
    var all: [TransferProgress] { lock.lock(); defer { lock.unlock() }; return events }

    /// Completed bytes and fractions never go back; the last event is exactly 1.0.
    var isMonotonicAndComplete: Bool {
        let events = all
        guard let last = events.last, last.fractionCompleted == 1.0 else { return false }
        return zip(events, events.dropFirst()).allSatisfy { before, after in
            after.completedBytes >= before.completedBytes
                && (after.fractionCompleted ?? 0) >= (before.fractionCompleted ?? 0)
        }
    }
}

/// Uploads, downloads and multipart against the fixture server (digests) and httpbin (echo).
@Suite("Uploads and downloads", .needsFixtureServer, .serialized)
struct TransferTests {
    static let mebibyte = 1024 * 1024

    private func endpoint(_ path: String, _ method: HTTPMethod = .get, task: HTTPTask, timeout: TimeInterval = 60) -> TestEndpoint {
        var endpoint = TestEndpoint.fixture(path, method, timeout: timeout)
        endpoint.task = task
        return endpoint
    }

    /// Downloads the fixture's deterministic stream into `file`.
    private func downloadBytes(
        _ count: Int, seed: String, to file: URL, over transport: TestTransport, log: ProgressLog? = nil
    ) async throws -> Response {
        try await transport.router().request(endpoint("bytes/\(count)?seed=\(seed)", task: .download(DownloadDestination(file)))) {
            log?.record($0)
        }
    }

    @Test(arguments: TestTransport.all)
    func download64MiBMatchesTheServersDigestWithMonotonicProgress(_ transport: TestTransport) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.bin")
        let log = ProgressLog()
        let response = try await downloadBytes(64 * Self.mebibyte, seed: "dl", to: file, over: transport, log: log)
        #expect(response.statusCode == 200)
        #expect(response.fileURL == file)
        #expect(response.data.isEmpty)
        #expect(try sha256(ofFile: file) == (try await fixtureDigest(bytes: 64 * Self.mebibyte, seed: "dl")))
        #expect(log.all.count > 10)
        #expect(log.isMonotonicAndComplete)
        #expect(log.all.last?.totalBytes == Int64(64 * Self.mebibyte))
    }

    @Test(arguments: TestTransport.all)
    func upload64MiBFromAFileAnd5MiBFromData(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("upload.bin")
        _ = try await downloadBytes(64 * Self.mebibyte, seed: "up", to: file, over: transport)

        let log = ProgressLog()
        let fileResponse = try await router.request(
            endpoint("upload", .post, task: .uploadFile(file, contentType: "application/octet-stream"))
        ) { log.record($0) }
        let fileEcho = try jsonObject(fileResponse.data)
        #expect(fileEcho["size"] as? Int == 64 * Self.mebibyte)
        #expect(fileEcho["sha256"] as? String == (try await fixtureDigest(bytes: 64 * Self.mebibyte, seed: "up")))
        #expect(fileEcho["content_type"] as? String == "application/octet-stream")
        #expect(log.all.count > 2)
        #expect(log.isMonotonicAndComplete)

        let data = try Data(contentsOf: file).prefix(5 * Self.mebibyte)
        let dataResponse = try await router.request(endpoint("upload", .put, task: .uploadData(Data(data), contentType: "application/x-test")))
        let dataEcho = try jsonObject(dataResponse.data)
        #expect(dataEcho["size"] as? Int == 5 * Self.mebibyte)
        #expect(dataEcho["sha256"] as? String == (try sha256(of: Data(data))))
        #expect(dataEcho["content_type"] as? String == "application/x-test")
    }

    @Test(arguments: TestTransport.all)
    func cancelledDownloadLeavesNoFileBehind(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("never.bin")
        let before = leftoverTemporaryFiles()
        let counter = CompletionCounter()
        let handle = HandleBox()
        handle.value = router.request(
            endpoint("bytes/\(128 * Self.mebibyte)?seed=cancel", task: .download(DownloadDestination(destination))),
            progress: { progress in if (progress.fractionCompleted ?? 0) > 0.3 { handle.value?.cancel() } },
            completion: { counter.record($0) })
        #expect(await eventually(within: 30) { counter.count == 1 })
        #expect(counter.first?.isCancelled == true)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(leftoverTemporaryFiles().subtracting(before).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test(arguments: TestTransport.all)
    func cancelledResumableDownloadResumesWithoutRefetching(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let size = 64 * Self.mebibyte
        let destination = DownloadDestination(folder.appendingPathComponent("resumed.bin"), resumable: true)
        let task = HTTPTask.download(destination)
        let counter = CompletionCounter()
        let handle = HandleBox()
        handle.value = router.request(
            endpoint("bytes/\(size)?seed=resume", task: task),
            progress: { progress in if (progress.fractionCompleted ?? 0) > 0.4 { handle.value?.cancel() } },
            completion: { counter.record($0) })
        #expect(await eventually(within: 30) { counter.count == 1 })
        #expect(counter.first?.isCancelled == true)
        #expect(!FileManager.default.fileExists(atPath: destination.url.path))
        let partial = Payload.size(of: destination.partialFileURL)
        #expect(partial > 0 && partial < Int64(size))

        let log = ProgressLog()
        let response = try await router.request(endpoint("bytes/\(size)?seed=resume", task: task)) { log.record($0) }
        #expect(response.statusCode == 206)
        #expect(response.request.value(forHTTPHeaderField: "Range") == "bytes=\(partial)-")
        #expect((log.all.first?.completedBytes ?? 0) > partial)
        #expect(try sha256(ofFile: destination.url) == (try await fixtureDigest(bytes: size, seed: "resume")))
        #expect(!FileManager.default.fileExists(atPath: destination.partialFileURL.path))
    }

    /// A partial file that already holds the whole body would be answered 416 forever.
    @Test(arguments: TestTransport.all)
    func aCompletePartialFileIsFetchedAgainNotAsked416Forever(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = DownloadDestination(folder.appendingPathComponent("whole.bin"), resumable: true)
        let complete = folder.appendingPathComponent("reference.bin")
        let downloaded = try await downloadBytes(1000, seed: "416", to: complete, over: transport)
        try FileManager.default.copyItem(at: complete, to: destination.partialFileURL)
        // A delivered file, and a copy, carry no extended attribute that makes a partial file the
        // download's own, with the validator its resumption asks the server with (`If-Range`):
        // put it on, as the download would have.
        let validator = try #require(ResumeValidator.validator(of: downloaded.httpResponse))
        let partial = try PrivateFile.openForWriting(destination.partialFileURL, truncating: false)
        ResumeValidator.record(validator, on: partial.fileDescriptor)
        try partial.close()

        let response = try await router.request(endpoint("bytes/1000?seed=416", task: .download(destination)))
        #expect(response.statusCode == 200)
        #expect(response.request.value(forHTTPHeaderField: "Range") == nil)
        #expect(try Data(contentsOf: destination.url) == (try Data(contentsOf: complete)))
        #expect(!FileManager.default.fileExists(atPath: destination.partialFileURL.path))
    }

    @Test(arguments: TestTransport.all)
    func aDownloadThatGets404LeavesTheDestinationAlone(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("keep.txt")
        try Data("precious".utf8).write(to: destination)
        let before = leftoverTemporaryFiles()
        do {
            _ = try await router.request(
                endpoint(
                    "status/404?body=no%20such%20file",
                    task: .download(DownloadDestination(destination, options: [.replaceExisting]))))
            Issue.record("expected a 404")
        } catch NetworkError.unacceptableStatusCode(let response) {
            #expect(response.statusCode == 404)
            #expect(response.text == "no such file")
        } catch {
            Issue.record("unexpected error: \(error)")
        }
        #expect(try Data(contentsOf: destination) == Data("precious".utf8))
        #expect(leftoverTemporaryFiles().subtracting(before).isEmpty)
    }

    @Test(arguments: TestTransport.all)
    func anExistingDestinationIsKeptUnlessReplacing(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("exists.bin")
        try Data("old".utf8).write(to: destination)
        do {
            _ = try await router.request(endpoint("bytes/10", task: .download(DownloadDestination(destination))))
            Issue.record("expected destinationExists")
        } catch NetworkError.download(let error) {
            #expect(error == .destinationExists(destination.path))
        } catch {
            Issue.record("unexpected error: \(error)")
        }
        #expect(try Data(contentsOf: destination) == Data("old".utf8))

        let nested = folder.appendingPathComponent("a/b/new.bin")
        let replaced = try await router.request(endpoint("bytes/10", task: .download(DownloadDestination(nested, options: [.createIntermediateDirectories]))))
        #expect(replaced.fileURL == nested)
        #expect(Payload.size(of: nested) == 10)
    }

    @Test(arguments: TestTransport.all)
    func progressAsAnAsyncStream(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let transfer = router.transfer(
            endpoint("bytes/\(8 * Self.mebibyte)?seed=stream", task: .download(DownloadDestination(folder.appendingPathComponent("s.bin")))))
        var events: [TransferProgress] = []
        for await event in transfer.progress { events.append(event) }
        let response = try await transfer.response()
        #expect(response.statusCode == 200)
        #expect(events.last?.fractionCompleted == 1.0)
        #expect(events.count > 1)
    }

    @Test(arguments: TestTransport.all)
    func largeMultipartIsStreamedFromATemporaryFileThatIsRemoved(_ transport: TestTransport) async throws {
        let router = transport.router()
        var form = MultipartFormData()
        form.append("value", name: "field")
        form.append(Data(repeating: 0xAB, count: 11 * Self.mebibyte), name: "blob", fileName: "blob.bin")
        #expect(form.contentLength > MultipartFormData.streamingThreshold)
        let expected = try form.encode()
        let before = leftoverTemporaryFiles()
        let response = try await router.request(endpoint("upload", .post, task: .uploadMultipart(form)))
        let echo = try jsonObject(response.data)
        #expect(echo["size"] as? Int == expected.count)
        #expect(echo["sha256"] as? String == (try sha256(of: expected)))
        #expect(echo["content_type"] as? String == form.contentType)
        #expect(leftoverTemporaryFiles().subtracting(before).isEmpty)
    }

    // MARK: Read as a stream (here, not in the streaming suites: this suite runs alone, so the
    // temporary-file checks see only their own files)

    /// A multipart body large enough to go through a temporary file is sent from it and the
    /// file removed when the stream ends, as for `request` (streams used to leave it behind).
    @Test(.timeLimit(.minutes(1)), arguments: TestTransport.all)
    func aLargeMultipartBodyReadAsAStreamLeavesNoTemporaryFile(_ transport: TestTransport) async throws {
        var form = MultipartFormData()
        form.append(Data(repeating: 0xAB, count: Int(MultipartFormData.streamingThreshold) + 1024), name: "blob", fileName: "b.bin")
        let before = leftoverTemporaryFiles()
        let stream = transport.router().stream(endpoint("upload", .post, task: .uploadMultipart(form)))
        var body = Data()
        for try await chunk in stream { body.append(chunk) }
        #expect(try await stream.response().statusCode == 200)
        #expect(try jsonObject(body)["size"] as? Int == Int(form.contentLength))
        #expect(leftoverTemporaryFiles().subtracting(before).isEmpty)
    }

    /// A download endpoint read as a stream ends, its file in place: the transport answered
    /// whole, and the reader used to wait for a head that never came.
    @Test(.timeLimit(.minutes(1)), arguments: TestTransport.all)
    func aDownloadReadAsAStreamEndsWithItsFileInPlace(_ transport: TestTransport) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("d.bin")
        let before = leftoverTemporaryFiles()
        let stream = transport.router().stream(endpoint("bytes/100000?seed=stream", task: .download(DownloadDestination(file))))
        var chunks = 0
        for try await _ in stream { chunks += 1 }
        let head = try await stream.response()
        #expect(head.statusCode == 200)
        #expect(head.fileURL == file)
        #expect(chunks == 0)
        #expect(try sha256(ofFile: file) == (try await fixtureDigest(bytes: 100_000, seed: "stream")))
        #expect(leftoverTemporaryFiles().subtracting(before).isEmpty)
    }

    @Test(.needsHTTPBin, arguments: TestTransport.all)
    func multipartFieldsAndFilesComeBackExactly(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt")
        try Data("file body\r\n--not-a-boundary\r\nline".utf8).write(to: file)
        var form = MultipartFormData()
        form.append("Weekend watchlist", name: "title")
        form.append("tricky --\(form.boundary.prefix(5)) \r\n-- value\r\n", name: "tricky")
        form.append(Data(#"{"a":1}"#.utf8), name: "meta", fileName: "meta.json", mimeType: "application/json")
        try form.append(fileAt: file, name: "notes", mimeType: "text/plain")
        var endpoint = TestEndpoint.httpbin("post", .post)
        endpoint.task = .uploadMultipart(form, urlParameters: ["list": "7"])
        let echo = try jsonObject(try await router.request(endpoint).data)
        let fields = try #require(echo["form"] as? [String: String])
        #expect(fields["title"] == "Weekend watchlist")
        #expect(fields["tricky"] == "tricky --\(form.boundary.prefix(5)) \r\n-- value\r\n")
        let files = try #require(echo["files"] as? [String: String])
        #expect(files["meta"] == #"{"a":1}"#)
        #expect(files["notes"] == "file body\r\n--not-a-boundary\r\nline")
        #expect((echo["args"] as? [String: String]) == ["list": "7"])
        #expect((echo["headers"] as? [String: String])?["Content-Type"] == form.contentType)
    }

    /// httpbin's /stream-bytes (at most 100 KiB) answers chunked, with no Content-Length: the total is unknown
    /// until the end, and the events say so instead of inventing a fraction.
    @Test(.needsHTTPBin, arguments: TestTransport.all)
    func unknownTotalsAreReportedAsUnknownUntilTheEnd(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var endpoint = TestEndpoint.httpbin("stream-bytes/100000?chunk_size=1000&seed=7")
        endpoint.task = .download(DownloadDestination(folder.appendingPathComponent("chunked.bin")))
        let log = ProgressLog()
        let response = try await router.request(endpoint) { log.record($0) }
        #expect(response.header("Content-Length") == nil)
        #expect(Payload.size(of: try #require(response.fileURL)) == 100_000)
        let events = log.all
        #expect(events.count > 2)
        #expect(events.dropLast().allSatisfy { $0.totalBytes == nil && $0.fractionCompleted == nil })
        #expect(events.last == TransferProgress(completedBytes: 100_000, totalBytes: 100_000))
        #expect(log.isMonotonicAndComplete)
    }

    @Test func uploadOnGetIsRejected() async throws {
        let router = Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "tests"))
        await #expect(throws: NetworkError.self) {
            try await router.request(endpoint("upload", .get, task: .uploadData(Data("x".utf8))))
        }
    }

    @Test func stubbedDownloadUsesTheSamePath() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("stub.bin")
        let router = Router<TestEndpoint>(transport: StubTransport(StubResponse(data: Data("stubbed".utf8))))
        var endpoint = TestEndpoint.offline()
        endpoint.task = .download(DownloadDestination(destination))
        let log = ProgressLog()
        let response = try await router.request(endpoint) { log.record($0) }
        #expect(response.fileURL == destination)
        #expect(try Data(contentsOf: destination) == Data("stubbed".utf8))
        #expect(log.isMonotonicAndComplete)
    }
}

/// Lets a progress closure cancel its own request.
final class HandleBox: @unchecked Sendable {
    private var handle: (any Cancellable)?
    private let lock = NSLock()
    var value: (any Cancellable)? {
        get { lock.lock(); defer { lock.unlock() }; return handle }
        set { lock.lock(); handle = newValue; lock.unlock() }
    }
}
