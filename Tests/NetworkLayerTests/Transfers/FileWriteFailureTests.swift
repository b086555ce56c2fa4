import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A write that fails (here: past a 1 MiB file-size limit, `EFBIG`, as a full disk gives
/// `ENOSPC`) ends the request with a typed error instead of trapping in `FileHandle.write(_:)`,
/// leaves nothing at the destination, and, for a multipart body, fails before anything is sent
/// (issue 23, item 6). In a child process: the limit is the whole process's, and before the fix
/// the process trapped.
@Suite("Failed file writes", .needsFixtureServer, .timeLimit(.minutes(2)))
struct FileWriteFailureTests {
    static let workload = "file-size-limit"

    @Test func aFileSizeLimitEndsDownloadsAndMultipartUploadsWithATypedError() async throws {
        try await ChildProcess.expectCleanRun(
            workload: Self.workload, filter: "FileWriteFailureTests/fileSizeLimitWorkload", timeout: 100,
            proof: "WRITEFAILURE: done")
    }

    @Test(.childWorkload(FileWriteFailureTests.workload))
    func fileSizeLimitWorkload() async throws {
        // Past the limit a write fails with EFBIG, and the kernel sends SIGXFSZ, which would end
        // the process: ignore it, as a process that handles full disks must.
        signal(SIGXFSZ, SIG_IGN)
        var saved = rlimit()
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &saved) == 0)
        var limited = saved
        limited.rlim_cur = 1 << 20
        #expect(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limited) == 0)
        defer { _ = setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &saved) }

        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for transport in TestTransport.all {
            try await downloadFails(over: transport, into: folder)
            try await multipartFailsBeforeSending(over: transport)
            print("WRITEFAILURE: \(transport): download and multipart failed with typed errors")
        }
        print("WRITEFAILURE: done")
    }

    private func downloadFails(over transport: TestTransport, into folder: URL) async throws {
        let file = folder.appendingPathComponent("big-\(transport).bin")
        var endpoint = TestEndpoint.fixture("bytes/\(4 << 20)?seed=efbig", timeout: 60)
        endpoint.task = .download(DownloadDestination(file))
        do {
            _ = try await transport.router().request(endpoint)
            Issue.record("\(transport): the download succeeded past the file-size limit")
        } catch {
            // The message is read before the pattern match: matching `.download(.writeFailed(_,
            // let reason))` on the typed-thrown error and reading the error afterwards crashed
            // this child about one run in two (a released payload string): a compiler bug, it seems.
            let message = error.localizedDescription
            guard case .download(let downloadError) = error, case .writeFailed(let path, let reason) = downloadError else {
                Issue.record("\(transport): expected .download(.writeFailed), got \(message)")
                return
            }
            #expect(!path.isEmpty)
            #expect(reason == String(cString: strerror(EFBIG)))
            #expect(message.contains("could not be written"))
        }
        #expect(!FileManager.default.fileExists(atPath: file.path), "nothing at the destination")
        #expect(leftoverTemporaryFiles().isEmpty, "no working file left")
    }

    private func multipartFailsBeforeSending(over transport: TestTransport) async throws {
        var form = MultipartFormData()
        form.append(Data(repeating: 0x42, count: 11 << 20), name: "blob", fileName: "blob.bin")
        let key = "efbig-\(UUID().uuidString)"
        var endpoint = TestEndpoint.fixture("sequence/\(key)", .post, timeout: 60)
        endpoint.task = .uploadMultipart(form)
        do {
            _ = try await transport.router().request(endpoint)
            Issue.record("\(transport): the multipart upload succeeded past the file-size limit")
        } catch {
            let cause: (any Error)?
            switch error {
            case .underlying(let underlying): cause = underlying
            default: cause = nil
            }
            guard case .unwritableFile? = cause as? MultipartFormDataError else {
                Issue.record("\(transport): expected MultipartFormDataError.unwritableFile, got \(error)")
                return
            }
        }
        // Nothing reached the server, and no body file is left behind.
        let log = try await transport.router().request(.fixture("sequence/\(key)/log"))
        #expect((try jsonObject(log.data)["attempts"] as? [Any])?.isEmpty == true, "the server saw a request")
        #expect(leftoverTemporaryFiles().isEmpty, "no multipart file left")
    }
}
