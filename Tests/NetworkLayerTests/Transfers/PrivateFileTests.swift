import Foundation
import Testing
import TestSupport
@testable import NetworkLayer

/// Files and folders that hold bodies outside a request: the disk cache and
/// `MultipartFormData.writeBody(to:)` (issue 23, item 6).
@Suite("Private files")
struct PrivateFileTests {
    @Test func theDiskCachesFolderIsMade0700() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cacheFolder = folder.appendingPathComponent("a/cache")
        _ = try HTTPCache(configuration: .init(directory: cacheFolder, diskCapacity: 1 << 20))
        #expect(try permissions(of: cacheFolder) == 0o700)
    }

    @Test func anExistingDiskCacheFolderIsNarrowedTo0700() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        _ = try HTTPCache(configuration: .init(directory: folder, diskCapacity: 1 << 20))
        #expect(try permissions(of: folder) == 0o700)
    }

    @Test func aMultipartBodyFileIs0600() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var form = MultipartFormData()
        form.append("secret", name: "password")
        let file = folder.appendingPathComponent("body")
        try form.writeBody(to: file)
        #expect(try permissions(of: file) == 0o600)
        #expect(try Data(contentsOf: file) == (try form.encode()))
    }
}
