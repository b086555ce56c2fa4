import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts a finished download's file at its destination in one step, so that a file already there
/// is either replaced whole or left exactly as it was.
///
/// `FileManager.replaceItemAt` is not used: on Linux it removes the destination and then fails
/// (swift-corelibs-foundation#4655), losing the very file it should replace. `rename(2)` replaces
/// atomically within one file system; `link(2)` refuses atomically when something is already
/// there. Across file systems the file is first copied next to the destination, then placed the
/// same way, and the source is removed only once the copy is in place.
enum FilePlacement {
    /// Moves `source` to `destination`.
    ///
    /// - Parameter replacing: Whether a file already at `destination` may be replaced.
    /// - Throws: ``DownloadError/destinationExists(_:)`` when something is at `destination` and
    ///   `replacing` is false; ``DownloadError/cannotWrite(_:)`` for every other failure. In both
    ///   cases `destination` is as it was.
    static func move(_ source: URL, to destination: URL, replacing: Bool) throws(DownloadError) {
        switch place(source, at: destination, replacing: replacing) {
        case 0:
            if !replacing { unlink(source.path) }
            return
        case EXDEV:
            try moveAcrossFileSystems(source, to: destination, replacing: replacing)
        case EEXIST:
            throw .destinationExists(destination.path)
        default:
            throw .cannotWrite(destination.path)
        }
    }

    /// One atomic step: rename over the destination, or hard-link beside nothing. Returns 0 or
    /// the `errno` of the failure.
    private static func place(_ source: URL, at destination: URL, replacing: Bool) -> Int32 {
        if replacing {
            return rename(source.path, destination.path) == 0 ? 0 : errno
        }
        if link(source.path, destination.path) == 0 { return 0 }
        let failure = errno
        // Some file systems have no hard links; then a check and a rename, which a file created
        // in between could lose to. Documented on DownloadDestination.
        guard failure == EPERM || failure == ENOTSUP || failure == ENOSYS || failure == EMLINK else { return failure }
        if FileManager.default.fileExists(atPath: destination.path) { return EEXIST }
        return rename(source.path, destination.path) == 0 ? 0 : errno
    }

    private static func moveAcrossFileSystems(_ source: URL, to destination: URL, replacing: Bool) throws(DownloadError) {
        let sibling = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).networklayer-\(UUID().uuidString)")
        do {
            try FileManager.default.copyItem(at: source, to: sibling)
        } catch {
            unlink(sibling.path)
            throw .cannotWrite(destination.path)
        }
        let placed = place(sibling, at: destination, replacing: replacing)
        if placed != 0 || !replacing { unlink(sibling.path) }
        switch placed {
        case 0: unlink(source.path)
        case EEXIST: throw .destinationExists(destination.path)
        default: throw .cannotWrite(destination.path)
        }
    }
}
