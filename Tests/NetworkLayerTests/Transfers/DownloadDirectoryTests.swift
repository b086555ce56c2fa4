import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads into a folder, named by the response: httpbin's /response-headers sends the
/// Content-Disposition a test asks for, and the fixture's /bytes/{n} names the file by its URL.
///
/// Part of the serialized "Download placement" suite: both look for download files left in the
/// temporary folder, and would see each other's downloads in progress if they ran side by side.
extension DownloadPlacementTests {
    private func download(_ endpoint: TestEndpoint, to destination: DownloadDestination) -> TestEndpoint {
        var endpoint = endpoint
        endpoint.task = .download(destination)
        return endpoint
    }

    private func endpointWithHeader(_ value: String, into destination: DownloadDestination) -> TestEndpoint {
        .httpbin("response-headers", task: .download(destination, urlParameters: ["Content-Disposition": value]))
    }

    @Test(.needsHTTPBin, arguments: TestTransport.all) func theFileIsNamedByContentDisposition(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let response = try await router.request(endpointWithHeader(#"attachment; filename="report 2024.json""#, into: .directory(folder)))
        let file = folder.appendingPathComponent("report 2024.json")
        #expect(response.fileURL == file)
        // httpbin's body echoes the headers it set.
        let body = try jsonObject(try Data(contentsOf: file))
        #expect(body["Content-Disposition"] as? String == #"attachment; filename="report 2024.json""#)
    }

    @Test(.needsHTTPBin, arguments: TestTransport.all) func filenameStarWinsOverTheWire(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let response = try await router.request(
            endpointWithHeader(#"attachment; filename="plain.json"; filename*=UTF-8''r%C3%A9sum%C3%A9.json"#, into: .directory(folder)))
        #expect(response.fileURL?.lastPathComponent == "résumé.json")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["résumé.json"])
    }

    @Test(.needsHTTPBin, arguments: TestTransport.all) func aServerCannotWriteOutsideTheFolder(_ transport: TestTransport) async throws {
        let router = transport.router()
        let root = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("inside")
        let response = try await router.request(
            endpointWithHeader(#"attachment; filename="../outside.json""#, into: .directory(folder, options: [.createIntermediateDirectories])))
        #expect(response.fileURL == folder.appendingPathComponent("outside.json"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["inside"])
    }

    @Test(arguments: TestTransport.all) func withoutAHeaderTheURLNamesTheFile(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let response = try await router.request(download(.fixture("bytes/2048?seed=named"), to: .directory(folder)))
        #expect(response.fileURL == folder.appendingPathComponent("2048"))
        #expect(Payload.size(of: folder.appendingPathComponent("2048")) == 2048)
    }

    @Test(arguments: TestTransport.all) func anExistingFileInTheFolderIsKeptUnlessReplacing(_ transport: TestTransport) async throws {
        let router = transport.router()
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = folder.appendingPathComponent("100")
        try Data("keep".utf8).write(to: existing)
        do {
            _ = try await router.request(download(.fixture("bytes/100?seed=exists"), to: .directory(folder)))
            Issue.record("expected destinationExists")
        } catch {
            guard case .download(.destinationExists(let path)) = error else {
                Issue.record("expected destinationExists, got \(error)")
                return
            }
            #expect(path == existing.path)
        }
        #expect(try Data(contentsOf: existing) == Data("keep".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["100"])

        let replaced = try await router.request(
            download(.fixture("bytes/100?seed=exists"), to: .directory(folder, options: [.replaceExisting])))
        #expect(replaced.fileURL == existing)
        #expect(Payload.size(of: existing) == 100)
    }

    @Test func aResponseThatNamesNoFileFailsWithATypedErrorAndLeavesNothing() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let router = Router<TestEndpoint>(
            transport: StubTransport(StubResponse(headers: ["Content-Disposition": #"attachment; filename="..""#], data: Data("x".utf8))),
            callbackQueue: DispatchQueue(label: "directory-tests"))
        var endpoint = TestEndpoint(baseURL: URL(string: "https://example.invalid/")!, path: "")
        endpoint.task = .download(.directory(folder))
        let before = leftoverTemporaryFiles()
        do {
            _ = try await router.request(endpoint)
            Issue.record("expected noFileName")
        } catch {
            guard case .download(.noFileName(let url)) = error else {
                Issue.record("expected noFileName, got \(error)")
                return
            }
            #expect(url == "https://example.invalid/")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(leftoverTemporaryFiles().subtracting(before).isEmpty)
    }

    @Test func aFolderDestinationIsNeverResumable() {
        var destination = DownloadDestination.directory(URL(fileURLWithPath: "/tmp/x"))
        destination.resumable = true
        #expect(destination.isNamedByResponse)
        #expect(!destination.resumes)
    }

}
