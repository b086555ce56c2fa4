import Foundation

/// Rounds of blocks A B B A per pair, the plain rows and the TLS rows alike.
let peerRounds = 6

/// Requests in flight and requests per block of each group of rows: one at a time, then as
/// many as each client has connections.
let peerWidths: [(label: String, width: Int, perBlock: Int)] = [("1 in flight", 1, 500), ("16 in flight", 16, 1_000)]

/// Prints requests/s, CPU per request and the per-round throughput ratios of each pair, one at
/// a time and 16 in flight, then the four ratios together.
func runPeerComparisons(_ senders: Senders) async throws {
    let rounds = peerRounds
    print("# NetworkLayer beside its peers: GET \(senders.fast.absoluteString) on loopback (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
    print("(one process; blocks A B B A, \(rounds) rounds per pair; ratio = B's throughput / A's per round: median (range))")
    print(
        "URLSession sides: URLSessionConfiguration.default as Router<EP>() has it, "
            + "\(senders.sessionConfiguration.httpMaximumConnectionsPerHost) connections per host; "
            + "AsyncHTTPClient and CurlTransport: 16")

    try await warmUp([senders.rawCompletion, senders.rawData, senders.routerURLSession, senders.asyncHTTPClient, senders.routerCurl])

    var summary: [(String, Spread)] = []
    for (label, width, perBlock) in peerWidths {
        print("\n## \(label), \(perBlock) requests per block")
        let urlSession = try await interleaved(
            rounds: rounds, perBlock: perBlock, width: width, a: senders.rawCompletion, b: senders.routerURLSession)
        sides(("A raw URLSession dataTask + continuation", "B Router + URLSessionTransport"), urlSession)
        row("  Router+URLSession / raw URLSession, \(label)", "\(urlSession.ratio)")
        // data(for:) completes inline inside FoundationNetworking, which no completion-handler
        // client can: the ceiling of URLSession here, not a like-for-like baseline.
        let inline = try await interleaved(
            rounds: rounds, perBlock: perBlock, width: width, a: senders.rawData, b: senders.routerURLSession)
        row("  Router+URLSession / raw data(for:), \(label)", "\(inline.ratio)")
        row("  raw data(for:) / B", "\(Int(inline.a.median)) / \(Int(inline.b.median)) req/s")

        let curl = try await senders.curlPeers.compare(label, rounds: rounds, perBlock: perBlock, width: width)
        summary += [
            ("Router+URLSession / raw URLSession, \(label)", urlSession.ratio),
            ("Router+Curl / AsyncHTTPClient, \(label)", curl),
        ]
    }
    print("\n## Ratios (throughput, per round: median (range))")
    for (name, ratio) in summary {
        row(name, "\(ratio)")
    }
}

extension CurlPeers {
    /// Router + CurlTransport against AsyncHTTPClient in interleaved blocks: prints both sides and
    /// the ratio under `label`, and returns the ratio.
    func compare(_ label: String, rounds: Int, perBlock: Int, width: Int) async throws -> Spread {
        let curl = try await interleaved(rounds: rounds, perBlock: perBlock, width: width, a: asyncHTTPClient, b: routerCurl)
        sides(("C AsyncHTTPClient", "D Router + CurlTransport"), curl)
        row("  Router+Curl / AsyncHTTPClient, \(label)", "\(curl.ratio)")
        return curl.ratio
    }
}

/// The requests/s (median of the blocks), CPU and context switches per request of both sides.
func sides(_ names: (a: String, b: String), _ comparison: Comparison) {
    row(
        names.a,
        "\(Int(comparison.a.median)) req/s, \(format(comparison.aCPUMicroseconds, 1)) µs CPU/request, "
            + "\(format(comparison.aContextSwitches, 2)) switches/request")
    row(
        names.b,
        "\(Int(comparison.b.median)) req/s, \(format(comparison.bCPUMicroseconds, 1)) µs CPU/request, "
            + "\(format(comparison.bContextSwitches, 2)) switches/request")
}
