import Foundation
import Testing
import TestSupport

@testable import NetworkLayer

#if canImport(FoundationNetworking)
import FoundationNetworking

/// FoundationNetworking's `HTTPCookieStorage.shared` writes every cookie with an expiry to
/// `$XDG_DATA_HOME/<name>/.cookies.shared` (`~/.local/share` by default), where `<name>` is the
/// name of the executable's directory: `release` or `debug` for every program SwiftPM builds.
/// Every such program of the user loads that file, and sends its cookies. On this machine a
/// cookie that one program's server set on 127.0.0.1 was sent, hours later, by our benchmark
/// (2026-11-27). The default transport keeps cookies in memory, for the process, instead.
/// Each check runs in a child process whose `XDG_DATA_HOME` is a directory of its own.
@Suite("The default transport's cookies on Linux", .needsFixtureServer, .timeLimit(.minutes(2)))
struct DefaultCookieStorageTests {
    static let child = "default-cookie-storage"
    static let dataHomeVariable = "NETWORKLAYER_TEST_DATA_HOME"

    @Test func theDefaultTransportWritesNoCookieToDiskAndSharesItInTheProcess() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("networklayer-xdg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        try await ChildProcess.expectCleanRun(
            workload: Self.child, filter: "DefaultCookieStorageTests/cookieWorkload", timeout: 90,
            proof: "COOKIES: done", environment: ["XDG_DATA_HOME": home.path, Self.dataHomeVariable: home.path])
    }

    @Test(.childWorkload(DefaultCookieStorageTests.child))
    func cookieWorkload() async throws {
        let home = try #require(ProcessInfo.processInfo.environment[Self.dataHomeVariable])
        // The fixture sets `expiring=1` (with an Expires date, so FoundationNetworking persists
        // it) and `plain=2`.
        let setter = Router<TestEndpoint>(transport: URLSessionTransport(), callbackQueue: DispatchQueue(label: "set"))
        _ = try await setter.request(.fixture("set-cookies"))
        let written = Self.files(under: home).filter { (try? String(contentsOfFile: $0, encoding: .utf8))?.contains("expiring") == true }
        #expect(written.isEmpty, "the cookie was written to \(written)")

        // Another default transport of the process sends it, as one on `.shared` would.
        let reader = Router<TestEndpoint>(transport: URLSessionTransport(), callbackQueue: DispatchQueue(label: "read"))
        let echoed = try await reader.request(.fixture("echo"))
        let headers = try #require(try JSONSerialization.jsonObject(with: echoed.data) as? [String: Any])["headers"]
        let cookie = (headers as? [String: Any])?.first { $0.key.lowercased() == "cookie" }?.value as? String
        #expect(cookie?.contains("expiring=1") == true, "sent \(cookie ?? "no cookie")")

        // A configuration given explicitly is the caller's choice, `.shared` included.
        #expect(URLSessionTransport(configuration: .default).session.configuration.httpCookieStorage === HTTPCookieStorage.shared)
        print("COOKIES: done")
    }

    static func files(under directory: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory)
        var found: [String] = []
        while let name = enumerator?.nextObject() as? String {
            found.append(directory + "/" + name)
        }
        return found
    }
}
#endif
