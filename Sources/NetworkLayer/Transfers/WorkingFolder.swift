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
/// removed it meanwhile (a temporary-folder cleaner). The files are removed with their request;
/// the empty folder stays until the system clears the temporary folder.
enum WorkingFolder {
    private static let current = Locked<URL?>(nil)

    /// The folder, made now if there is none.
    ///
    /// - Throws: The `POSIXError` of `mkdtemp(3)`: the temporary folder is missing or full.
    static func url() throws -> URL {
        try current.withLock { folder in
            if let folder, FileManager.default.fileExists(atPath: folder.path) { return folder }
            let made = try makeFolder()
            folder = made
            return made
        }
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
