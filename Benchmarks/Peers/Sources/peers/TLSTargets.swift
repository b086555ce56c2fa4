import Foundation

/// The two nginx servers of Scripts/tls-server, read from the environment it gives its command:
/// the base URLs, the throwaway CA both clients trust, and the log that counts connections.
struct TLSTargets {
    /// The variables Scripts/tls-server sets; all or none.
    static let variables = [
        "NETWORKLAYER_TLS_HTTP1_URL", "NETWORKLAYER_TLS_HTTP2_URL", "NETWORKLAYER_TLS_CA_FILE", "NETWORKLAYER_TLS_ACCESS_LOG",
    ]

    /// Each server by the protocol it offers by ALPN: HTTP/1.1 only, then h2 (and HTTP/1.1).
    let servers: [(name: String, url: URL)]
    let certificateAuthorityFile: String
    /// nginx's log of the requests under `/counted/`: "$connection $connection_requests $server_protocol".
    let accessLog: String

    /// `nil` when none of ``variables`` is set: run outside Scripts/tls-server.
    static func fromEnvironment() throws -> TLSTargets? {
        let environment = ProcessInfo.processInfo.environment
        let values = variables.compactMap { environment[$0] }
        if values.isEmpty { return nil }
        guard values.count == variables.count else {
            throw UnexpectedAnswer(description: "set all of \(variables.joined(separator: ", ")) or none")
        }
        let urls = try values[0...1].map { value -> URL in
            // Loopback by address, not `localhost`, which may resolve elsewhere first: this sends
            // thousands of requests a second.
            guard let url = URL(string: value), url.scheme == "https", url.host == "127.0.0.1" else {
                throw UnexpectedAnswer(description: "\(value) is not https://127.0.0.1:PORT")
            }
            return url
        }
        return TLSTargets(
            servers: [("TLS h1.1", urls[0]), ("TLS h2", urls[1])],
            certificateAuthorityFile: values[2], accessLog: values[3])
    }
}
