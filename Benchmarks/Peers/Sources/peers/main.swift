import Foundation

// NetworkLayer beside its peers on the fixture server's `GET /fast` (127.0.0.1, keep-alive):
// Router + URLSessionTransport against raw URLSession, Router + CurlTransport against
// AsyncHTTPClient, in interleaved blocks in one process. `peers allocations` counts the
// allocations per request instead (run under LD_PRELOAD of malloc-interposer). The timings end
// with Router + CurlTransport against AsyncHTTPClient over TLS, on nginx, when the
// NETWORKLAYER_TLS_* variables of Scripts/tls-server are set.
// Run with Scripts/bench peers, which starts the fixture server and sets NETWORKLAYER_FIXTURE_URL.

guard let server = ProcessInfo.processInfo.environment["NETWORKLAYER_FIXTURE_URL"].flatMap(URL.init(string:)) else {
    print("NETWORKLAYER_FIXTURE_URL is not set: run Scripts/bench peers")
    exit(1)
}
// Loopback only: this sends thousands of requests a second.
guard server.host == "127.0.0.1" || server.host == "localhost" else {
    print("NETWORKLAYER_FIXTURE_URL must be on 127.0.0.1, not \(server.absoluteString)")
    exit(1)
}

let senders = try Senders(server: server)
do {
    if CommandLine.arguments.dropFirst().first == "allocations" {
        try await runAllocationCounts(senders)
    } else {
        try await runPeerComparisons(senders)
        if let targets = try TLSTargets.fromEnvironment() {
            try await runTLSComparisons(targets)
        } else {
            print("\n# Over TLS: skipped, NETWORKLAYER_TLS_* not set (Scripts/bench peers runs this under Scripts/tls-server)")
        }
    }
} catch {
    try await senders.shutdown()
    throw error
}
try await senders.shutdown()
