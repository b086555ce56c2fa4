import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `206` that does not end the file is not a download's file. Found from outside
/// (2026-11-26): `bytes 0-4/100` with 5 bytes was reported a success and replaced the complete
/// 100-byte file at the destination.
@Suite("Incomplete downloads")
struct IncompleteDownloadTests {
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("incomplete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func router(_ status: Int, range: String?) -> Router<TestEndpoint> {
        let headers = range.map { ["Content-Range": $0] } ?? [:]
        let transport = StubTransport(StubResponse(statusCode: status, headers: headers, data: Data("12345".utf8)))
        return Router<TestEndpoint>(transport: transport, callbackQueue: DispatchQueue(label: "tests"))
    }

    @Test(arguments: [
        ("bytes 0-4/100", DownloadError.incomplete(received: 5, expected: 100)),
        ("bytes 0-4/*", DownloadError.incomplete(received: 5, expected: nil)),
        // Refused before the body is written, as it was: no range to continue the file from.
        (nil, DownloadError.unexpectedRange(start: nil, expected: 0)),
    ])
    func aPartNeverReplacesTheFile(range: String?, expected: DownloadError) async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("big.bin")
        try Data(repeating: 7, count: 100).write(to: destination)
        let endpoint = TestEndpoint.offline("f", task: .download(DownloadDestination(destination, options: [.replaceExisting])))
        do {
            _ = try await router(206, range: range).request(endpoint)
            Issue.record("a part of the file was taken for the download")
        } catch NetworkError.download(let error) {
            #expect(error == expected)
        }
        #expect(try Data(contentsOf: destination) == Data(repeating: 7, count: 100))
    }

    @Test func aPartThatEndsTheFileOrThatWasAskedForIsTheDownload() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("whole.bin")
        _ = try await router(206, range: "bytes 0-4/5").request(.offline("f", task: .download(DownloadDestination(whole))))
        #expect(try Data(contentsOf: whole) == Data("12345".utf8))
        let part = folder.appendingPathComponent("part.bin")
        let asked = TestEndpoint.offline("f", task: .download(DownloadDestination(part)), headers: ["Range": "bytes=0-4"])
        _ = try await router(206, range: "bytes 0-4/100").request(asked)
        #expect(try Data(contentsOf: part) == Data("12345".utf8))
    }

    /// The file is opened for a 206 by the same rule, ``ContentRange``: it read the start of
    /// any "bytes START…" before (2026-11-26), so a range the endpoint asked for itself, whose
    /// answer the stage does not check again, took `bytes 0-9/5` and `bytes 0-4` for its file.
    @Test(arguments: ["bytes 0-9/5", "bytes 0-4", "bytes 0-4/x"])
    func aPartTheEndpointAskedForIsRefusedWhenItsRangeDoesNotParse(range: String) async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let part = folder.appendingPathComponent("part.bin")
        let asked = TestEndpoint.offline("f", task: .download(DownloadDestination(part)), headers: ["Range": "bytes=0-4"])
        let refused = await #expect(throws: NetworkError.self) { try await router(206, range: range).request(asked) }
        guard case .download(let error) = refused else {
            Issue.record("\(range): \(String(describing: refused))")
            return
        }
        #expect(error == .unexpectedRange(start: nil, expected: 0))
        #expect(!FileManager.default.fileExists(atPath: part.path))
    }

    @Test func contentRangeIsReadStrictly() {
        #expect(ContentRange("bytes 10-19/20") == ContentRange("bytes 10-19/20"))
        #expect(ContentRange("bytes 10-19/20")?.endsTheFile == true)
        #expect(ContentRange("bytes 10-19/21")?.endsTheFile == false)
        #expect(ContentRange("bytes 10-19/*")?.length == nil)
        // The unit in any letter case (RFC 9110 §14.1), which the loose parse it replaced took.
        #expect(ContentRange("Bytes 10-19/20") == ContentRange("bytes 10-19/20"))
        let huge = "bytes 0-\(Int64.max)/*"
        for invalid in ["bytes 19-10/20", "bytes 10-19/19", "items 0-1/2", "bytes 0-1", "bytes -1-2/3", huge, nil] {
            #expect(ContentRange(invalid) == nil)
        }
    }
}
