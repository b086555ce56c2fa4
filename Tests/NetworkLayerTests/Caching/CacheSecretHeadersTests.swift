import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response header that the router's redaction names is a secret the cache never keeps: not
/// in its files, not in what it serves again (found from outside 2026-11-27: a rotated
/// `X-Session-Token` sat in clear in the disk cache's entry, and came back with every hit).
@Suite("The cache keeps no secret header", .needsFixtureServer)
final class CacheSecretHeadersTests {
    private let folder: URL

    init() throws {
        folder = try scratchFolder()
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    private func router(
        _ transport: TestTransport, redaction: Redaction = .default.merging(Redaction(headers: ["X-Session-Token"])),
        cache: HTTPCache? = nil
    ) throws -> Router<CachedEndpoint> {
        let cache = try cache ?? HTTPCache(configuration: .init(memoryCapacity: 0, directory: folder))
        return Router(transport: transport.make(), callbackQueue: DispatchQueue(label: "tests"), redaction: redaction, cache: cache)
    }

    private func endpoint(_ path: String) -> CachedEndpoint {
        CachedEndpoint(base: .fixture(path), cachePolicy: .useProtocolCachePolicy)
    }

    /// Every byte the cache wrote to its folder.
    private func filesOnDisk() throws -> Data {
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
        var all = Data()
        for name in names {
            var isFolder: ObjCBool = false
            let path = folder.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                all.append(try Data(contentsOf: URL(fileURLWithPath: path)))
            }
        }
        return all
    }

    @Test(arguments: TestTransport.all)
    func aStoredResponseHasNoSecretHeaderOnDiskOrWhenServed(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let router = try router(transport)
        let first = try await router.request(endpoint("cache/secret-header/\(key)"))
        // The caller still gets the header from the network: only what is kept loses it.
        #expect(first.header("X-Session-Token") == "ROTATED-SECRET-1")
        #expect(first.cacheOutcome == .network)
        let files = try filesOnDisk()
        #expect(!files.isEmpty, "the response was stored")
        #expect(files.range(of: Data("ROTATED-SECRET".utf8)) == nil)
        #expect(files.range(of: Data("\"fixed\"".utf8)) != nil, "the other headers are kept")

        let second = try await router.request(endpoint("cache/secret-header/\(key)"))
        #expect(second.cacheOutcome == .hit)
        #expect(second.header("X-Session-Token") == nil)
    }

    /// `headers.insert` with the name as a server spells it: lower-cased like the initialiser's
    /// names, so the cache (and every redaction) knows it (helper-31, 2026-11-27).
    @Test(arguments: TestTransport.all)
    func aNameInsertedInAnyCaseIsKeptOut(_ transport: TestTransport) async throws {
        var redaction = Redaction.default
        redaction.headers.insert("X-Session-Token")
        let router = try router(transport, redaction: redaction)
        _ = try await router.request(endpoint("cache/secret-header/\(UUID().uuidString)"))
        #expect(try filesOnDisk().range(of: Data("ROTATED-SECRET".utf8)) == nil)
        #expect(redaction.header("x-session-token", "ROTATED-SECRET-1") == redaction.replacement)
    }

    /// A cache shared with a router that names fewer secrets: what that one stored is served
    /// to this one without the header (helper-31, 2026-11-27).
    @Test(arguments: TestTransport.all)
    func whatAnotherRouterStoredIsServedWithoutTheSecret(_ transport: TestTransport) async throws {
        let cache = try HTTPCache(configuration: .init(memoryCapacity: 0, directory: folder))
        let path = "cache/secret-header/\(UUID().uuidString)"
        _ = try await router(transport, redaction: .default, cache: cache).request(endpoint(path))
        #expect(try filesOnDisk().range(of: Data("ROTATED-SECRET-1".utf8)) != nil, "the first router stored it: the test ran nothing")
        let hit = try await router(transport, cache: cache).request(endpoint(path))
        #expect(hit.cacheOutcome == .hit)
        #expect(hit.header("X-Session-Token") == nil)
    }

    /// ... and a revalidation through this one removes it from the stored entry: the 304's
    /// credential is kept out, and so is the older one.
    @Test(arguments: TestTransport.all)
    func aRevalidationRemovesTheSecretAnotherRouterStored(_ transport: TestTransport) async throws {
        let cache = try HTTPCache(configuration: .init(memoryCapacity: 0, directory: folder))
        let path = "cache/secret-header/\(UUID().uuidString)?max_age=0"
        _ = try await router(transport, redaction: .default, cache: cache).request(endpoint(path))
        #expect(try filesOnDisk().range(of: Data("ROTATED-SECRET-1".utf8)) != nil, "the first router stored it: the test ran nothing")
        let revalidated = try await router(transport, cache: cache).request(endpoint(path))
        #expect(revalidated.cacheOutcome == .revalidated)
        #expect(revalidated.header("X-Session-Token") == "ROTATED-SECRET-2")
        #expect(try filesOnDisk().range(of: Data("ROTATED-SECRET".utf8)) == nil)
    }

    @Test(arguments: TestTransport.all)
    func aRevalidationKeepsNoSecretHeaderEither(_ transport: TestTransport) async throws {
        let key = UUID().uuidString
        let router = try router(transport)
        _ = try await router.request(endpoint("cache/secret-header/\(key)?max_age=0"))
        let second = try await router.request(endpoint("cache/secret-header/\(key)?max_age=0"))
        #expect(second.cacheOutcome == .revalidated)
        // What the server sent with its 304 is the caller's.
        #expect(second.header("X-Session-Token") == "ROTATED-SECRET-2")
        #expect(try filesOnDisk().range(of: Data("ROTATED-SECRET".utf8)) == nil)
    }
}
