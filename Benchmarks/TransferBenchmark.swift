import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct TransferEndpoint: EndPointType {
    var baseURL: URL
    var path: String
    var httpMethod: HTTPMethod
    var task: HTTPTask
    var headers: HTTPHeaders? { nil }
    var timeout: TimeInterval { 300 }
}

/// Resets the kernel's peak-RSS mark (Linux: writing 5 to /proc/self/clear_refs), so that the
/// next reading of VmHWM is the peak of what follows, not of earlier benchmarks.
func resetPeakRSS() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

/// Peak RSS growth while `body` runs, in MiB.
func peakGrowth(_ body: () async throws -> Void) async rethrows -> Double? {
    resetPeakRSS()
    let before = currentRSSMiB()
    try await body()
    guard let before, let peak = peakRSSMiB() else { return nil }
    return peak - before
}

func runTransferBenchmarks(server: URL) async throws {
    print("\n## 200 MiB download and upload through the Router (peak RSS growth; the issue's bound is 50 MiB)")
    let size = 200 * 1024 * 1024
    let router = Router<TransferEndpoint>()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("networklayer-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("200MiB.bin")

    var seconds = 0.0
    let download = try await peakGrowth {
        let start = Date()
        _ = try await router.request(
            TransferEndpoint(
                baseURL: server, path: "bytes/\(size)?seed=bench", httpMethod: .get,
                task: .download(DownloadDestination(file))))
        seconds = Date().timeIntervalSince(start)
    }
    row("download 200 MiB to a file: peak RSS growth", (download.map { format($0, 1) } ?? "?") + " MiB")
    row("  throughput", format(200 / seconds, 0) + " MiB/s")

    let upload = try await peakGrowth {
        let start = Date()
        _ = try await router.request(
            TransferEndpoint(
                baseURL: server, path: "upload", httpMethod: .post, task: .uploadFile(file)))
        seconds = Date().timeIntervalSince(start)
    }
    row("upload 200 MiB from a file: peak RSS growth", (upload.map { format($0, 1) } ?? "?") + " MiB")
    row("  throughput", format(200 / seconds, 0) + " MiB/s")
}
