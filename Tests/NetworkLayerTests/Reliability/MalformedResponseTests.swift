import Foundation
import NetworkLayer
import Testing
import TestSupport
import TransportTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Reliability {
    /// Responses whose head is broken: each is a transport error that says what the server got
    /// wrong, never a success and never a misleading "unsupported URL" or "out of memory", over
    /// each transport.
    @Suite("Malformed responses", .needsFixtureServer)
    struct MalformedResponseTests {
        private func transportError(_ path: String, task: HTTPTask = .request, over transport: TestTransport) async -> URLError? {
            var endpoint = TestEndpoint.fixture(path)
            endpoint.task = task
            do {
                let response = try await transport.router().request(endpoint)
                Issue.record("expected a transport error, got \(response.statusCode) with \(response.data.count) bytes")
                return nil
            } catch NetworkError.transport(let error) {
                return error
            } catch {
                Issue.record("expected a transport error, got \(error)")
                return nil
            }
        }

        /// libcurl reads `5five` as 5, `1e3` as 1 and `0x10` as 0, and the body is cut to that.
        @Test(arguments: TestTransport.all, ["5five", "1e3", "0x10", "-5", "+11", "", "11 11"])
        func aContentLengthThatIsNotADecimalNumberIsAnError(_ transport: TestTransport, value: String) async throws {
            let error = try #require(
                await transportError("bad-content-length?value=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")", over: transport))
            #expect(error.code == .badServerResponse)
            #expect(error.localizedDescription.contains("Content-Length"), "\(error.localizedDescription)")
        }

        @Test(arguments: TestTransport.all)
        func aContentLengthThatIsNotADecimalNumberFailsADownloadToo(_ transport: TestTransport) async throws {
            let folder = try scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("d.bin")
            let error = try #require(await transportError("bad-content-length?value=5five", task: .download(DownloadDestination(file)), over: transport))
            #expect(error.code == .badServerResponse)
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }

        @Test(arguments: TestTransport.all)
        func aRepeatedEqualContentLengthIsAccepted(_ transport: TestTransport) async throws {
            let response = try await transport.router().request(TestEndpoint.fixture("bad-content-length?value=11,%2011"))
            #expect(response.text == "hello world")
        }

        @Test(arguments: TestTransport.all)
        func anInvalidStatusLineIsABadServerResponse(_ transport: TestTransport) async throws {
            let error = try #require(await transportError("invalid-status-line", over: transport))
            #expect(error.code == .badServerResponse)
            #expect(error.localizedDescription.contains("server"), "\(error.localizedDescription)")
        }

        @Test(arguments: TestTransport.all)
        func aHeaderLineOver100KiBIsABadServerResponse(_ transport: TestTransport) async throws {
            let error = try #require(await transportError("huge-header?kib=200", over: transport))
            #expect(error.code == .badServerResponse)
            #expect(error.localizedDescription.contains("header"), "\(error.localizedDescription)")
        }
    }
}
