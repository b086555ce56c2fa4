import Foundation

/// nginx's access log of the requests under `/counted/` (Scripts/tls-server), a line each:
/// "$connection $connection_requests $server_protocol". The server's side of what a client did:
/// neither client says how many connections it opened.
struct AccessLog {
    let path: String

    /// What the log holds so far: a run's lines are those written after it.
    func contents() -> Data {
        FileManager.default.contents(atPath: path) ?? Data()
    }

    /// The lines written after `start` (an earlier `contents().count`), once there are
    /// `count`: nginx writes a request's line after its response has gone, so the last lines
    /// can come just after the client has every answer.
    func lines(after start: Int, count: Int) async throws -> [Substring] {
        var lines: [Substring] = []
        for _ in 0..<200 {
            let text = String(decoding: contents().dropFirst(start), as: UTF8.self)
            lines = text.split(separator: "\n")
            if lines.count >= count { return lines }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw UnexpectedAnswer(description: "\(path): \(lines.count) lines after 2 s, not \(count)")
    }
}

/// The connections one client's requests arrived on, as nginx logged them.
struct ConnectionTally {
    let requests: Int
    /// Distinct `$connection` serial numbers.
    let connections: Int
    /// The largest `$connection_requests`: how evenly the requests were spread.
    let mostOnOneConnection: Int
    /// `$server_protocol` of the requests, "HTTP/1.1" or "HTTP/2.0": what ALPN chose.
    let protocols: Set<String>

    init(lines: [Substring]) {
        let fields = lines.map { $0.split(separator: " ") }.filter { $0.count == 3 }
        requests = fields.count
        connections = Set(fields.map { $0[0] }).count
        mostOnOneConnection = fields.compactMap { Int($0[1]) }.max() ?? 0
        protocols = Set(fields.map { String($0[2]) })
    }
}
