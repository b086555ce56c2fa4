import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which validator a download's first part keeps for `If-Range` (RFC 9110 §13.1.5): a strong
/// `ETag`, else a `Last-Modified` that is strong, else none (and then no resumption).
@Suite("Resume validator")
struct ResumeValidatorTests {
    private func validator(_ headers: [String: String]) throws -> String? {
        let url = try #require(URL(string: "http://127.0.0.1/file"))
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers))
        return ResumeValidator.validator(of: response)
    }

    private let modified = "Wed, 01 Jan 2025 00:00:00 GMT"

    @Test func aStrongETagWinsOverLastModified() throws {
        #expect(try validator(["ETag": #""v1""#, "Last-Modified": modified, "Date": "Thu, 02 Jan 2025 00:00:00 GMT"]) == #""v1""#)
    }

    @Test func aWeakETagIsNeverSentButAStrongLastModifiedIs() throws {
        #expect(try validator(["ETag": #"W/"v1""#, "Last-Modified": modified, "Date": "Thu, 02 Jan 2025 00:00:00 GMT"]) == modified)
        #expect(try validator(["ETag": #"W/"v1""#]) == nil)
    }

    /// A file changed twice within one second has one date for two contents: its date is weak
    /// unless the response was sent at least a second later (RFC 9110 §8.8.2.2).
    @Test func aLastModifiedWithinASecondOfTheResponsesDateIsWeak() throws {
        #expect(try validator(["Last-Modified": modified, "Date": modified]) == nil)
        #expect(try validator(["Last-Modified": modified, "Date": "Wed, 01 Jan 2025 00:00:01 GMT"]) == modified)
    }

    @Test func aLastModifiedWithoutADateCannotBeShownStrong() throws {
        #expect(try validator(["Last-Modified": modified]) == nil)
        #expect(try validator(["Last-Modified": modified, "Date": "yesterday"]) == nil)
    }

    /// The attribute marks a partial file as the package's, with a validator or without one; a
    /// partial file the download wrote but could not mark (a file system without extended
    /// attributes) is removed when the download fails, since nothing could resume from it.
    @Test func aPartialFileIsTheDownloadsOnlyWhenMarked() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = DownloadDestination(folder.appendingPathComponent("kept.bin"), resumable: true)
        let partial = destination.partialFileURL

        let fresh = try DownloadWork(destination: destination)
        #expect(fresh.keepsPartial && fresh.workFile == partial, "nothing there yet: the partial file is used")
        let handle = try PrivateFile.openForWriting(partial, truncating: true)
        ResumeValidator.record(nil, on: handle.fileDescriptor)
        try handle.close()
        #expect(ResumeValidator.isMarked(partial) && ResumeValidator.read(from: partial) == nil)
        fresh.cleanUp()
        #expect(FileManager.default.fileExists(atPath: partial.path), "a marked partial file is kept")
        #expect(try DownloadWork(destination: destination).keepsPartial, "and used again")

        try FileManager.default.removeItem(at: partial)
        let unmarked = try DownloadWork(destination: destination)
        #expect(FileManager.default.createFile(atPath: partial.path, contents: Data("part".utf8)))
        unmarked.cleanUp()
        #expect(!FileManager.default.fileExists(atPath: partial.path), "an unmarked one it wrote goes")
    }
}
