import Foundation

/// Prints how many connections each client opened for `requests` requests with `width` in
/// flight, on each TLS server: fresh clients, configured as the timed ones, sending
/// `GET /counted/fast`, which nginx logs with its connection's serial number.
func runConnectionCounts(_ targets: TLSTargets, requests: Int = 3_200, width: Int = 16) async throws {
    print("\n## Connections opened for \(requests) requests, \(width) in flight (fresh clients; counted by nginx: distinct $connection)")
    let log = AccessLog(path: targets.accessLog)
    for server in targets.servers {
        let peers = try CurlPeers(
            server: server.url.appendingPathComponent("counted"), certificateAuthorityFile: targets.certificateAuthorityFile)
        do {
            for (name, send) in [("C AsyncHTTPClient", peers.asyncHTTPClient), ("D Router + CurlTransport", peers.routerCurl)] {
                let start = log.contents().count
                try await inFlight(requests, width: width, send)
                let tally = ConnectionTally(lines: try await log.lines(after: start, count: requests))
                row(
                    "\(name), \(server.name)",
                    "\(tally.connections) connection\(tally.connections == 1 ? "" : "s"), at most \(tally.mostOnOneConnection) requests on one; "
                        + "\(tally.protocols.sorted().joined(separator: ", ")) (\(tally.requests) logged)")
            }
        } catch {
            try await peers.shutdown()
            throw error
        }
        try await peers.shutdown()
    }
}
