import Foundation
import NetworkLayer
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Reliability {
    /// Responses whose head is broken: each is a transport error that says what the server got
    /// wrong, never a success and never a misleading "unsupported URL" or "out of memory".
    @Suite("Malformed responses", .needsFixtureServer)
    struct MalformedResponseTests {
        let router = Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "tests"))

        private func transportError(_ path: String, task: HTTPTask = .request) async -> URLError? {
            var endpoint = TestEndpoint.fixture(path)
            endpoint.task = task
            do {
                let response = try await router.request(endpoint)
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
        @Test(arguments: ["5five", "1e3", "0x10", "-5", "+11", "", "11 11"])
        func aContentLengthThatIsNotADecimalNumberIsAnError(value: String) async throws {
            let error = try #require(
                await transportError("bad-content-length?value=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"))
            #expect(error.code == .badServerResponse)
            #expect(error.localizedDescription.contains("Content-Length"), "\(error.localizedDescription)")
        }

        @Test func aContentLengthThatIsNotADecimalNumberFailsADownloadToo() async throws {
            let folder = try scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("d.bin")
            let error = try #require(await transportError("bad-content-length?value=5five", task: .download(DownloadDestination(file))))
            #expect(error.code == .badServerResponse)
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }

        @Test func aRepeatedEqualContentLengthIsAccepted() async throws {
            let response = try await router.request(TestEndpoint.fixture("bad-content-length?value=11,%2011"))
            #expect(response.text == "hello world")
        }

        @Test func anInvalidStatusLineIsABadServerResponse() async throws {
            let error = try #require(await transportError("invalid-status-line"))
            #expect(error.code == .badServerResponse)
            #expect(error.localizedDescription.contains("server"), "\(error.localizedDescription)")
        }

        @Test func aHeaderLineOver100KiBIsABadServerResponse() async throws {
            let error = try #require(await transportError("huge-header?kib=200"))
            #expect(error.code == .badServerResponse)
            #expect(error.localizedDescription.contains("header"), "\(error.localizedDescription)")
        }
    }
}
