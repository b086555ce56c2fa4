import Foundation
import NetworkLayer
#if canImport(Glibc)
import Glibc
#endif

/// A request body as libcurl reads it: in pieces, from the start again whenever libcurl has to
/// send the request once more (a reused connection that the server had closed).
///
/// Used on the engine's thread only, through libcurl's read and seek callbacks.
final class CurlUploadSource {
    private enum Storage {
        case data(Data)
        case file(descriptor: Int32)
    }

    private var storage: Storage
    /// The body's size, sent as `Content-Length`.
    let size: Int64
    /// The offset of the next byte libcurl will read.
    private(set) var offset: Int64 = 0

    /// Opens `body`; a file is opened now, so that a missing file fails the request before
    /// anything is sent.
    ///
    /// - Throws: `URLError(.fileDoesNotExist)` or `URLError(.noPermissionsToReadFile)`, as Apple
    ///   platforms report an upload from such a file.
    init(_ body: UploadBody) throws {
        switch body {
        case .data(let data):
            storage = .data(data)
            size = Int64(data.count)
        case .file(let url):
            let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let code: URLError.Code = errno == ENOENT ? .fileDoesNotExist : .noPermissionsToReadFile
                throw URLError(
                    code,
                    userInfo: [NSLocalizedDescriptionKey: "The file to upload cannot be opened: \(String(cString: strerror(errno)))."])
            }
            var status = stat()
            guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                close(descriptor)
                throw URLError(.noPermissionsToReadFile, userInfo: [NSLocalizedDescriptionKey: "The file to upload is not a regular file."])
            }
            storage = .file(descriptor: descriptor)
            size = Int64(status.st_size)
        }
    }

    deinit {
        if case .file(let descriptor) = storage {
            close(descriptor)
        }
    }

    enum ReadResult {
        case bytes(Int)
        /// The body ended before `size` bytes (a file that shrank), or the file cannot be read.
        case failed(String)
    }

    /// Copies up to `buffer.count` of the next bytes into `buffer`; `.bytes(0)` once all `size`
    /// bytes were read.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        let wanted = Int(min(Int64(buffer.count), size - offset))
        guard wanted > 0, let base = buffer.baseAddress else { return .bytes(0) }
        switch storage {
        case .data(let data):
            let start = data.startIndex + Int(offset)
            data.copyBytes(to: base.assumingMemoryBound(to: UInt8.self), from: start..<(start + wanted))
            offset += Int64(wanted)
            return .bytes(wanted)
        case .file(let descriptor):
            var count: Int
            repeat {
                count = Glibc.read(descriptor, base, wanted)
            } while count < 0 && errno == EINTR
            guard count >= 0 else { return .failed("the file to upload cannot be read: \(String(cString: strerror(errno)))") }
            guard count > 0 else { return .failed("the file to upload became shorter while it was sent") }
            offset += Int64(count)
            return .bytes(count)
        }
    }

    /// Moves back to `position` (libcurl only asks for the start); `false` if that fails.
    func seek(to position: Int64) -> Bool {
        guard position >= 0, position <= size else { return false }
        if case .file(let descriptor) = storage {
            guard lseek(descriptor, off_t(position), SEEK_SET) == off_t(position) else { return false }
        }
        offset = position
        return true
    }
}
