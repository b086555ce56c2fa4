import Foundation
import Testing
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The body rules that both transports share, without a server: the memory limit, a download's
/// file replaced by a 200 and continued by a 206, a download's error body kept in memory, and a
/// failed write, so that a change to ``ResponseBodySink`` shows here before the wire suites.
@Suite("Response body sink")
struct ResponseBodySinkTests {
    /// A head as a transport hands it over; only the status and headers matter to the sink.
    private func head(_ status: Int, _ headers: [String: String] = [:]) throws -> HTTPURLResponse {
        let url = try #require(URL(string: "http://127.0.0.1/file"))
        return try #require(HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers))
    }

    /// A file of its own under the temporary folder, holding `contents` when given.
    private func temporaryFile(_ contents: String? = nil) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sink-\(UUID().uuidString)")
        if let contents { try Data(contents.utf8).write(to: file) }
        return file
    }

    private func contents(of file: URL) throws -> String {
        String(decoding: try Data(contentsOf: file), as: UTF8.self)
    }

    @Test func aBodyUpToTheLimitIsKeptInMemory() throws {
        var sink = ResponseBodySink(target: .memory, maximumBodySize: 10)
        try sink.begin(try head(200))
        #expect(try sink.take(Data("hello".utf8)) == nil)
        let fromBuffer = try Data("world".utf8).withUnsafeBytes { try sink.take($0) }
        #expect(fromBuffer == nil)
        let finished = sink.finish()
        #expect(finished.body == Data("helloworld".utf8))
        #expect(finished.bodyBytes == 10)
        #expect(sink.failure == nil)
    }

    @Test func aBodyPastTheLimitFailsAndIsDropped() throws {
        var sink = ResponseBodySink(target: .memory, maximumBodySize: 10)
        try sink.begin(try head(200))
        _ = try sink.take(Data("hello".utf8))
        do {
            _ = try sink.take(Data("world!".utf8))
            Issue.record("a body past the limit was kept")
        } catch let error as URLError {
            #expect(ResponseSizeLimit.limit(of: error) == 10)
        }
        // Failed once, failed for good: nothing more is kept.
        #expect(throws: URLError.self) { try sink.take(Data("x".utf8)) }
        #expect((sink.failure as? URLError)?.code == .dataLengthExceedsMaximum)
        #expect(sink.finish().body.isEmpty)
    }

    @Test func a200ReplacesTheFile() throws {
        let file = try temporaryFile("an older, longer download")
        defer { try? FileManager.default.removeItem(at: file) }
        var sink = ResponseBodySink(target: .file(file), maximumBodySize: 1)
        try sink.begin(try head(200, ["Content-Length": "10"]))
        let first = try sink.take(Data("hello".utf8))
        #expect(first?.received == 5)
        #expect(first?.expected == 10)
        let second = try sink.take(Data("world".utf8))
        #expect(second?.received == 10)
        let finished = sink.finish()
        #expect(finished.body.isEmpty)
        #expect(finished.bodyBytes == 10)
        #expect(try contents(of: file) == "helloworld")
    }

    @Test func a206ThatContinuesTheFileIsAppended() throws {
        let file = try temporaryFile("hello")
        defer { try? FileManager.default.removeItem(at: file) }
        var sink = ResponseBodySink(target: .file(file), maximumBodySize: 1)
        try sink.begin(try head(206, ["Content-Range": "bytes 5-9/10", "Content-Length": "5"]))
        let progress = try sink.take(Data("world".utf8))
        #expect(progress?.received == 10)
        #expect(progress?.expected == 10)
        // Only this response's bytes count for its framing, not what the file kept.
        #expect(sink.finish().bodyBytes == 5)
        #expect(try contents(of: file) == "helloworld")
    }

    @Test func a206ThatDoesNotContinueTheFileIsRefused() throws {
        let file = try temporaryFile("hello")
        defer { try? FileManager.default.removeItem(at: file) }
        var sink = ResponseBodySink(target: .file(file), maximumBodySize: 100)
        #expect(throws: DownloadError.unexpectedRange(start: 3, expected: 5)) {
            try sink.begin(try head(206, ["Content-Range": "bytes 3-9/10"]))
        }
        #expect(sink.failure as? DownloadError == .unexpectedRange(start: 3, expected: 5))
        #expect(throws: DownloadError.unexpectedRange(start: 3, expected: 5)) { try sink.take(Data("lo wor".utf8)) }
        #expect(try contents(of: file) == "hello")
    }

    @Test func anErrorBodyForAFileIsKeptInMemoryAndTheFileLeftAlone() throws {
        let kept = try temporaryFile("partial")
        let absent = try temporaryFile()
        defer {
            try? FileManager.default.removeItem(at: kept)
            try? FileManager.default.removeItem(at: absent)
        }
        for file in [kept, absent] {
            var sink = ResponseBodySink(target: .file(file), maximumBodySize: 100)
            try sink.begin(try head(404))
            #expect(try sink.take(Data("not found".utf8)) == nil)
            let finished = sink.finish()
            #expect(finished.body == Data("not found".utf8))
            #expect(finished.bodyBytes == 9)
        }
        #expect(try contents(of: kept) == "partial")
        #expect(!FileManager.default.fileExists(atPath: absent.path))
    }

    @Test func anErrorBodyForAFileHasTheMemoryLimit() throws {
        let file = try temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        var sink = ResponseBodySink(target: .file(file), maximumBodySize: 4)
        try sink.begin(try head(500))
        #expect(throws: URLError.self) { try sink.take(Data("too long".utf8)) }
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    /// `/dev/full` fails every write with `ENOSPC`, as a full disk does.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func aFailedWriteIsTheFailure() throws {
        let full = URL(fileURLWithPath: "/dev/full")
        var sink = ResponseBodySink(target: .file(full), maximumBodySize: 100)
        try sink.begin(try head(200))
        let expected = DownloadError.writeFailed(full.path, reason: String(cString: strerror(ENOSPC)))
        #expect(throws: expected) { try sink.take(Data("hello".utf8)) }
        #expect(sink.failure as? DownloadError == expected)
        // Not buffered instead: the next chunk fails the same way.
        #expect(throws: expected) { try sink.take(Data("world".utf8)) }
        #expect(sink.finish().body.isEmpty)
    }

    @Test func aClosedSinkWritesAndKeepsNothingMore() throws {
        let file = try temporaryFile()
        defer { try? FileManager.default.removeItem(at: file) }
        var sink = ResponseBodySink(target: .file(file), maximumBodySize: 100)
        try sink.begin(try head(200))
        _ = try sink.take(Data("hello".utf8))
        sink.close()
        #expect(try sink.take(Data("world".utf8)) == nil)
        #expect(sink.failure == nil)
        #expect(try contents(of: file) == "hello")

        var memory = ResponseBodySink(target: .memory, maximumBodySize: 100)
        _ = try memory.take(Data("hello".utf8))
        memory.close()
        #expect(try memory.take(Data("world".utf8)) == nil)
        #expect(memory.finish().body.isEmpty)
    }
}
