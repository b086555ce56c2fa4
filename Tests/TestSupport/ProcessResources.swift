import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What this test process holds right now, read from Linux's `/proc/self`, so that a test can
/// compare before and after a run and catch leaked sockets, threads or memory.
///
/// The readings return `nil` where `/proc` does not exist (macOS): the tests that need them
/// then report why they cannot measure instead of passing without having measured.
public enum ProcessResources {
    /// The number of open file descriptors: sockets, pipes, files, eventfds.
    public static func openFileDescriptors() -> Int? {
        // Listing the directory opens one descriptor of its own, which shows up in the listing;
        // it is there in every reading, so comparisons between readings are unaffected.
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else {
            return nil
        }
        return entries.count
    }

    /// The number of threads (the entries of `/proc/self/task`).
    public static func threads() -> Int? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else {
            return nil
        }
        return entries.count
    }

    /// The resident set size in bytes (`VmRSS` of `/proc/self/status`).
    public static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            return nil
        }
        // The line reads "VmRSS:\t   12345 kB".
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 3, let kibibytes = Int(fields[1]), fields[2] == "kB" else { return nil }
            return kibibytes * 1024
        }
        return nil
    }

    /// The peak resident set size in bytes since the process started or since the last
    /// ``resetPeakResidentBytes()`` (`VmHWM` of `/proc/self/status`).
    public static func peakResidentBytes() -> Int? {
        statusField("VmHWM:")
    }

    /// Makes the peak resident set size start again from the current one (writes 5 to
    /// `/proc/self/clear_refs`); `false` when the kernel does not allow it.
    public static func resetPeakResidentBytes() -> Bool {
        guard let file = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? file.close() }
        return (try? file.write(contentsOf: Data("5".utf8))) != nil
    }

    /// A `kB` field of `/proc/self/status`, in bytes.
    private static func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            return nil
        }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 3, let kibibytes = Int(fields[1]), fields[2] == "kB" else { return nil }
            return kibibytes * 1024
        }
        return nil
    }

    /// All three readings at once, for a before/after comparison.
    public struct Snapshot: CustomStringConvertible {
        public let fileDescriptors: Int
        public let threads: Int
        public let residentBytes: Int

        public static func now() -> Snapshot? {
            guard let fileDescriptors = ProcessResources.openFileDescriptors(),
                let threads = ProcessResources.threads(),
                let residentBytes = ProcessResources.residentBytes()
            else { return nil }
            return Snapshot(fileDescriptors: fileDescriptors, threads: threads, residentBytes: residentBytes)
        }

        public var residentMiB: Double { Double(residentBytes) / 1_048_576 }

        public var description: String {
            "\(fileDescriptors) fds, \(threads) threads, RSS \(String(format: "%.1f", residentMiB)) MiB"
        }
    }
}
