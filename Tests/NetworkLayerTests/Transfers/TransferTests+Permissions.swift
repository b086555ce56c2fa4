import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The permission bits of a file or folder (`st_mode & 0o777`).
func permissions(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return try #require((attributes[.posixPermissions] as? NSNumber)?.intValue)
}

/// Files that hold a body are 0600, the folders that hold them 0700 (issue 23, item 6). Here,
/// in the suite that runs alone, so that its working files are the only ones about.
extension TransferTests {
    /// Records, when a request is about to be sent, the modes of the multipart body files in the
    /// working folder.
    final class MultipartFileModes: PluginType, @unchecked Sendable {
        private let lock = NSLock()
        private var modes: [Int] = []
        var all: [Int] { lock.lock(); defer { lock.unlock() }; return modes }

        func willSend(_ request: URLRequest, context: RequestContext) {
            guard let folder = WorkingFolder.existing,
                let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
            else { return }
            let found = names.filter { $0.hasPrefix("networklayer-multipart-") }
                .compactMap { try? permissions(of: folder.appendingPathComponent($0)) }
            lock.lock()
            modes += found
            lock.unlock()
        }
    }

    @Test(arguments: TestTransport.all)
    func aDownloadsWorkingFileIs0600InA0700Folder(_ transport: TestTransport) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("private.bin")
        var endpoint = TestEndpoint.fixture("bytes/100000?seed=mode", timeout: 60)
        endpoint.task = .download(DownloadDestination(file))
        let response = try await transport.router().request(endpoint)
        #expect(response.fileURL == file)
        // The destination is the working file, renamed: it keeps the mode it was created with.
        #expect(try permissions(of: file) == 0o600)
        let working = try #require(WorkingFolder.existing)
        #expect(working.path.hasPrefix(FileManager.default.temporaryDirectory.path))
        #expect(try permissions(of: working) == 0o700)
    }

    @Test(arguments: TestTransport.all)
    func aResumableDownloadsPartialFileIs0600(_ transport: TestTransport) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = DownloadDestination(folder.appendingPathComponent("resumed.bin"), resumable: true)
        // A partial file left 0644 by an earlier version: it is narrowed when written again.
        let partial = destination.partialFileURL
        #expect(FileManager.default.createFile(atPath: partial.path, contents: nil, attributes: [.posixPermissions: 0o644]))
        var endpoint = TestEndpoint.fixture("bytes/5000?seed=partial", timeout: 60)
        endpoint.task = .download(destination)
        _ = try await transport.router().request(endpoint)
        #expect(try permissions(of: destination.url) == 0o600)
    }

    @Test(arguments: TestTransport.all)
    func aLargeMultipartBodyFileIs0600InA0700Folder(_ transport: TestTransport) async throws {
        var form = MultipartFormData()
        form.append(Data(repeating: 0x5A, count: 11 * Self.mebibyte), name: "blob", fileName: "blob.bin")
        let modes = MultipartFileModes()
        var endpoint = TestEndpoint.fixture("upload", .post, timeout: 60)
        endpoint.task = .uploadMultipart(form)
        let response = try await transport.router(plugins: [modes]).request(endpoint)
        #expect(response.statusCode == 200)
        #expect(modes.all == [0o600], "the body file's mode when it was sent")
        #expect(try permissions(of: try #require(WorkingFolder.existing)) == 0o700)
    }

    /// A working folder removed (a temporary-folder cleaner) and made again under its name by
    /// someone else, open to others, is not used: a new private one is made. Its files would have
    /// been theirs to replace before being moved into place (found from outside 2026-11-27).
    @Test func aWorkingFolderMadeAgainOpenToOthersIsNotUsed() throws {
        let first = try WorkingFolder.url()
        try FileManager.default.removeItem(at: first)
        try FileManager.default.createDirectory(at: first, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: first.path)
        defer { try? FileManager.default.removeItem(at: first) }

        let second = try WorkingFolder.url()
        #expect(second != first)
        #expect(try permissions(of: second) == 0o700)
        #expect(WorkingFolder.isPrivate(second) && !WorkingFolder.isPrivate(first))
    }
}
