import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's own folder for the files that hold bodies while a request runs: download
/// working files and multipart bodies too large for memory.
///
/// One folder per process, `networklayer-XXXXXX` in the temporary folder, made by `mkdtemp(3)`
/// and so 0700 from its first moment: the temporary folder is shared with every other user of
/// the machine, and a body (a download, a form with a password) is nobody else's to read or to
/// replace. Its files are 0600 (``PrivateFile``). Made on first use, and made again if something
/// removed it meanwhile (a temporary-folder cleaner), or if what is at its path now is not it:
/// not a folder of this user's that only this user may enter (``isPrivate(_:)``). The files are
/// removed with their request; the empty folder stays until the system clears the temporary
/// folder.
enum WorkingFolder {
    private static let current = Locked<URL?>(nil)

    /// The folder, made now if there is none.
    ///
    /// - Throws: The `POSIXError` of `mkdtemp(3)`: the temporary folder is missing or full.
    static func url() throws -> URL {
        try current.withLock { folder in
            if let folder, isPrivate(folder) { return folder }
            let made = try makeFolder()
            folder = made
            return made
        }
    }

    /// Whether `folder` is a folder (not a link to one) owned by this process's user, which no
    /// one else may enter. After a temporary-folder cleaner removed ours, another user of the
    /// machine could make one by the same name, open to them: the working files in it would be
    /// theirs to replace before they are moved into place (found from outside 2026-11-27).
    static func isPrivate(_ folder: URL) -> Bool {
        var info = stat()
        guard lstat(folder.path, &info) == 0 else { return false }
        return info.st_mode & mode_t(S_IFMT) == mode_t(S_IFDIR) && info.st_uid == geteuid() && info.st_mode & 0o077 == 0
    }

    /// The folder when one was made, without making it (for tests that look inside).
    static var existing: URL? { current.withLock { $0 } }

    /// A new file name in the folder, starting with `prefix`.
    static func newFile(prefix: String) throws -> URL {
        try url().appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    private static func makeFolder() throws -> URL {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("networklayer-XXXXXX").path
        var path = Array(template.utf8CString)
        let made = path.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        guard made else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let folder = path.withUnsafeBufferPointer { buffer in
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return URL(fileURLWithPath: folder, isDirectory: true)
    }
}
