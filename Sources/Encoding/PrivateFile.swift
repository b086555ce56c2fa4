import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files and folders that hold a request or response body: readable by their owner only
/// (0600 files, 0700 folders), whatever the process's umask, since they sit in places other
/// users can list, such as the shared temporary folder (issue 23).
///
/// The mode is given to `open(2)` and `mkdir(2)` themselves, so there is no moment at which the
/// file or folder exists with wider permissions. Shared by the multipart writer, the
/// downloads of both transports and the disk cache.
package enum PrivateFile {
    /// The mode of a file that holds a body.
    package static let fileMode: mode_t = 0o600
    /// The mode of a folder that holds such files.
    package static let folderMode: mode_t = 0o700

    /// Opens `url` for writing, creating it 0600 if needed; an existing regular file is made
    /// 0600 too, and emptied first when `truncating`.
    ///
    /// - Throws: The `POSIXError` of `open(2)`.
    package static func openForWriting(_ url: URL, truncating: Bool) throws -> FileHandle {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (truncating ? O_TRUNC : 0)
        let descriptor = url.withUnsafeFileSystemRepresentation { path -> Int32 in
            guard let path else { return -1 }
            return open(path, flags, fileMode)
        }
        guard descriptor >= 0 else { throw POSIXError(errno) }
        // A file left by an earlier run (a resumable download's .partial) keeps the mode it was
        // created with: narrow it. Only a regular file: never a device a path may lead to.
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o777 != fileMode {
            _ = fchmod(descriptor, fileMode)
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Makes `url` a 0700 folder: creates it (and missing parents, with the default mode) or
    /// narrows the mode of the folder already there.
    ///
    /// - Throws: The `POSIXError` of `mkdir(2)` or `chmod(2)`, or `ENOTDIR` when something
    ///   else is at `url`.
    package static func makeFolder(_ url: URL) throws {
        let parent = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: parent.path) {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        }
        let path = url.path
        if mkdir(path, folderMode) != 0 {
            let failure = errno
            var isFolder: ObjCBool = false
            guard failure == EEXIST, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw POSIXError(failure)
            }
            guard isFolder.boolValue else { throw POSIXError(ENOTDIR) }
            guard chmod(path, folderMode) == 0 else { throw POSIXError(errno) }
        }
    }

    /// Writes all of `bytes` at the handle's position.
    ///
    /// - Throws: The `POSIXError` of the failed `write(2)`: `ENOSPC` on a full disk, `EFBIG`
    ///   past a file-size limit. Never traps, unlike `FileHandle.write(_:)`.
    package static func write(_ bytes: UnsafeRawBufferPointer, to handle: FileHandle) throws {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let wrote = systemWrite(handle.fileDescriptor, base + done, bytes.count - done)
            if wrote < 0 {
                if errno == EINTR { continue }
                throw POSIXError(errno)
            }
            guard wrote > 0 else { throw POSIXError(EIO) }
            done += wrote
        }
    }

    /// Writes all of `data` at the handle's position, as the buffer form does.
    package static func write(_ data: Data, to handle: FileHandle) throws {
        try data.withUnsafeBytes { try write($0, to: handle) }
    }
}

/// `write(2)`, named apart from the methods called `write` above.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, buffer, count)
    #elseif canImport(Musl)
    return Musl.write(descriptor, buffer, count)
    #else
    return Darwin.write(descriptor, buffer, count)
    #endif
}

extension POSIXError {
    /// The error for an `errno` value; `EIO` for a value that names no known code.
    init(_ code: Int32) {
        self.init(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
}
