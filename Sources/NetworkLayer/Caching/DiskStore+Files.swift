import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The disk store's files: names, and whole reads and writes with POSIX calls, whose failures
/// (a file removed meanwhile, a short read, a full disk) are plain `nil` or `false`, never a trap.
extension DiskStore {
    /// The path of `name` in the store's folder.
    func filePath(_ name: String) -> String {
        directory.path + "/" + name
    }

    /// The path of entry `id`'s file.
    func path(of id: SHA256Digest) -> String {
        filePath(id.hex + "." + Self.fileExtension)
    }

    /// A new name for a file being written, before its rename: `partial-<UUID>.nlcache`.
    static func temporaryFileName() -> String {
        "partial-" + UUID().uuidString + "." + fileExtension
    }

    /// Whether `name` is one that ``temporaryFileName()`` makes, or `partial-<UUID>`, which
    /// versions before 2026-11-26 made. Only such files are removed when a folder is opened: a
    /// file of the caller's named `partial-report.txt` was removed too.
    static func isTemporaryFileName(_ name: String) -> Bool {
        guard name.hasPrefix("partial-") else { return false }
        let suffix = "." + fileExtension
        let uuid = name.dropFirst("partial-".count)
        return UUID(uuidString: String(name.hasSuffix(suffix) ? uuid.dropLast(suffix.count) : uuid)) != nil
    }

    /// The id in a name of the form `<64 hex digits>.nlcache`; `nil` for any other name.
    static func entryID(fromFileName name: String) -> SHA256Digest? {
        let utf8 = Array(name.utf8)
        let suffix = Array(("." + fileExtension).utf8)
        guard utf8.count == 64 + suffix.count, utf8.suffix(suffix.count).elementsEqual(suffix) else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = hexValue(utf8[index]), let low = hexValue(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return SHA256Digest(bytes: bytes)
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// The whole file, when it is at most `limit` bytes and can be read to its end.
    static func readFile(_ path: String, limit: Int) -> Data? {
        guard let (descriptor, size) = openEntry(path) else { return nil }
        defer { close(descriptor) }
        guard size <= limit else { return nil }
        return read(descriptor, count: size, at: 0).map { Data($0) }
    }

    /// `path` opened for reading, with its size, when it is a regular file; `nil` otherwise. A
    /// FIFO named like an entry blocked `open(2)`, and with it `HTTPCache.init`, until some
    /// writer came (found from outside, 2026-11-26): the open does not wait, and follows no link.
    static func openEntry(_ path: String) -> (descriptor: Int32, size: Int)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= 0 else {
            close(descriptor)
            return nil
        }
        return (descriptor, Int(info.st_size))
    }

    /// Exactly `count` bytes from `offset`, or `nil` when the file ends first or a read fails.
    static func read(_ descriptor: Int32, count: Int, at offset: Int) -> [UInt8]? {
        guard count >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            var done = 0
            while done < count {
                guard let base = buffer.baseAddress else { return false }
                let got = pread(descriptor, base + done, count - done, off_t(offset + done))
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return false }
                done += got
            }
            return true
        }
        return complete ? bytes : nil
    }

    /// Creates `path` (it must not exist) with `data`; `false` on any failure.
    static func writeNewFile(_ path: String, _ data: Data) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        var complete = data.withUnsafeBytes { buffer -> Bool in
            var done = 0
            while done < buffer.count {
                guard let base = buffer.baseAddress else { return false }
                let wrote = write(descriptor, base + done, buffer.count - done)
                if wrote < 0 && errno == EINTR { continue }
                guard wrote > 0 else { return false }
                done += wrote
            }
            return true
        }
        if close(descriptor) != 0 { complete = false }
        return complete
    }
}
