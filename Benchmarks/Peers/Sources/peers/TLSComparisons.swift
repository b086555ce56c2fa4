import Foundation

/// Prints Router + CurlTransport against AsyncHTTPClient over TLS, on each nginx server of
/// Scripts/tls-server (HTTP/1.1 only, then h2 by ALPN), one at a time and 16 in flight, in the
/// interleaved blocks of the plain rows; then the ratios together and the connections each
/// client opened.
func runTLSComparisons(_ targets: TLSTargets) async throws {
    print("\n# Over TLS: GET /fast of nginx on 127.0.0.1 (Scripts/tls-server), both clients trusting its throwaway CA only")
    print(
        "(blocks A B B A, \(peerRounds) rounds per pair; ratio = D's throughput / C's per round: median (range); "
            + "h1.1: nginx offers http/1.1 only, h2: it offers h2 first)")
    var summary: [(String, Spread)] = []
    for server in targets.servers {
        let peers = try CurlPeers(server: server.url, certificateAuthorityFile: targets.certificateAuthorityFile)
        do {
            summary += try await compare(peers, on: server.name)
        } catch {
            try await peers.shutdown()
            throw error
        }
        try await peers.shutdown()
    }
    print("\n## Ratios over TLS (throughput, per round: median (range))")
    for (name, ratio) in summary {
        row(name, "\(ratio)")
    }
    try await runConnectionCounts(targets)
}

/// The rows of one server; returns its ratios.
private func compare(_ peers: CurlPeers, on server: String) async throws -> [(String, Spread)] {
    try await warmUp([peers.asyncHTTPClient, peers.routerCurl])
    var ratios: [(String, Spread)] = []
    for (label, width, perBlock) in peerWidths {
        print("\n## \(server), \(label), \(perBlock) requests per block")
        let ratio = try await peers.compare("\(server), \(label)", rounds: peerRounds, perBlock: perBlock, width: width)
        ratios.append(("Router+Curl / AsyncHTTPClient, \(server), \(label)", ratio))
    }
    return ratios
}
