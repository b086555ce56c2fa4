import Foundation
import Testing
import TestSupport
import TransportTestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Reliability {
    /// When a kept-alive connection turns out closed, libcurl sends the request again on a new
    /// one and rewinds the body. A file upload is a stream that URLSessionTransport's session
    /// delegate opens anew and CurlTransport reads again from its start; an in-memory body, which
    /// FoundationNetworking cannot rewind, is sent again by URLSessionTransport on a new task. So
    /// the body goes again and the outcome comes at once over either transport; it no longer
    /// waits for the deadline.
    @Suite("Reused connections", .needsFixtureServer)
    struct ReusedConnectionTests {
        @Test(arguments: TestTransport.all)
        func aFileUploadOnAReusedConnectionThatTheServerClosesFailsAtOnce(_ transport: TestTransport) async throws {
            let folder = try scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("body.bin")
            try Data(repeating: 1, count: 50_000).write(to: file)
            let router = transport.router()
            #expect(try await router.request(.fixture("fast")).statusCode == 200)

            var endpoint = TestEndpoint.fixture("close-before-response", .post, timeout: TestTiming.requestTimeout)
            endpoint.task = .uploadFile(file)
            await #expect {
                try await router.request(endpoint)
            } throws: { error in
                guard case NetworkError.transport(let urlError) = error else { return false }
                return urlError.code == .badServerResponse
            }
        }

        /// `/once-per-connection` answers the first request of each connection and closes the
        /// connection on the next, as a server whose keep-alive timer fires just then. Before
        /// issue 23 (item 9), URLSessionTransport's copy went without its body and waited for
        /// the deadline.
        @Test(arguments: TestTransport.all, [BodyKind.parameters, .uploadData, .smallFile])
        func anInMemoryBodyIsSentAgainWhenAKeptAliveConnectionClosesUnanswered(
            _ transport: TestTransport, _ kind: BodyKind
        ) async throws {
            let folder = try scratchFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let router = transport.router()
            // The first request goes the same way as the second (URLSessionTransport sends
            // uploads on a session of their own), so that the second finds its connection.
            var first = TestEndpoint.fixture("once-per-connection", .post, timeout: TestTiming.requestTimeout)
            first.task = kind == .parameters ? .requestData(Data("first".utf8), contentType: nil) : .uploadData(Data("first".utf8))
            #expect(try await router.request(first).statusCode == 200)

            var second = TestEndpoint.fixture("once-per-connection", .post, timeout: TestTiming.requestTimeout)
            let body: Data
            switch kind {
            case .parameters:
                let text = String(repeating: "n", count: 20_000)
                second.task = .requestParameters(bodyParameters: ["text": text], bodyEncoding: .json, urlParameters: nil)
                body = Data(#"{"text":"\#(text)"}"#.utf8)
            case .uploadData:
                body = Data.bytePattern(count: 60_000)
                second.task = .uploadData(body)
            case .smallFile:
                body = Data.bytePattern(count: 60_000, step: 7)
                let file = folder.appendingPathComponent("body.bin")
                try body.write(to: file)
                second.task = .uploadFile(file)
            }
            let echo = try jsonObject(try await router.request(second).data)
            #expect(echo["size"] as? Int == body.count)
            #expect(echo["sha256"] as? String == (try sha256(of: body)))
        }

        /// A request without a body has nothing that could fail to go again: libcurl sends it
        /// again on a new connection by itself, and URLSessionTransport starts it as one task.
        @Test(arguments: TestTransport.all)
        func aRequestWithoutABodyIsSentAgainWhenAKeptAliveConnectionClosesUnanswered(_ transport: TestTransport) async throws {
            let router = transport.router()
            let endpoint = TestEndpoint.fixture("once-per-connection", timeout: TestTiming.requestTimeout)
            #expect(try await router.request(endpoint).statusCode == 200)
            let echo = try jsonObject(try await router.request(endpoint).data)
            #expect(echo["size"] as? Int == 0)
        }

        /// A streamed response's request goes on a task whose body FoundationNetworking cannot
        /// give again either; URLSessionTransport does not start a stream anew (part of it may
        /// have been read), so the stream fails at once with `.networkConnectionLost` instead
        /// of waiting for its deadline. CurlTransport rewinds the body and the stream succeeds.
        @Test(arguments: TestTransport.all)
        func aStreamWithABodyOnAKeptAliveConnectionThatClosesUnansweredEndsAtOnce(_ transport: TestTransport) async throws {
            let router = transport.router()
            var first = TestEndpoint.fixture("once-per-connection", .post, timeout: TestTiming.requestTimeout)
            first.task = .uploadData(Data("first".utf8))
            #expect(try await router.request(first).statusCode == 200)

            var second = TestEndpoint.fixture("once-per-connection", .post, timeout: TestTiming.requestTimeout)
            let body = Data(repeating: 7, count: 30_000)
            second.task = .requestData(body, contentType: nil)
            let result: Result<Data, any Error>
            do {
                var received = Data()
                for try await chunk in router.stream(second) { received.append(chunk) }
                result = .success(received)
            } catch {
                result = .failure(error)
            }
            switch (transport, result) {
            case (.curl, .success(let received)):
                #expect(try jsonObject(received)["size"] as? Int == body.count)
            case (.urlSession, .failure(let error)):
                let code = (error as? NetworkError).flatMap { error -> URLError.Code? in
                    guard case .transport(let urlError) = error else { return nil }
                    return urlError.code
                }
                #expect(code == .networkConnectionLost, "\(error)")
            default:
                Issue.record("unexpected outcome over \(transport): \(result)")
            }
        }

        enum BodyKind: Sendable, CustomTestStringConvertible {
            case parameters, uploadData, smallFile
            var testDescription: String {
                switch self {
                case .parameters: return "JSON parameters (the plain path)"
                case .uploadData: return "an upload of Data"
                case .smallFile: return "a file sent with its length"
                }
            }
        }
    }
}
