import Foundation

/// This process's open file descriptors and threads, from Linux's `/proc/self`; `nil` elsewhere.
struct ProcessCounts: CustomStringConvertible {
    let fileDescriptors: Int
    let threads: Int
    let residentBytes: Int

    static func now() -> ProcessCounts? {
        let manager = FileManager.default
        guard let descriptors = try? manager.contentsOfDirectory(atPath: "/proc/self/fd"),
            let threads = try? manager.contentsOfDirectory(atPath: "/proc/self/task"),
            let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        else { return nil }
        // "VmRSS:\t   12345 kB"
        let resident = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first }
            .flatMap { Int($0) }
        return ProcessCounts(fileDescriptors: descriptors.count, threads: threads.count, residentBytes: (resident ?? 0) * 1024)
    }

    var residentMiB: Double { Double(residentBytes) / 1_048_576 }

    var description: String {
        "\(fileDescriptors) fds, \(threads) threads, RSS \(String(format: "%.1f", residentMiB)) MiB"
    }
}

/// Waits until `condition` holds or `seconds` pass; returns whether it held.
func eventually(within seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return condition()
}
