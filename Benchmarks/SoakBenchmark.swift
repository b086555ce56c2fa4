import Foundation
import NetworkLayer
import NetworkLayerCurl
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a long-running process keeps: `requests` GETs of the fixture's fast route, 16 in flight,
/// every third cancelled right after it starts, through one sender; the resident set is read
/// after a warm-up and at each fifth of the run. Bytes per request is the growth over the last
/// four fifths divided by their requests, so that caches filling during the first fifth do not
/// count. Each sender runs in a process of its own (Scripts/bench soak).
func runSoakBenchmark(server: URL, sender: String, requests: Int) async throws {
    print("\n## Soak: \(requests) requests through \(sender), 16 in flight, every third cancelled")
    let endpoint = BenchEndpoint(baseURL: server)
    let url = try RequestBuilder.makeRequest(for: endpoint).url ?? server
    let send: @Sendable (_ cancel: Bool) async -> Void
    switch sender {
    case "raw":
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 16
        // As owned sessions have it: with a URLCache, a cancel() right after resume() traps in
        // FoundationNetworking's TaskRegistry (its asynchronous cache lookup races with it).
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        send = { cancel in
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let task = session.dataTask(with: url) { _, _, _ in continuation.resume() }
                task.resume()
                if cancel { task.cancel() }
            }
        }
    case "urlsession", "curl":
        let router = Router<BenchEndpoint>(
            transport: sender == "curl" ? CurlTransport() : URLSessionTransport(), callbackQueue: DispatchQueue(label: "soak"))
        send = { cancel in
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let handle = router.request(endpoint) { _ in continuation.resume() }
                if cancel { handle.cancel() }
            }
        }
    default:
        print("unknown sender \(sender): raw, urlsession or curl")
        return
    }

    func run(_ count: Int, from start: Int) async {
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<16 {
                group.addTask {
                    var index = start + lane
                    while index < start + count {
                        await send(index % 3 == 2)
                        index += 16
                    }
                }
            }
        }
    }

    await run(5_000, from: 0)
    let fifth = requests / 5
    var samples: [Double] = [currentRSSMiB() ?? 0]
    let started = Date()
    for part in 0..<5 {
        await run(fifth, from: 5_000 + part * fifth)
        samples.append(currentRSSMiB() ?? 0)
    }
    let seconds = Date().timeIntervalSince(started)
    row("resident set after warm-up, then each fifth", samples.map { format($0, 1) }.joined(separator: ", ") + " MiB")
    let growth = (samples[5] - samples[1]) * 1_048_576
    row("growth over the last four fifths", format(growth / 1_048_576, 1) + " MiB")
    row("  bytes per request", format(growth / Double(4 * fifth), 1))
    row("requests per second", "\(Int(Double(5 * fifth) / seconds))")
}

/// The process's resident set size now, in MiB (Linux: VmRSS in /proc/self/status).
func currentRSSMiB() -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return line.split(separator: " ").compactMap { Double($0) }.first.map { $0 / 1024 }
    }
    return nil
}
