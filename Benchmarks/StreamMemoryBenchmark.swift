import Foundation
import NetworkLayer
import NetworkLayerCurl
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct StreamEndpoint: EndPointType {
    var baseURL: URL
    var path: String
    var httpMethod: HTTPMethod { .get }
    var task: HTTPTask { .request }
    var headers: HTTPHeaders? { nil }
}

/// 1 GiB of server-sent events read by a reader slower than the server (it pauses 1 ms every
/// 64 KiB, so at most about 60 MiB/s), through the router and `transport`: the peak RSS growth, the throughput, and how it
/// ended. Run in a process of its own per transport (Scripts/bench stream-memory): a stream
/// URLSession could not stop keeps its work queue busy after it.
func runStreamMemoryBenchmark(server: URL, transport name: String) async throws {
    let transport: any HTTPTransport = name == "curl" ? CurlTransport() : URLSessionTransport()
    let router = Router<StreamEndpoint>(transport: transport, callbackQueue: DispatchQueue(label: "bench"))
    let size = 1 << 30
    let eventSize = 1024
    let events = size / (eventSize + 8)
    print("\n## 1 GiB stream read by a slow reader, \(name) (peak RSS growth)")
    var received = 0
    var outcome = "read to the end"
    var seconds = 0.0
    let growth = await peakGrowth {
        let start = Date()
        var sinceLastPause = 0
        do {
            for try await chunk in router.stream(StreamEndpoint(baseURL: server, path: "sse/endless?events=\(events)&size=\(eventSize)")) {
                received += chunk.count
                sinceLastPause += chunk.count
                if sinceLastPause >= 64 << 10 {
                    sinceLastPause = 0
                    try? await Task.sleep(nanoseconds: 1_000_000)
                }
            }
        } catch {
            outcome = "stopped: \(error.localizedDescription)"
        }
        seconds = Date().timeIntervalSince(start)
    }
    row("  peak RSS growth", (growth.map { format($0, 1) } ?? "?") + " MiB")
    row("  received", "\(received >> 20) MiB in \(format(seconds, 1)) s (\(format(Double(received >> 20) / seconds, 0)) MiB/s)")
    row("  outcome", outcome)
}
