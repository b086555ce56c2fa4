import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A resumed download continues only the file its first part came from (issue 23, item 10),
/// against the fixture's `/changing/{key}`, whose file changes when told to and whose first
/// answer is cut short.
extension TransferTests {
    private static let changingSize = 200_000

    private func changing(_ key: String, _ query: String = "", task: HTTPTask) -> TestEndpoint {
        var endpoint = TestEndpoint.fixture("changing/\(key)?size=\(Self.changingSize)&cut=50000\(query)", timeout: 30)
        endpoint.task = task
        return endpoint
    }

    /// The requests the fixture saw for `key`: their `Range` and `If-Range`.
    private func changingLog(_ key: String) async throws -> [[String: Any]] {
        let log = try await Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "log")).request(.fixture("changing/\(key)/log"))
        return try jsonObject(log.data)["requests"] as? [[String: Any]] ?? []
    }

    /// Interrupts the first download of `key`, leaving a partial file.
    private func interruptedDownload(_ endpoint: TestEndpoint, router: Router<TestEndpoint>, partial: URL) async throws -> Int64 {
        do {
            _ = try await router.request(endpoint)
            Issue.record("the cut download succeeded")
        } catch {}
        let kept = Payload.size(of: partial)
        #expect(kept > 0 && kept < Int64(Self.changingSize), "the first part is kept")
        return kept
    }

    @Test(arguments: TestTransport.all)
    func aFileChangedOnTheServerIsFetchedWholeNotSpliced(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = "splice-\(transport)-\(UUID().uuidString)"
        let destination = DownloadDestination(folder.appendingPathComponent("changing.bin"), resumable: true)
        let kept = try await interruptedDownload(
            changing(key, task: .download(destination)), router: router, partial: destination.partialFileURL)

        // The file changes on the server between the interruption and the resumption.
        _ = try await router.request(.fixture("changing/\(key)/bump"))
        let response = try await router.request(changing(key, task: .download(destination)))

        #expect(response.request.value(forHTTPHeaderField: "Range") == "bytes=\(kept)-")
        #expect(response.request.value(forHTTPHeaderField: "If-Range") == "\"\(key)-v1\"")
        #expect(response.statusCode == 200, "the changed file is sent whole")
        #expect(try sha256(ofFile: destination.url) == (try await fixtureDigest(bytes: Self.changingSize, seed: "\(key):v2")))
        #expect(!FileManager.default.fileExists(atPath: destination.partialFileURL.path))
        let log = try await changingLog(key)
        #expect(log.last?["if_range"] as? String == "\"\(key)-v1\"")
    }

    @Test(arguments: TestTransport.all)
    func anUnchangedFileIsResumedWithIfRange(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = "same-\(transport)-\(UUID().uuidString)"
        let destination = DownloadDestination(folder.appendingPathComponent("same.bin"), resumable: true)
        let kept = try await interruptedDownload(
            changing(key, task: .download(destination)), router: router, partial: destination.partialFileURL)
        let response = try await router.request(changing(key, task: .download(destination)))
        #expect(response.statusCode == 206)
        #expect(response.request.value(forHTTPHeaderField: "Range") == "bytes=\(kept)-")
        #expect(response.request.value(forHTTPHeaderField: "If-Range") == "\"\(key)-v1\"")
        #expect(try sha256(ofFile: destination.url) == (try await fixtureDigest(bytes: Self.changingSize, seed: "\(key):v1")))
    }

    @Test(arguments: TestTransport.all)
    func aPartialFileWithoutAValidatorIsNotResumed(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = "novalidator-\(transport)-\(UUID().uuidString)"
        let destination = DownloadDestination(folder.appendingPathComponent("plain.bin"), resumable: true)
        _ = try await interruptedDownload(
            changing(key, "&validators=none", task: .download(destination)), router: router,
            partial: destination.partialFileURL)
        _ = try await router.request(.fixture("changing/\(key)/bump"))
        let response = try await router.request(changing(key, "&validators=none", task: .download(destination)))
        #expect(response.statusCode == 200)
        #expect(response.request.value(forHTTPHeaderField: "Range") == nil, "nothing to resume against")
        #expect(try sha256(ofFile: destination.url) == (try await fixtureDigest(bytes: Self.changingSize, seed: "\(key):v2")))
        #expect((try await changingLog(key)).allSatisfy { $0["range"] is NSNull || $0["range"] == nil })
    }

    /// A file of the user's that happens to sit at `<destination>.partial` is neither resumed from
    /// nor removed, whether the download fails or succeeds (found from outside: it was deleted).
    @Test(arguments: TestTransport.all)
    func aFileOfTheUsersAtThePartialPathIsLeftAlone(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = "users-\(transport)-\(UUID().uuidString)"
        let destination = DownloadDestination(folder.appendingPathComponent("notes.bin"), resumable: true)
        let own = Data("the user's own notes, which are not a download".utf8)
        try own.write(to: destination.partialFileURL)

        do {
            _ = try await router.request(changing(key, task: .download(destination)))
            Issue.record("the cut download succeeded")
        } catch {}
        #expect(try Data(contentsOf: destination.partialFileURL) == own, "a failed download leaves it")

        var whole = TestEndpoint.fixture("bytes/5000?seed=users", timeout: 60)
        whole.task = .download(destination)
        let response = try await router.request(whole)
        #expect(response.statusCode == 200)
        #expect(response.request.value(forHTTPHeaderField: "Range") == nil, "nothing is resumed from it")
        #expect(try sha256(ofFile: destination.url) == (try await fixtureDigest(bytes: 5000, seed: "users")))
        #expect(try Data(contentsOf: destination.partialFileURL) == own, "a successful download leaves it")
        #expect((try await changingLog(key)).allSatisfy { $0["range"] is NSNull || $0["range"] == nil })
    }

    /// A file the package delivered is the user's: it keeps no mark of a partial download, so a
    /// later resumable download whose `.partial` path it sits at leaves it alone (found from
    /// outside 2026-11-27: the delivered file kept its mark, was taken for a partial of ours,
    /// and was removed).
    @Test(arguments: TestTransport.all)
    func aDeliveredFileIsNeverTakenForAPartialOfOurs(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = DownloadDestination(folder.appendingPathComponent("notes.bin"), resumable: true)
        let key = "delivered-\(transport)-\(UUID().uuidString)"

        // The whole file (no cut), with an ETag that a resumption would send in If-Range.
        func whole(_ task: HTTPTask) -> TestEndpoint {
            var endpoint = TestEndpoint.fixture("changing/\(key)?size=\(Self.changingSize)", timeout: 30)
            endpoint.task = task
            return endpoint
        }
        // The user's file, delivered by a download of its own, at the other's partial path.
        _ = try await router.request(whole(.download(DownloadDestination(destination.partialFileURL, resumable: true))))
        let users = try Data(contentsOf: destination.partialFileURL)
        #expect(users.count == Self.changingSize)
        #expect(!ResumeValidator.isMarked(destination.partialFileURL), "a delivered file carries no mark")

        let response = try await router.request(whole(.download(destination)))
        #expect(response.statusCode == 200)
        #expect(response.request.value(forHTTPHeaderField: "Range") == nil, "nothing is resumed from it")
        #expect(try Data(contentsOf: destination.partialFileURL) == users, "the user's file is left as it was")
    }
}
