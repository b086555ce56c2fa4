import Foundation
import Testing
import TestSupport
@testable import NetworkLayer

// tmpfs at /dev/shm, which takes a sparse file of the largest size a file may have, is Linux's.
#if os(Linux)
/// A form whose file parts add up past `UInt64.max` reports `UInt64.max` as its length.
///
/// The sum used to overflow and end the process (found from outside, 2026-11-26): three parts
/// naming one sparse file of 2⁶³ − 1 bytes, which tmpfs allows without using any memory. The
/// workload runs in a child process so that such a trap fails this test instead of the run.
@Suite("Multipart length overflow")
struct MultipartLengthOverflowTests {
    @Test func aFormLargerThanUInt64IsMeasuredWithoutATrap() async throws {
        try await ChildProcess.expectCleanRun(
            workload: "multipart-length-overflow", filter: "MultipartLengthOverflowTests/overflowWorkload", timeout: 60,
            proof: "OVERFLOW: done")
    }

    @Test(.childWorkload("multipart-length-overflow"))
    func overflowWorkload() throws {
        // ext4 refuses a file above 16 TiB; tmpfs takes one of 2⁶³ − 1 bytes, none of them stored.
        let folder = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        let file = folder.appendingPathComponent("networklayer-sparse-\(UUID().uuidString)")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(Int64.max))
        try handle.close()

        var form = MultipartFormData()
        try form.append(fileAt: file, name: "one")
        #expect(form.contentLength > UInt64(Int64.max), "one part: \(form.contentLength)")
        #expect(form.contentLength < .max)
        try form.append(fileAt: file, name: "two")
        try form.append(fileAt: file, name: "three")
        #expect(form.contentLength == .max)
        print("OVERFLOW: done")
    }
}
#endif
