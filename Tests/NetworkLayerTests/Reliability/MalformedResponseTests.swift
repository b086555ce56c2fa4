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

        /// What each transport reports for a reply that is wrong on the wire: the same code on
        /// both, and a message that names what was wrong (the Reliability article's table).
        static let wireOutcomes: [(path: String, code: URLError.Code, says: String)] = [
            ("not-http", .badServerResponse, "not HTTP"),
            ("both-framings", .badServerResponse, "both Transfer-Encoding and Content-Length"),
            ("invalid-status-line", .badServerResponse, "status line is not HTTP"),
            ("huge-header?kib=200", .badServerResponse, "header line"),
            ("bad-content-length?value=5five", .badServerResponse, "Content-Length"),
        ]

        @Test(arguments: TestTransport.all, wireOutcomes.indices)
        func aWrongReplyIsTheSameTypedErrorOnBothTransports(_ transport: TestTransport, row: Int) async throws {
            let (path, code, says) = Self.wireOutcomes[row]
            let error = try #require(await transportError(path, over: transport))
            #expect(error.code == code, "\(path): \(error.localizedDescription)")
            #expect(error.localizedDescription.contains(says), "\(path): \(error.localizedDescription)")
        }

        /// Past 1 MiB a URL is refused before anything is sent, with one error on both transports
        /// (FoundationNetworking failed a 10 MB query after 3.5 s as -1000, libcurl refused the
        /// option in its own words).
        @Test(arguments: TestTransport.all)
        func aURLTooLongForAnyServerIsRefusedBeforeSending(_ transport: TestTransport) async throws {
            var endpoint = TestEndpoint.fixture("echo")
            endpoint.task = .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["q": String(repeating: "a", count: 10_000_000)])
            do {
                _ = try await transport.router().request(endpoint)
                Issue.record("a 10 MB URL was sent")
            } catch NetworkError.invalidRequest(.urlTooLong(let length, let limit)) {
                #expect(length > 10_000_000 && limit == 1 << 20)
                #expect(NetworkError.invalidRequest(.urlTooLong(length: length, limit: limit)).localizedDescription.contains("URL is"))
            } catch {
                Issue.record("expected urlTooLong, got \(error)")
            }
            // No time bound: the typed refusal is what shows that nothing was sent, and encoding
            // 10 MB in a debug build beside the other suites takes seconds of a shared CPU.
        }

        /// `user:password@` in a base URL is Basic authentication on both transports (it was on
        /// URLSession only), and never stays in the URL that errors and logs show.
        @Test(arguments: TestTransport.all)
        func credentialsInTheBaseURLAreBasicAuthenticationOnBothTransports(_ transport: TestTransport) async throws {
            let fixture = try #require(TestServers.fixture)
            var components = try #require(URLComponents(url: fixture, resolvingAgainstBaseURL: false))
            components.user = "alice"
            components.password = "s3cret"
            let endpoint = TestEndpoint(baseURL: try #require(components.url), path: "echo")
            let response = try await transport.router().request(endpoint)
            let headers = try #require(try jsonObject(response.data)["headers"] as? [String: String])
            #expect(headers["authorization"] == "Basic " + Data("alice:s3cret".utf8).base64EncodedString())
            #expect(response.request.url?.user == nil)
            #expect(response.request.url?.absoluteString.contains("s3cret") == false)
        }

        @Test(arguments: TestTransport.all)
        func aHeaderLineOver100KiBIsABadServerResponse(_ transport: TestTransport) async throws {
            let error = try #require(await transportError("huge-header?kib=200", over: transport))
            #expect(error.code == .badServerResponse)
            #expect(error.localizedDescription.contains("header"), "\(error.localizedDescription)")
        }
    }
}

extension Reliability {
    /// Compression on the wire, decoded for the caller, the same on both transports.
    @Suite("Content encoding", .needsFixtureServer)
    struct ContentEncodingTests {
        @Test(arguments: TestTransport.all)
        func bothTransportsAskForGzip(_ transport: TestTransport) async throws {
            let echo = try jsonObject(try await transport.router().request(TestEndpoint.fixture("echo")).data)
            let headers = try #require(echo["headers"] as? [String: String])
            #expect(headers["accept-encoding"]?.contains("gzip") == true, "\(headers)")
        }

        /// A gzip body of about 1 KiB that inflates to 1 MiB of zeros arrives decoded.
        @Test(arguments: TestTransport.all)
        func aGzipBodyArrivesDecoded(_ transport: TestTransport) async throws {
            let response = try await transport.router().request(TestEndpoint.fixture("limits/gzip-bomb?mib=1"))
            #expect(response.data.count == 1 << 20)
            #expect(response.data.allSatisfy { $0 == 0 })
        }
    }
}
