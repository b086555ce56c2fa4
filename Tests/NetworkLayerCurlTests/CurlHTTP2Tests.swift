import Foundation
import NetworkLayer
import NetworkLayerCurl
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// nginx serving h2 and HTTP/1.1 over TLS on 127.0.0.1 (`Scripts/tls-server`, which Scripts/test
/// runs this suite beside).
enum NginxTLS {
    static let http2 = environment("NETWORKLAYER_TLS_HTTP2_URL")
    static let certificateAuthorityFile = environment("NETWORKLAYER_TLS_CA_FILE")
    /// nginx's log of `/large/` requests: "URI PROTOCOL BYTES-SENT" a line.
    static let largeLog = environment("NETWORKLAYER_TLS_LARGE_LOG")

    private static func environment(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only beside the nginx of `Scripts/tls-server`.
    static var needsNginx: Self {
        .enabled(
            if: NginxTLS.http2 != nil && NginxTLS.largeLog != nil,
            "Scripts/test runs this suite beside nginx (Scripts/tls-server NETWORKLAYER_TLS_* variables)")
    }
}

/// A stream whose reader stops holds about 1 MiB (the transfer pauses), over HTTP/2 too. On a
/// multiplexed h2 connection libcurl 7.88 went on reading the connection for the other streams
/// and kept the paused stream's frames, up to its 32 MiB window: nginx sent 33,554,432 bytes of a
/// stream nobody read, and each such stream added 32 MiB to the process (found from outside,
/// 2026-11-26). A stream now gets an HTTP/1.1 connection of its own, where a pause stops
/// libcurl reading the socket.
@Suite("CurlTransport over HTTP/2", .needsNginx, .serialized)
struct CurlHTTP2Tests {
    @Test func aStreamNobodyReadsIsNotSentMoreThanItsPauseBound() async throws {
        let base = try #require(NginxTLS.http2)
        let authority = URL(fileURLWithPath: try #require(NginxTLS.certificateAuthorityFile))
        let log = try #require(NginxTLS.largeLog)
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = UUID().uuidString
        let paused = try #require(URL(string: "\(base)/large/paused-\(key)"))
        let read = try #require(URL(string: "\(base)/large/read-\(key)"))
        let fast = try #require(URL(string: "\(base)/fast"))

        try await withCurlTransport(.init(certificateAuthority: .file(authority))) { transport in
            // An h2 connection first, which the stream would share.
            #expect(try await transport.send(URLRequest(url: fast)).1.statusCode == 200)
            let stream = try await transport.execute(URLRequest(url: paused), body: nil, progress: { _, _ in })
            #expect(stream.response.statusCode == 200)
            // 96 MiB read to the end beside it: on a shared connection, libcurl reads the paused
            // stream's frames with this one's.
            let (_, other) = try await transport.download(
                URLRequest(url: read, timeoutInterval: 60), to: folder.appendingPathComponent("read.bin"), progress: { _, _ in })
            #expect(other.statusCode == 200)
            withExtendedLifetime(stream) {}
        }

        // nginx logs a request once it ends: the stream's, when the transport above let it go.
        var line: [Substring] = []
        _ = await eventually(within: 10) {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            line = text.split(separator: "\n").first { $0.hasPrefix("/large/paused-\(key) ") }?.split(separator: " ") ?? []
            return line.count == 3
        }
        try #require(line.count == 3, "nginx logged no line for the stream")
        let sent = try #require(Int(line[2]))
        #expect(line[1] == "HTTP/1.1", "the stream shared the h2 connection")
        #expect(sent < 16 << 20, "nginx sent \(sent) bytes of a stream nobody read")
        print("HTTP2: the unread stream went over \(line[1]); nginx sent \(sent) bytes of it")
    }
}
